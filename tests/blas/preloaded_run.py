# SPDX-License-Identifier: Apache-2.0
"""preloaded_run.py: the shared half of the Python tests on libteamla_blas.so.

main(compute, expected, what) re-runs the calling script with LD_PRELOAD=<library> and
TEAMLA_BLAS_VERBOSE=1, where `compute()` checks its results, and checks here that the child
passed and that teamla's log names every routine in `expected` as served by teamla.
"""
import os
import subprocess
import sys


def main(compute, expected, what):
    if len(sys.argv) == 3 and sys.argv[2] == "--child":
        compute()
        return 0
    library = os.path.abspath(sys.argv[1])
    script = os.path.abspath(sys.modules["__main__"].__file__)
    env = dict(os.environ, LD_PRELOAD=library, TEAMLA_BLAS_VERBOSE="1")
    child = subprocess.run([sys.executable, script, library, "--child"], env=env,
                           capture_output=True, text=True, timeout=300, check=False)
    sys.stdout.write(child.stdout)
    sys.stderr.write(child.stderr)
    if child.returncode != 0:
        print(f"FAILED: the {what} run exited with {child.returncode}")
        return 1
    missing = [name for name in expected
               if f"teamla_blas: {name} served by teamla" not in child.stderr]
    if missing:
        print(f"FAILED: not served by teamla: {', '.join(missing)}")
        return 1
    print("teamla served: " + ", ".join(expected))
    return 0
