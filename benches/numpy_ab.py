# SPDX-License-Identifier: Apache-2.0
"""numpy_ab.py: numpy's matmul and Cholesky on the system BLAS against teamla (LD_PRELOAD).
Not Google Benchmark: its arms are numpy processes, one library preloaded into each.

Usage: /usr/bin/python3 benches/numpy_ab.py /path/to/libteamla_blas.so [rounds]

Each round runs one child process per arm, arms alternated (system, teamla, system, ...);
a child times every operation (best of a few repeats, after a warm-up call) and prints the
times. The report is, per operation, the median over rounds of each arm's time, in GF/s, and
teamla's ratio to the system library. Run it under the benchmark lock, and with
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE so OpenBLAS picks its own kernels.
"""
import json
import os
import statistics
import subprocess
import sys

SIZES = [64, 256, 1024]


def child():
    import time

    import numpy as np

    rng = np.random.default_rng(1)
    results = {}
    for n in SIZES:
        a = rng.standard_normal((n, n))
        b = rng.standard_normal((n, n))
        spd = a @ a.T + n * np.eye(n)
        repeats = max(3, min(200, int(2e8 / (2 * n**3))))
        for name, flops, work in (
            (f"dgemm {n}", 2.0 * n**3, lambda: a @ b),
            (f"dpotrf {n}", n**3 / 3.0, lambda: np.linalg.cholesky(spd)),
        ):
            work()
            best = float("inf")
            for _ in range(repeats):
                start = time.perf_counter()
                work()
                best = min(best, time.perf_counter() - start)
            results[name] = flops / best / 1e9
    print(json.dumps(results))


def main():
    if sys.argv[-1] == "--child":
        child()
        return 0
    library = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    arms = {"system": dict(os.environ), "teamla": dict(os.environ, LD_PRELOAD=library)}
    samples = {arm: [] for arm in arms}
    for _ in range(rounds):
        for arm, env in arms.items():
            out = subprocess.run([sys.executable, __file__, "--child"], env=env, check=True,
                                 capture_output=True, text=True).stdout
            samples[arm].append(json.loads(out))
    print(f"{'operation':14s} {'system GF/s':>12s} {'teamla GF/s':>12s} {'ratio':>6s}")
    for name in samples["system"][0]:
        system = statistics.median(s[name] for s in samples["system"])
        teamla = statistics.median(s[name] for s in samples["teamla"])
        print(f"{name:14s} {system:12.1f} {teamla:12.1f} {teamla / system:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
