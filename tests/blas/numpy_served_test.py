# SPDX-License-Identifier: Apache-2.0
"""numpy on teamla: numpy's BLAS and LAPACK calls (@ in real and complex types, cholesky, solve,
inv, slogdet, det, the last four in real and complex types) are served by libteamla_blas.so.

Usage: numpy_served_test.py /path/to/libteamla_blas.so

numpy (Debian) links libblas.so.3 and liblapack.so.3 (the alternatives, OpenBLAS here) from
its extension modules; LD_PRELOAD puts libteamla_blas.so ahead of them in the global symbol
scope, so the routines it exports win and the rest stay with the system library. The script
re-runs itself under LD_PRELOAD and TEAMLA_BLAS_VERBOSE=1, checks the results there against
computations that do not use BLAS (einsum), also in a child forked after the engine ran,
and checks here that teamla's log names every routine numpy was expected to call.
"""
import os
import signal
import sys

import preloaded_run

EXPECTED = ["cblas_dgemm", "cblas_sgemm", "cblas_dsyrk", "dpotrf_", "dgesv_", "dgetrf_",
            "cblas_zgemm", "cblas_cgemm", "zgesv_", "zgetrf_"]


def eliminated_det(matrix):
    """The determinant from the pivots of an elimination with partial pivoting, without BLAS."""
    import numpy as np

    upper = matrix.astype(np.complex128)
    det = 1.0 + 0.0j
    for k in range(upper.shape[0]):
        p = k + int(np.argmax(np.abs(upper[k:, k])))
        if p != k:
            upper[[k, p]] = upper[[p, k]]
            det = -det
        det *= upper[k, k]
        upper[k + 1:, k:] -= np.outer(upper[k + 1:, k] / upper[k, k], upper[k, k:])
    return det


def check_complex_solvers(np, rng, dtype, n, tol):
    """solve and inv (zgesv_), det and slogdet (zgetrf_) of a complex matrix. numpy.linalg
    computes complex64 in complex128 too, so cgesv_ and cgetrf_ are scipy's to reach."""
    general = (rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))
               + 4.0 * np.eye(n)).astype(dtype)
    rhs = (rng.standard_normal((n, 3)) + 1j * rng.standard_normal((n, 3))).astype(dtype)
    scale = np.linalg.norm(general) * np.linalg.norm(rhs)
    x = np.linalg.solve(general, rhs)
    assert np.linalg.norm(np.einsum("ik,kj->ij", general, x) - rhs) / scale < tol, "complex solve"
    inverse = np.linalg.inv(general)
    residual = np.einsum("ik,kj->ij", general, inverse) - np.eye(n)
    assert np.linalg.norm(residual) / np.linalg.norm(general) < tol * n, "complex inv"
    expected = eliminated_det(general)
    np.testing.assert_allclose(np.linalg.det(general), expected, rtol=tol * n)
    sign, logdet = np.linalg.slogdet(general)
    np.testing.assert_allclose(sign, expected / abs(expected), rtol=tol * n)
    np.testing.assert_allclose(logdet, np.log(abs(expected)), rtol=tol * n)


