# SPDX-License-Identifier: Apache-2.0
"""numpy_calls.py: numpy products timed the way applications make them, for
scripts/bench-concurrent. Not Google Benchmark: the callers are Python threads and the limits
threadpoolctl's, which only a Python process has.

  numpy_calls.py threads --callers K --n N [--seconds S]
      K Python threads each compute a @ b (n x n, operands of their own) for S seconds;
      prints {"gflops": total rate}.
  numpy_calls.py limits --n N [--reps R]
      a @ b timed R times at the default count and R times inside
      threadpool_limits(1, "blas"), alternated; prints {"default_s", "limited_s"} (medians)
      and the BLAS counts threadpool_info() reported in each.

The BLAS under numpy is whatever the environment makes it (LD_PRELOAD, LD_LIBRARY_PATH).
"""
import argparse
import json
import statistics
import threading
import time

import numpy as np


def threads(args):
    rng = np.random.default_rng(3)
    operands = [(rng.standard_normal((args.n, args.n)), rng.standard_normal((args.n, args.n)))
                for _ in range(args.callers)]
    for a, b in operands:
        a @ b  # warm: the BLAS's threads and buffers exist before the clock starts
    counts = [0] * args.callers
    stop = threading.Event()
    start = threading.Barrier(args.callers + 1)

    def caller(index):
        a, b = operands[index]
        start.wait()
        while not stop.is_set():
            a @ b
            counts[index] += 1

    workers = [threading.Thread(target=caller, args=(i,)) for i in range(args.callers)]
    for w in workers:
        w.start()
    start.wait()
    began = time.perf_counter()
    time.sleep(args.seconds)
    stop.set()
    for w in workers:
        w.join()
    elapsed = time.perf_counter() - began
    print(json.dumps({"gflops": 2.0 * args.n ** 3 * sum(counts) / elapsed / 1e9}))


def limits(args):
    from threadpoolctl import threadpool_info, threadpool_limits

    def blas_counts():
        return [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]

    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((args.n, args.n)), rng.standard_normal((args.n, args.n))
    a @ b

    def timed():
        t0 = time.perf_counter()
        a @ b
        return time.perf_counter() - t0

    default, limited = [], []
    default_counts = blas_counts()
    for _ in range(args.reps):
        default.append(timed())
        with threadpool_limits(limits=1, user_api="blas"):
            limited_counts = blas_counts()
            limited.append(timed())
    print(json.dumps({"default_s": statistics.median(default),
                      "limited_s": statistics.median(limited),
                      "default_counts": default_counts, "limited_counts": limited_counts,
                      "restored_counts": blas_counts()}))


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="mode", required=True)
    t = sub.add_parser("threads")
    t.add_argument("--callers", type=int, default=4)
    t.add_argument("--n", type=int, default=300)
    t.add_argument("--seconds", type=float, default=2.0)
    l = sub.add_parser("limits")
    l.add_argument("--n", type=int, default=1500)
    l.add_argument("--reps", type=int, default=7)
    args = parser.parse_args()
    threads(args) if args.mode == "threads" else limits(args)


if __name__ == "__main__":
    main()
