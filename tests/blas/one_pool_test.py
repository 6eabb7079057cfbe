# SPDX-License-Identifier: Apache-2.0
"""numpy's eigh and svd on teamla use one pool: no thread but the caller and teamla's own uses
measurable CPU (docs/blas.md, "One pool in the process").

Usage: one_pool_test.py preload /path/to/libteamla_blas.so
       one_pool_test.py system /path/to/dir/of/teamla/libblas.so.3

The script re-runs itself with teamla preloaded (or teamla's libblas.so.3 first on the library
path) and TEAMLA_BLAS_VERBOSE=1. There it runs numpy.linalg.eigh and svd at n = 400, a few calls
each, and reads every thread's CPU time (utime + stime, /proc/self/task/*/stat) before and after.
teamla's pool threads are named "teamla-<i>". Every other thread but the caller's must have used
less than 2 % of the calls' CPU time: a second pool spinning beside teamla's (OpenBLAS's, which
served LAPACK's level-1 and level-2 calls before teamla did) uses tens of percent. The log must
show that teamla served the level-2 routines the drivers call (dsymv_, dgemv_, dger_).
"""
import os
import subprocess
import sys

MARK = "one_pool_test: "
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def thread_times():
    """{tid: (name, seconds of CPU)} for every thread of this process."""
    times = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/comm") as f:
                name = f.read().strip()
            with open(f"/proc/self/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the thread ended
        # Fields after the name: state is 0, utime 11, stime 12.
        times[int(tid)] = (name, (int(fields[11]) + int(fields[12])) / CLOCK_TICKS)
    return times


def compute():
    import numpy as np

    rng = np.random.default_rng(5)
    a = rng.standard_normal((400, 400))
    s = a + a.T
    np.linalg.eigh(s)  # warm up: pools started, kernels chosen
    np.linalg.svd(a)
    before = thread_times()
    for _ in range(4):
        w, v = np.linalg.eigh(s)
        u, sv, vt = np.linalg.svd(a)
    after = thread_times()
    # The results stand: residuals of both decompositions.
    assert np.linalg.norm(s @ v - v * w) < 1e-9 * np.linalg.norm(s)
    assert np.linalg.norm((u * sv) @ vt - a) < 1e-9 * np.linalg.norm(a)
    caller = os.getpid()
    total = 0.0
    foreign = {}
    for tid, (name, seconds) in after.items():
        used = seconds - before.get(tid, (name, 0.0))[1]
        total += used
        if tid != caller and not name.startswith("teamla"):
            foreign[f"{name}[{tid}]"] = used
    foreign_total = sum(foreign.values())
    print(f"{MARK}CPU {total:.3f} s in all, {foreign_total:.3f} s outside the caller and "
          f"teamla: {foreign}")
    if foreign_total > 0.02 * total + 0.02:
        print(f"{MARK}FAILED: a second pool used CPU beside teamla's")
        sys.exit(1)


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--child":
        compute()
        return
    if len(sys.argv) != 3 or sys.argv[1] not in ("preload", "system"):
        sys.exit(__doc__)
    setup, path = sys.argv[1], sys.argv[2]
    env = dict(os.environ, TEAMLA_BLAS_VERBOSE="1")
    if setup == "preload":
        env["LD_PRELOAD"] = path
    else:
        env["LD_LIBRARY_PATH"] = path
    run = subprocess.run([sys.executable, __file__, "--child"], env=env, capture_output=True,
                         text=True, timeout=240)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    if run.returncode != 0:
        sys.exit(f"{MARK}the child failed ({run.returncode})")
    for routine in ("dsymv_", "dgemv_", "dger_"):
        if f"teamla_blas: {routine} served by teamla" not in run.stderr:
            sys.exit(f"{MARK}{routine} was not served by teamla")
    print(f"{MARK}passed ({setup})")


if __name__ == "__main__":
    main()
