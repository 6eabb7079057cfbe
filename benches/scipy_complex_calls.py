# SPDX-License-Identifier: Apache-2.0
"""scipy_complex_calls.py: the complex triangular solve and Hermitian update (?trsm, ?herk)
through scipy.linalg.blas, timed per call, for scripts/bench-complex. Not Google Benchmark: the
dense benches' arms call each library's real routines by name, while scipy reaches whatever BLAS
the environment makes it (LD_PRELOAD), so one program serves both arms.

  scipy_complex_calls.py --type z|c [--sizes 512,1024,2048] [--reps 7]
      prints one JSON object per routine and size: trsm (left, lower, conjugate transpose, n x n
      right-hand sides) and herk (lower, no transpose, k = n), 4 n^3 flops each, the rate of the
      median of `reps` calls after one warm-up call. scipy's wrapper copies B for trsm: the copy
      is timed, the same in every arm. Threads: the environment's (OPENBLAS_NUM_THREADS).
"""
import argparse
import json
import statistics
import time

import numpy as np
import scipy.linalg.blas as blas


def rate(call, n, reps):
    call()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return 4.0 * n ** 3 / statistics.median(times) / 1e9


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--type", choices=("z", "c"), default="z")
    parser.add_argument("--sizes", default="512,1024,2048")
    parser.add_argument("--reps", type=int, default=7)
    args = parser.parse_args()
    dtype = np.complex128 if args.type == "z" else np.complex64
    trsm = getattr(blas, args.type + "trsm")
    herk = getattr(blas, args.type + "herk")
    rng = np.random.default_rng(0)
    for n in [int(s) for s in args.sizes.split(",")]:
        a = np.asfortranarray(rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n)),
                              dtype=dtype)
        lower = np.asfortranarray(np.tril(a) / n + 2 * np.eye(n), dtype=dtype)  # well conditioned
        b = np.asfortranarray(rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n)),
                              dtype=dtype)
        rates = {"trsm": rate(lambda: trsm(1.0, lower, b, side=0, lower=1, trans_a=2), n, args.reps),
                 "herk": rate(lambda: herk(1.0, a, lower=1), n, args.reps)}
        for routine, gflops in rates.items():
            print(json.dumps({"routine": args.type + routine, "n": n, "gflops": gflops}))


if __name__ == "__main__":
    main()
