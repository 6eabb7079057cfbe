# SPDX-License-Identifier: Apache-2.0
"""scipy_complex_calls.py: the complex level 3 but gemm, and LU (?getrf, ?gesv), through
scipy.linalg.blas and .lapack, timed per call, for scripts/bench-complex. Not Google Benchmark: the
dense benches' arms call each library's real routines by name, while scipy reaches whatever BLAS
the environment makes it (LD_PRELOAD), so one program serves both arms.

  scipy_complex_calls.py --type z|c [--sizes 512,1024,2048] [--routines trsm,herk] [--reps 7]
      prints one JSON object per routine and size, the rate of the median of `reps` calls after
      one warm-up call: trsm and trmm (left, lower, conjugate transpose, n x n right-hand
      sides), herk, syrk, syr2k, her2k (lower, no transpose, k = n), symm and hemm (left,
      lower), getrf and gesv (one right-hand side; A restored before each call, untimed).
      scipy's wrappers copy the operands they write (B of trsm/trmm): the copy is timed, the
      same in every arm. Threads: the environment's (OPENBLAS_NUM_THREADS).
"""
import argparse
import json
import statistics
import time

import numpy as np
import scipy.linalg.blas as blas
import scipy.linalg.lapack as lapack


# FLOPS: each routine's flops at order n (every operand n x n; k = n), in complex arithmetic.
FLOPS = {"trsm": 4.0, "trmm": 4.0, "herk": 4.0, "syrk": 4.0, "symm": 8.0, "hemm": 8.0,
         "syr2k": 8.0, "her2k": 8.0, "getrf": 8.0 / 3.0, "gesv": 8.0 / 3.0}


def rate(call, n, reps, flops, setup=None):
    """The rate of the median of `reps` calls after one warm-up; setup() runs untimed first."""
    times = []
    for rep in range(reps + 1):
        if setup is not None:
            setup()
        start = time.perf_counter()
        call()
        if rep > 0:
            times.append(time.perf_counter() - start)
    return flops * n ** 3 / statistics.median(times) / 1e9


def calls(p, dtype, n, rng):
    """Each routine's call on fresh n x n operands (the factorizations restore theirs, untimed)."""
    def matrix():
        return np.asfortranarray(rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n)),
                                 dtype=dtype)
    a, b = matrix(), matrix()
    lower = np.asfortranarray(np.tril(a) / n + 2 * np.eye(n), dtype=dtype)  # well conditioned
    blas_fn = lambda name: getattr(blas, p + name)
    lapack_fn = lambda name: getattr(lapack, p + name)
    work = np.asfortranarray(a.copy())
    rhs = np.asfortranarray(b[:, :1].copy())
    restore = lambda: (np.copyto(work, a), np.copyto(rhs, b[:, :1]))
    return {
        "trsm": (lambda: blas_fn("trsm")(1.0, lower, b, side=0, lower=1, trans_a=2), None),
        "trmm": (lambda: blas_fn("trmm")(1.0, lower, b, side=0, lower=1, trans_a=2), None),
        "herk": (lambda: blas_fn("herk")(1.0, a, lower=1), None),
        "syrk": (lambda: blas_fn("syrk")(1.0, a, lower=1), None),
        "symm": (lambda: blas_fn("symm")(1.0, a, b, lower=1), None),
        "hemm": (lambda: blas_fn("hemm")(1.0, a, b, lower=1), None),
        "syr2k": (lambda: blas_fn("syr2k")(1.0, a, b, lower=1), None),
        "her2k": (lambda: blas_fn("her2k")(1.0, a, b, lower=1), None),
        "getrf": (lambda: lapack_fn("getrf")(work, overwrite_a=1), restore),
        "gesv": (lambda: lapack_fn("gesv")(work, rhs, overwrite_a=1, overwrite_b=1), restore),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--type", choices=("z", "c"), default="z")
    parser.add_argument("--sizes", default="512,1024,2048")
    parser.add_argument("--routines", default="trsm,herk")
    parser.add_argument("--reps", type=int, default=7)
    args = parser.parse_args()
    dtype = np.complex128 if args.type == "z" else np.complex64
    rng = np.random.default_rng(0)
    for n in [int(s) for s in args.sizes.split(",")]:
        table = calls(args.type, dtype, n, rng)
        for routine in args.routines.split(","):
            call, setup = table[routine]
            gflops = rate(call, n, args.reps, FLOPS[routine], setup)
            print(json.dumps({"routine": args.type + routine, "n": n, "gflops": gflops}))


if __name__ == "__main__":
    main()