def compute():
    import numpy as np

    rng = np.random.default_rng(7)
    a = rng.standard_normal((300, 200))
    b = rng.standard_normal((200, 250))
    np.testing.assert_allclose(a @ b, np.einsum("ik,kj->ij", a, b), rtol=1e-10, atol=1e-10)

    a32 = a.astype(np.float32)
    b32 = b.astype(np.float32)
    np.testing.assert_allclose(a32 @ b32, np.einsum("ik,kj->ij", a32, b32), rtol=1e-3,
                               atol=1e-3)

    # complex128 and complex64 products, C- and Fortran-ordered, and a conjugate transpose.
    z = a + 1j * rng.standard_normal(a.shape)
    w = b - 1j * rng.standard_normal(b.shape)
    np.testing.assert_allclose(z @ w, np.einsum("ik,kj->ij", z, w), rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(np.asfortranarray(z) @ w, np.einsum("ik,kj->ij", z, w),
                               rtol=1e-10, atol=1e-10)
    zh = z.conj().T
    np.testing.assert_allclose(zh @ z[:, :150], np.einsum("ik,kj->ij", zh, z[:, :150]),
                               rtol=1e-10, atol=1e-10)
    z64, w64 = z.astype(np.complex64), w.astype(np.complex64)
    np.testing.assert_allclose(z64 @ w64, np.einsum("ik,kj->ij", z64, w64), rtol=1e-3, atol=1e-3)

    # a @ a.T on the same buffer is numpy's syrk case.
    gram = a @ a.T
    np.testing.assert_allclose(gram, np.einsum("ik,jk->ij", a, a), rtol=1e-10, atol=1e-10)

    spd = np.einsum("ik,jk->ij", a, a) + 300.0 * np.eye(300)
    lower = np.linalg.cholesky(spd)
    np.testing.assert_allclose(np.einsum("ik,jk->ij", lower, lower), spd, rtol=1e-10,
                               atol=1e-8)
    # General solves: solve and inv run ?gesv_, slogdet and det ?getrf_ (numpy's umath_linalg).
    general = rng.standard_normal((300, 300)) + 10.0 * np.eye(300)
    rhs = rng.standard_normal((300, 4))
    x = np.linalg.solve(general, rhs)
    np.testing.assert_allclose(np.einsum("ik,kj->ij", general, x), rhs, rtol=1e-9, atol=1e-9)
    inverse = np.linalg.inv(general)
    np.testing.assert_allclose(np.einsum("ik,kj->ij", general, inverse), np.eye(300), atol=1e-9)
    sign, logdet = np.linalg.slogdet(general)
    # The determinant from the factors of an independent elimination (no BLAS: einsum).
    upper = general.copy()
    expected_log, expected_sign = 0.0, 1.0
    for k in range(300):
        p = k + int(np.argmax(np.abs(upper[k:, k])))
        if p != k:
            upper[[k, p]] = upper[[p, k]]
            expected_sign = -expected_sign
        expected_sign *= np.sign(upper[k, k])
        expected_log += np.log(abs(upper[k, k]))
        upper[k + 1:, k:] -= np.outer(upper[k + 1:, k] / upper[k, k], upper[k, k:])
    assert sign == expected_sign, "slogdet sign"
    np.testing.assert_allclose(logdet, expected_log, rtol=1e-10)
    np.testing.assert_allclose(np.linalg.det(general[:20, :20]),
                               np.prod(np.linalg.eigvals(general[:20, :20])).real, rtol=1e-8)
    check_complex_solvers(np, rng, np.complex128, 120, 1e-13)
    singular = general.copy()
    singular[:, 5] = 0.0
    try:
        np.linalg.solve(singular, rhs)
    except np.linalg.LinAlgError:
        pass
    else:
        raise AssertionError("solve accepted a singular matrix")
    # The fork rule: a child forked after the parent's engine ran (as multiprocessing's fork
    # start method does) computes on an engine of its own; a deadlock trips the alarm.
    big = rng.standard_normal((320, 320))
    expected = np.einsum("ik,kj->ij", big, big)
    np.testing.assert_allclose(big @ big, expected, rtol=1e-10, atol=1e-10)
    child = os.fork()
    if child == 0:
        signal.alarm(60)
        ok = np.allclose(big @ big, expected, rtol=1e-10, atol=1e-10)
        os._exit(0 if ok else 1)
    _, status = os.waitpid(child, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"forked child: {status}"
    np.testing.assert_allclose(big @ big, expected, rtol=1e-10, atol=1e-10)
    print("numpy results match, in the parent and in a forked child")


if __name__ == "__main__":
    sys.exit(preloaded_run.main(compute, EXPECTED, "numpy"))
