# SPDX-License-Identifier: Apache-2.0
"""scipy_complex_calls.py: ztrsm and zherk through scipy.linalg.blas, timed per call, for
docs/perf/complex.md. Not Google Benchmark: the dense benches' arms call the real routines of
each library by name, and scipy reaches whatever BLAS the environment makes it (LD_PRELOAD).

  scipy_complex_calls.py [--sizes 512,1024,2048] [--reps 7]
      prints one line per size: ztrsm (left, lower, conjugate transpose, n x n right-hand
      sides) and zherk (lower, no transpose, k = n) in GF/s, 4 n^3 flops each, the median of
      `reps` calls after one warm-up call. scipy's wrapper copies B for ztrsm (timed: the same
      copy in every arm).

Alternate the arms by hand, under the bench lock and with the fair-baseline environment:
  for r in 1 2 3; do for arm in "" "LD_PRELOAD=$PWD/build/release/engine/blas/libteamla_blas.so"
  do flock /tmp/teamla-bench.lock env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE \\
     OPENBLAS_NUM_THREADS=2 $arm /usr/bin/python3 benches/scipy_complex_calls.py; done; done
"""
import argparse
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
    parser.add_argument("--sizes", default="512,1024,2048")
    parser.add_argument("--reps", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    for n in [int(s) for s in args.sizes.split(",")]:
        a = np.asfortranarray(rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n)))
        lower = np.asfortranarray(np.tril(a) / n + 2 * np.eye(n))  # well conditioned
        b = np.asfortranarray(rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n)))
        trsm = rate(lambda: blas.ztrsm(1.0, lower, b, side=0, lower=1, trans_a=2), n, args.reps)
        herk = rate(lambda: blas.zherk(1.0, a, lower=1), n, args.reps)
        print("n %d ztrsm %.1f zherk %.1f" % (n, trsm, herk))


if __name__ == "__main__":
    main()
