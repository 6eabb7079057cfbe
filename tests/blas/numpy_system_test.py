# SPDX-License-Identifier: Apache-2.0
"""numpy on teamla's libblas.so.3, found through LD_LIBRARY_PATH as update-alternatives would.

Usage: numpy_system_test.py DIRECTORY_OF_LIBBLAS_SO_3

Re-runs itself with LD_LIBRARY_PATH=DIRECTORY and TEAMLA_BLAS_VERBOSE=1 (no LD_PRELOAD), checks
there that numpy loaded that libblas.so.3 and that its results match computations that do not
use BLAS (einsum), and checks here that teamla served cblas_dgemm, cblas_sgemm and cblas_ddot,
and that a routine teamla does not serve (cblas_drotg, called through ctypes) reached the
backend.
"""
import os
import subprocess
import sys


def compute(directory):
    import numpy as np

    with open("/proc/self/maps") as maps:
        loaded = [line.split()[-1] for line in maps if "libblas.so.3" in line]
    expected = os.path.realpath(os.path.join(directory, "libblas.so.3"))
    assert any(os.path.realpath(path) == expected for path in loaded), loaded
    rng = np.random.default_rng(11)
    a = rng.standard_normal((300, 200))
    b = rng.standard_normal((200, 250))
    np.testing.assert_allclose(a @ b, np.einsum("ik,kj->ij", a, b), rtol=1e-10, atol=1e-10)
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    np.testing.assert_allclose(a32 @ b32, np.einsum("ik,kj->ij", a32, b32), rtol=1e-3, atol=1e-3)
    x, y = rng.standard_normal(1000), rng.standard_normal(1000)
    np.testing.assert_allclose(np.dot(x, y), np.einsum("i,i->", x, y), rtol=1e-12)
    import ctypes

    blas = ctypes.CDLL(expected)
    a, b, c, s = (ctypes.c_double(v) for v in (3.0, 4.0, 0.0, 0.0))
    blas.cblas_drotg(ctypes.byref(a), ctypes.byref(b), ctypes.byref(c), ctypes.byref(s))
    assert abs(a.value - 5.0) < 1e-15 and abs(c.value - 0.6) < 1e-15, (a.value, c.value)


def main():
    directory = sys.argv[1]
    if len(sys.argv) > 2 and sys.argv[2] == "--child":
        compute(directory)
        return 0
    env = dict(os.environ, LD_LIBRARY_PATH=directory, TEAMLA_BLAS_VERBOSE="1")
    env.pop("LD_PRELOAD", None)
    child = subprocess.run([sys.executable, __file__, directory, "--child"], env=env,
                           capture_output=True, text=True, timeout=240)
    sys.stderr.write(child.stderr)
    if child.returncode != 0:
        print(f"numpy_system_test: the child failed ({child.returncode})")
        return 1
    for needle in ("cblas_dgemm served by teamla", "cblas_sgemm served by teamla",
                   "cblas_ddot served by teamla", "routine(s) forwarded to"):
        if needle not in child.stderr:
            print(f"numpy_system_test: missing from the log: {needle}")
            return 1
    print("numpy_system_test: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
