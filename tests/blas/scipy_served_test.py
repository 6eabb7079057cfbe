# SPDX-License-Identifier: Apache-2.0
"""scipy on teamla: scipy.linalg's SPD (real) and HPD (complex) and LU (real and complex) solvers
are served by libteamla_blas.so.

Usage: scipy_served_test.py /path/to/libteamla_blas.so

Debian's scipy reaches LAPACK through liblapack.so.3 from its flapack module; LD_PRELOAD puts
libteamla_blas.so ahead of it in the global symbol scope, so cho_factor (?potrf), cho_solve
(?potrs), solve(assume_a='pos') (?posv), lu_factor (?getrf), lu_solve (?getrs; trans=2 is the
conjugate transpose of a complex matrix) and inv (?getrf, ?getri) bind to teamla. The script
re-runs itself under LD_PRELOAD and TEAMLA_BLAS_VERBOSE=1, checks the answers there (residuals
against the matrix, in double and single precision, and the error a matrix that is not positive
definite must raise), and checks here that teamla's log names every routine scipy was expected
to call.
"""
import sys

import preloaded_run

EXPECTED = ["dpotrf_", "dpotrs_", "dposv_", "spotrf_", "spotrs_", "sposv_", "dgetrf_", "dgetrs_",
            "dgetri_", "sgetrf_", "sgetrs_", "zpotrf_", "zpotrs_", "zposv_", "cpotrf_", "cpotrs_",
            "cposv_", "zgetrf_", "zgetrs_", "zgetri_", "cgetrf_", "cgetrs_"]


def check_dtype(np, linalg, rng, dtype, tol):
    n, nrhs = 300, 5
    x = rng.standard_normal((n, n))
    spd = (x @ x.T / n + np.eye(n)).astype(dtype)
    b = rng.standard_normal((n, nrhs)).astype(dtype)
    scale = np.linalg.norm(spd) * np.linalg.norm(b)
    factor = linalg.cho_factor(spd, lower=True)
    solved = linalg.cho_solve(factor, b)
    assert np.linalg.norm(spd @ solved - b) / scale < tol, "cho_solve"
    lower = np.tril(factor[0])
    assert np.linalg.norm(lower @ lower.T - spd) / np.linalg.norm(spd) < tol, "cho_factor"
    direct = linalg.solve(spd, b, assume_a="pos")
    assert np.linalg.norm(spd @ direct - b) / scale < tol, "solve(assume_a='pos')"
    general = (rng.standard_normal((n, n)) + 5.0 * np.eye(n)).astype(dtype)
    lu, piv = linalg.lu_factor(general)
    scale_g = np.linalg.norm(general) * np.linalg.norm(b)
    solved = linalg.lu_solve((lu, piv), b)
    assert np.linalg.norm(general @ solved - b) / scale_g < tol, "lu_solve"
    solved_t = linalg.lu_solve((lu, piv), b, trans=1)
    assert np.linalg.norm(general.T @ solved_t - b) / scale_g < tol, "lu_solve(trans=1)"
    # P L U = A, with scipy's 0-based pivots applied as LAPACK's row interchanges.
    permuted = general.copy()
    for i, p in enumerate(piv):
        permuted[[i, p]] = permuted[[p, i]]
    lower = np.tril(lu, -1) + np.eye(n, dtype=dtype)
    assert np.linalg.norm(lower @ np.triu(lu) - permuted) / np.linalg.norm(general) < tol, "lu"
    if dtype == np.float64:
        inverse = linalg.inv(general)
        assert np.linalg.norm(general @ inverse - np.eye(n)) / np.linalg.norm(general) < tol * 10
    indefinite = spd.copy()
    indefinite[7, 7] = -1.0
    try:
        linalg.cho_factor(indefinite)
    except linalg.LinAlgError:
        return
    raise AssertionError("cho_factor accepted a matrix that is not positive definite")


def check_hermitian(np, linalg, rng, dtype, tol):
    """cho_factor, cho_solve and solve(assume_a='pos') of a complex Hermitian positive definite
    matrix, lower and upper ([zc]potrf_, [zc]potrs_, [zc]posv_)."""
    n, nrhs = 300, 4
    x = rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))
    hpd = (x @ x.conj().T / n + np.eye(n)).astype(dtype)
    b = (rng.standard_normal((n, nrhs)) + 1j * rng.standard_normal((n, nrhs))).astype(dtype)
    scale = np.linalg.norm(hpd) * np.linalg.norm(b)
    for lower in (True, False):
        factor = linalg.cho_factor(hpd, lower=lower)
        solved = linalg.cho_solve(factor, b)
        assert np.linalg.norm(hpd @ solved - b) / scale < tol, "complex cho_solve"
        triangle = np.tril(factor[0]) if lower else np.triu(factor[0])
        product = triangle @ triangle.conj().T if lower else triangle.conj().T @ triangle
        assert np.linalg.norm(product - hpd) / np.linalg.norm(hpd) < tol, "complex cho_factor"
    direct = linalg.solve(hpd, b, assume_a="pos")
    assert np.linalg.norm(hpd @ direct - b) / scale < tol, "complex solve(assume_a='pos')"


def check_complex_lu(np, linalg, rng, dtype, tol):
    """lu_factor, lu_solve with trans 0, 1 and 2 (A, A^T, A^H) and, in double, inv of a complex
    general matrix ([zc]getrf_, [zc]getrs_, zgetri_)."""
    n, nrhs = 300, 4
    general = (rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))
               + 5.0 * np.eye(n)).astype(dtype)
    b = (rng.standard_normal((n, nrhs)) + 1j * rng.standard_normal((n, nrhs))).astype(dtype)
    scale = np.linalg.norm(general) * np.linalg.norm(b)
    lu, piv = linalg.lu_factor(general)
    for trans, op in ((0, general), (1, general.T), (2, general.conj().T)):
        solved = linalg.lu_solve((lu, piv), b, trans=trans)
        assert np.linalg.norm(op @ solved - b) / scale < tol, f"complex lu_solve(trans={trans})"
    permuted = general.copy()
    for i, p in enumerate(piv):
        permuted[[i, p]] = permuted[[p, i]]
    lower = np.tril(lu, -1) + np.eye(n, dtype=dtype)
    assert np.linalg.norm(lower @ np.triu(lu) - permuted) / np.linalg.norm(general) < tol, \
        "complex lu"
    if dtype == np.complex128:
        inverse = linalg.inv(general)
        assert np.linalg.norm(general @ inverse - np.eye(n)) / np.linalg.norm(general) < tol * 10


def compute():
    import numpy as np
    from scipy import linalg

    rng = np.random.default_rng(5)
    check_dtype(np, linalg, rng, np.float64, 1e-12)
    check_dtype(np, linalg, rng, np.float32, 1e-4)
    check_hermitian(np, linalg, rng, np.complex128, 1e-12)
    check_hermitian(np, linalg, rng, np.complex64, 1e-4)
    check_complex_lu(np, linalg, rng, np.complex128, 1e-12)
    check_complex_lu(np, linalg, rng, np.complex64, 1e-4)
    print("scipy results are correct")


if __name__ == "__main__":
    sys.exit(preloaded_run.main(compute, EXPECTED, "scipy"))
