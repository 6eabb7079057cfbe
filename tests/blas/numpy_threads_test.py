# SPDX-License-Identifier: Apache-2.0
"""numpy on teamla: openblas_set_num_threads through ctypes sets the threads teamla's calls use.

Usage: numpy_threads_test.py /path/to/libteamla_blas.so

The script re-runs itself under LD_PRELOAD with TEAMLA_BLAS_VERBOSE=2 (a log line per call,
ending in "threads T": the most threads that call could use) and TEAMLA_NUM_THREADS=1 (the
engine starts one thread wide, so that a count of 2 makes it grow). There, through
ctypes.CDLL(None) (the process's global scope, where the preloaded library comes first), it
sets counts with openblas_set_num_threads and openblas_set_num_threads_local, checks them with
openblas_get_num_threads, checks that OpenBLAS's own count (through a handle on
libopenblas.so.0, which numpy loaded) followed, and runs numpy's @ after each, checking the
result. Each step writes a marker line to stderr; here the log line after each marker must
show the count.
"""
import ctypes
import os
import subprocess
import sys
import threading

MARK = "numpy_threads_test: "


def mark(text):
    sys.stderr.write(MARK + text + "\n")
    sys.stderr.flush()


def openblas_handle():
    try:
        return ctypes.CDLL("libopenblas.so.0", mode=os.RTLD_NOLOAD | os.RTLD_NOW)
    except OSError:
        return None


def compute():
    import numpy as np

    blas = ctypes.CDLL(None)
    blas.openblas_get_num_threads.restype = ctypes.c_int
    blas.openblas_set_num_threads_local.restype = ctypes.c_int
    openblas = openblas_handle()
    rng = np.random.default_rng(11)
    a = rng.standard_normal((200, 180))
    b = rng.standard_normal((180, 190))
    expected = np.einsum("ik,kj->ij", a, b)

    def product(label):
        mark(label)
        np.testing.assert_allclose(a @ b, expected, rtol=1e-10, atol=1e-10)

    for count in (1, 2):
        blas.openblas_set_num_threads(count)
        assert blas.openblas_get_num_threads() == count
        if openblas is not None:
            theirs = openblas.openblas_get_num_threads()
            assert theirs == count, f"OpenBLAS's own count is {theirs}, not {count}"
        product(f"count {count}")

    def local_count():
        assert blas.openblas_set_num_threads_local(1) == 2
        assert blas.openblas_get_num_threads() == 1
        product("local 1")
        assert blas.openblas_set_num_threads_local(0) == 1

    worker = threading.Thread(target=local_count)
    worker.start()
    worker.join()
    assert blas.openblas_get_num_threads() == 2
    product("count 2 again")
    print("numpy results match under every count;",
          "OpenBLAS's own count followed" if openblas is not None else "no OpenBLAS loaded")


def call_after(log, label):
    """(width, threads) of the first cblas_dgemm line after the marker `label`."""
    lines = log.splitlines()
    start = lines.index(MARK + label)
    for line in lines[start + 1:]:
        if line.startswith("teamla_blas: cblas_dgemm "):
            width = int(line.split(", width ")[1].split(",")[0])
            threads = int(line.split(", threads ")[1].rstrip(")"))
            return width, threads
    raise AssertionError(f"no cblas_dgemm call after '{label}'")


def check_log(log):
    width, threads = call_after(log, "count 1")
    assert threads == 1, f"count 1: threads {threads}"
    for label in ("count 2", "count 2 again"):
        width, threads = call_after(log, label)
        assert width in (1, 2) and threads == width, f"{label}: width {width}, threads {threads}"
    _, threads = call_after(log, "local 1")
    assert threads == 1, f"local 1: threads {threads}"
    return width


def main():
    if len(sys.argv) == 3 and sys.argv[2] == "--child":
        compute()
        return 0
    library = os.path.abspath(sys.argv[1])
    env = dict(os.environ, LD_PRELOAD=library, TEAMLA_BLAS_VERBOSE="2", TEAMLA_NUM_THREADS="1")
    child = subprocess.run([sys.executable, __file__, library, "--child"], env=env,
                           capture_output=True, text=True, timeout=300, check=False)
    sys.stdout.write(child.stdout)
    if child.returncode != 0:
        sys.stderr.write(child.stderr)
        print(f"FAILED: the numpy run exited with {child.returncode}")
        return 1
    try:
        width = check_log(child.stderr)
    except (AssertionError, ValueError, IndexError) as error:
        sys.stderr.write(child.stderr)
        print(f"FAILED: {error}")
        return 1
    print(f"teamla followed openblas_set_num_threads from numpy (engine width {width})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
