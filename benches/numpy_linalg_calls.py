# SPDX-License-Identifier: Apache-2.0
"""numpy_linalg_calls.py: numpy.linalg and scipy.linalg calls timed as applications make them,
for scripts/bench-numpy. Not Google Benchmark: the arms are Python processes whose BLAS and
LAPACK are whatever the environment makes them (LD_PRELOAD, LD_LIBRARY_PATH).

  numpy_linalg_calls.py --sizes 200,1000,2000 [--ops eigh,svd,...] [--budget S] [--calls K]

For each size and operation: one untimed call (the libraries' threads and buffers exist before
the clock starts), then calls until K (default 3) have run or `budget` seconds have passed (at
least one); prints one JSON line {"op", "n", "seconds", "calls"} with the median call time.
"""
import argparse
import json
import statistics
import time

import numpy as np
import scipy.linalg as sl

OPS = {
    "matmul": lambda m: m["a"] @ m["b"],
    "solve": lambda m: np.linalg.solve(m["a"], m["b"]),
    "inv": lambda m: np.linalg.inv(m["a"]),
    "det": lambda m: np.linalg.det(m["a"]),
    "cholesky": lambda m: np.linalg.cholesky(m["spd"]),
    "eigh": lambda m: np.linalg.eigh(m["sym"]),
    "eigvalsh": lambda m: np.linalg.eigvalsh(m["sym"]),
    "eig": lambda m: np.linalg.eig(m["a"]),
    "svd": lambda m: np.linalg.svd(m["a"]),
    "qr": lambda m: np.linalg.qr(m["a"]),
    "lstsq": lambda m: np.linalg.lstsq(m["tall"], m["tall_b"], rcond=None),
    "pinv": lambda m: np.linalg.pinv(m["a"]),
    "scipy.eigh": lambda m: sl.eigh(m["sym"]),
    "scipy.svd": lambda m: sl.svd(m["a"]),
    "scipy.qr": lambda m: sl.qr(m["a"]),
    "scipy.lstsq": lambda m: sl.lstsq(m["tall"], m["tall_b"]),
    "scipy.lu_factor": lambda m: sl.lu_factor(m["a"]),
}


def operands(n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n, n))
    return {
        "a": a,
        "b": rng.standard_normal((n, n)),
        "sym": a + a.T,
        "spd": a @ a.T + n * np.eye(n),
        "tall": rng.standard_normal((2 * n, n)),
        "tall_b": rng.standard_normal((2 * n, 4)),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="200,1000,2000")
    parser.add_argument("--ops", default=",".join(OPS))
    parser.add_argument("--budget", type=float, default=2.0)
    parser.add_argument("--calls", type=int, default=3)
    args = parser.parse_args()
    for n in [int(s) for s in args.sizes.split(",")]:
        m = operands(n)
        for op in args.ops.split(","):
            OPS[op](m)
            times = []
            began = time.perf_counter()
            while len(times) < args.calls and (not times or time.perf_counter() - began < args.budget):
                start = time.perf_counter()
                OPS[op](m)
                times.append(time.perf_counter() - start)
            print(json.dumps({"op": op, "n": n, "seconds": statistics.median(times),
                              "calls": len(times)}), flush=True)


if __name__ == "__main__":
    main()
