# SPDX-License-Identifier: Apache-2.0
"""numpy on teamla through LD_PRELOAD, with no change to numpy or to this script.

Run it as:

    LD_PRELOAD=/path/to/libteamla_blas.so TEAMLA_BLAS_VERBOSE=1 /usr/bin/python3 blas_numpy.py

numpy's matrix products (cblas_dgemm, cblas_sgemm, cblas_dsyrk for a @ a.T) and its Cholesky
(dpotrf_) then run on teamla; everything else numpy calls stays with the system BLAS/LAPACK.
With TEAMLA_BLAS_VERBOSE=1, libteamla_blas.so prints one line per routine that served a call,
e.g. "teamla_blas: cblas_dgemm served by teamla (engine held, width 2, isa avx512)": that line
is the check that the teamla path was taken.
"""
import sys

import numpy as np


def main():
    rng = np.random.default_rng(2026)
    a = rng.standard_normal((512, 384))
    b = rng.standard_normal((384, 256))

    product = a @ b
    gram = a @ a.T
    spd = gram + 512.0 * np.eye(512)
    lower = np.linalg.cholesky(spd)
    single = a.astype(np.float32) @ b.astype(np.float32)

    errors = {
        "a @ b": np.abs(product - np.einsum("ik,kj->ij", a, b)).max(),
        "a @ a.T": np.abs(gram - np.einsum("ik,jk->ij", a, a)).max(),
        "cholesky": np.abs(lower @ lower.T - spd).max() / np.abs(spd).max(),
        "float32 a @ b": np.abs(single - np.einsum("ik,kj->ij", a, b)).max(),
    }
    limits = {"a @ b": 1e-10, "a @ a.T": 1e-10, "cholesky": 1e-13, "float32 a @ b": 1e-3}
    for name, error in errors.items():
        print(f"{name:14s} max error {error:.2e}")
        if error > limits[name]:
            print(f"FAILED: {name} is off by {error}")
            return 1
    print("numpy on teamla: results correct")
    return 0


if __name__ == "__main__":
    sys.exit(main())
