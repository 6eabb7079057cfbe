# SPDX-License-Identifier: Apache-2.0
"""numpy and scipy on teamla's libblas.so.3 and liblapack.so.3, found through LD_LIBRARY_PATH as
the update-alternatives links would make them found (docs/blas.md, "liblapack.so.3").

Usage: lapack_system_test.py teamla DIR_OF_LIBBLAS_SO_3 DIR_OF_LIBLAPACK_SO_3
       lapack_system_test.py foreign-blas DIR_OF_LIBLAPACK_SO_3

teamla: both libraries are teamla's. The child checks the results of numpy's solve (real and
complex), inv, det, cholesky, eigh, eigvalsh, svd, qr and lstsq and scipy's lu_factor, cho_factor,
eigh and qr; that both teamla libraries and the reference LAPACK are loaded and no OpenBLAS (the
one pool in the process is teamla's). Here: the log shows dgesv_, dgetrf_, dpotrf_ and zgesv_
served by teamla, and liblapack.so.3 taking teamla's routines from the libblas.so.3 beneath it.
foreign-blas: the libblas.so.3 found is the system's, not teamla's: the results still stand, every
LAPACK routine runs on the reference LAPACK, and liblapack.so.3 says so on stderr.
"""
import os
import re
import subprocess
import sys

MARK = "lapack_system_test: "


def loaded_libraries():
    with open("/proc/self/maps") as maps:
        return {os.path.realpath(line.split()[-1]) for line in maps if ".so" in line}


def compute():
    import numpy as np
    import scipy.linalg as sl

    rng = np.random.default_rng(7)
    n = 300
    a = rng.standard_normal((n, n))
    s = a @ a.T + n * np.eye(n)
    b = rng.standard_normal(n)
    norm = np.linalg.norm
    x = np.linalg.solve(a, b)
    assert norm(a @ x - b) < 1e-10 * norm(a) * norm(x)
    z = a + 1j * rng.standard_normal((n, n))
    zx = np.linalg.solve(z, b)
    assert norm(z @ zx - b) < 1e-10 * norm(z) * norm(zx)
    assert norm(np.linalg.inv(a) @ a - np.eye(n)) < 1e-9
    sign, logdet = np.linalg.slogdet(s)
    assert sign == 1 and abs(logdet - 2 * np.log(np.diag(np.linalg.cholesky(s))).sum()) < 1e-9
    c = np.linalg.cholesky(s)
    assert norm(c @ c.T - s) < 1e-13 * norm(s)
    w, v = np.linalg.eigh(s)
    assert norm(s @ v - v * w) < 1e-12 * norm(s)
    assert norm(np.linalg.eigvalsh(s) - w) < 1e-12 * norm(w)
    u, sv, vt = np.linalg.svd(a)
    assert norm((u * sv) @ vt - a) < 1e-12 * norm(a)
    q, r = np.linalg.qr(a)
    assert norm(q @ r - a) < 1e-12 * norm(a)
    tall = a[:, :50]
    coef = np.linalg.lstsq(tall, b, rcond=None)[0]
    assert norm(tall.T @ (tall @ coef - b)) < 1e-9 * norm(tall) ** 2 * norm(coef)
    lu, piv = sl.lu_factor(a)
    assert norm(sl.lu_solve((lu, piv), b) - x) < 1e-9 * norm(x)
    assert norm(sl.cho_solve(sl.cho_factor(s), b) - np.linalg.solve(s, b)) < 1e-12 * norm(b)
    assert norm(sl.eigh(s, eigvals_only=True) - w) < 1e-12 * norm(w)
    q2, r2 = sl.qr(a)
    assert norm(q2 @ r2 - a) < 1e-12 * norm(a)
    return loaded_libraries()


def child(setup, directories):
    libraries = compute()
    lapack = os.path.realpath(os.path.join(directories[-1], "liblapack.so.3"))
    assert lapack in libraries, "teamla's liblapack.so.3 was not loaded"
    assert any("/lapack/liblapack.so.3" in path for path in libraries), "no reference LAPACK"
    if setup == "teamla":
        blas = os.path.realpath(os.path.join(directories[0], "libblas.so.3"))
        assert blas in libraries, "teamla's libblas.so.3 was not loaded"
        openblas = [path for path in libraries if "openblas" in path]
        assert not openblas, f"a second BLAS pool was loaded: {openblas}"
    print(f"{MARK}results and libraries checked")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3:])
        return
    if len(sys.argv) < 3 or sys.argv[1] not in ("teamla", "foreign-blas"):
        sys.exit(__doc__)
    setup, directories = sys.argv[1], sys.argv[2:]
    if (setup == "teamla") != (len(directories) == 2):
        sys.exit(__doc__)
    # liblapack.so.3's directory first, so that its libblas.so.3 is teamla's only in "teamla".
    env = dict(os.environ, TEAMLA_BLAS_VERBOSE="1",
               LD_LIBRARY_PATH=":".join(reversed(directories)))
    run = subprocess.run([sys.executable, __file__, "--child", setup] + directories, env=env,
                         capture_output=True, text=True, timeout=240)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    if run.returncode != 0:
        sys.exit(f"{MARK}the child failed ({run.returncode})")
    if setup == "teamla":
        served = ("dgesv", "dgetrf", "dpotrf", "zgesv")
        expected = [f"teamla_blas: {r}_ served by teamla" for r in served]
        expected.append(r"[1-9][0-9]* routine\(s\) served by teamla's libblas\.so\.3")
    else:
        expected = [r"is not teamla's, so every LAPACK routine, teamla's too, runs on"]
    for pattern in expected:
        if not re.search(pattern, run.stderr):
            sys.exit(f"{MARK}missing from the log: {pattern}")
    print(f"{MARK}passed ({setup})")


if __name__ == "__main__":
    main()
