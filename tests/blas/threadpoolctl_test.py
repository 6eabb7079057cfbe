# SPDX-License-Identifier: Apache-2.0
"""threadpoolctl limits teamla: threadpool_limits(1, "blas") makes numpy's products on teamla run
on one thread, threadpool_info() reports that count, and the count comes back on exit.

Usage: threadpoolctl_test.py /path/to/libteamla_blas.so DIRECTORY_OF_TEAMLA_LIBBLAS_SO_3

threadpoolctl 3.1.0 finds BLAS libraries by file name and never sees teamla; it sets the count
on the OpenBLAS that numpy loads beside teamla, whose count caps teamla's (docs/blas.md,
"threadpoolctl"). The script re-runs itself in both setups, with TEAMLA_BLAS_VERBOSE=2 (a log
line per call, ending in "threads T": the most threads that call could use):
  - preload: LD_PRELOAD=libteamla_blas.so;
  - system: teamla's libblas.so.3 first on LD_LIBRARY_PATH, as update-alternatives would.
There it runs a product before, inside and after `threadpool_limits(1, "blas")`, checking the
results, what threadpool_info() reports and what teamla reports (teamla_get_num_threads), and
marks each step on stderr; here the log line after each marker must show the count. Exits 77
(skipped) where fewer than two CPUs are usable: a limit of 1 would change nothing.
"""
import ctypes
import os
import subprocess
import sys

MARK = "threadpoolctl_test: "


def mark(text):
    sys.stderr.write(MARK + text + "\n")
    sys.stderr.flush()


def teamla_handle(library):
    return ctypes.CDLL(library, mode=os.RTLD_NOLOAD | os.RTLD_NOW)


def compute(library):
    import numpy as np
    from threadpoolctl import threadpool_info, threadpool_limits

    teamla = teamla_handle(library)
    teamla.teamla_get_num_threads.restype = ctypes.c_int
    rng = np.random.default_rng(5)
    a = rng.standard_normal((300, 280))
    b = rng.standard_normal((280, 290))
    expected = np.einsum("ik,kj->ij", a, b)

    def blas_counts():
        return [info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas"]

    def product(label):
        mark(label)
        np.testing.assert_allclose(a @ b, expected, rtol=1e-10, atol=1e-10)

    default = teamla.teamla_get_num_threads()
    assert default >= 2, f"teamla runs {default} thread(s) by default"
    assert blas_counts(), "threadpoolctl found no BLAS"
    product("default")
    with threadpool_limits(limits=1, user_api="blas"):
        assert blas_counts() == [1] * len(blas_counts()), blas_counts()
        count = teamla.teamla_get_num_threads()
        assert count == 1, f"under threadpool_limits(1) teamla reports {count}"
        product("limited")
    count = teamla.teamla_get_num_threads()
    assert count == default, f"after threadpool_limits teamla reports {count}, not {default}"
    assert default in blas_counts(), blas_counts()
    product("restored")
    print(f"  threadpool_info() blas counts {blas_counts()}, teamla's count {default} restored")


def threads_after(log, label):
    """The `threads` of the first cblas_dgemm line after the marker `label`."""
    lines = log.splitlines()
    start = lines.index(MARK + label)
    for line in lines[start + 1:]:
        if line.startswith("teamla_blas: cblas_dgemm "):
            return int(line.split(", threads ")[1].rstrip(")"))
    raise AssertionError(f"no cblas_dgemm call served by teamla after '{label}'")


def run_setup(name, library, env):
    env = dict(env, TEAMLA_BLAS_VERBOSE="2")
    child = subprocess.run([sys.executable, __file__, library, "--child"], env=env,
                           capture_output=True, text=True, timeout=300, check=False)
    sys.stdout.write(child.stdout)
    try:
        if child.returncode != 0:
            raise AssertionError(f"the numpy run exited with {child.returncode}")
        default = threads_after(child.stderr, "default")
        assert default >= 2, f"default: threads {default}"
        assert threads_after(child.stderr, "limited") == 1, "limited: not 1 thread"
        assert threads_after(child.stderr, "restored") == default, "restored: not the default"
    except (AssertionError, ValueError, IndexError) as error:
        sys.stderr.write(child.stderr)
        print(f"FAILED ({name}): {error}")
        return False
    print(f"{name}: threadpool_limits(1) ran teamla on 1 thread, then {default} again")
    return True


def main():
    if len(sys.argv) == 3 and sys.argv[2] == "--child":
        compute(sys.argv[1])
        return 0
    if len(os.sched_getaffinity(0)) < 2:
        print("skipped: fewer than two usable CPUs")
        return 77
    preload = os.path.abspath(sys.argv[1])
    directory = os.path.abspath(sys.argv[2])
    base = {k: v for k, v in os.environ.items()
            if k not in ("LD_PRELOAD", "TEAMLA_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                         "OMP_NUM_THREADS")}
    ok = run_setup("preload", preload, dict(base, LD_PRELOAD=preload))
    system = os.path.join(directory, "libblas.so.3")
    ok &= run_setup("system", system, dict(base, LD_LIBRARY_PATH=directory))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
