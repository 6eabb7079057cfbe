# SPDX-License-Identifier: Apache-2.0
"""The fair-baseline environment of benchmark processes (never of tests or CI).

OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE would pin OpenBLAS to other kernels than cpuid picks;
OMP_* and GOMP_* would tune libgomp away from its defaults; BLIS_ARCH_TYPE=0 makes BLIS use its
skx kernels where it would pick none, and is set only where the CPU has AVX-512 (on an AVX2-only
CPU those kernels cannot run, and BLIS aborts). A script removes more (each library's thread
count goes to its own arm only) with `also_remove`.
"""
import os


def cpu_has_avx512():
    """Whether /proc/cpuinfo lists avx512f."""
    try:
        with open("/proc/cpuinfo") as info:
            return any(line.startswith("flags") and " avx512f" in line for line in info)
    except OSError:
        return False

REMOVED = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
REMOVED_PREFIXES = ("OMP_", "GOMP_")
# The prefixes of the variables a record keeps when they were set (they change the results).
RELEVANT_PREFIXES = ("OPENBLAS", "OMP", "GOMP", "TEAMLA", "BLIS", "LD_PRELOAD")


class Baseline:
    """Which variables a benchmark process loses, and which it gets."""

    def __init__(self, also_remove=(), also_remove_prefixes=(), blis_arch=False):
        self.names = tuple(REMOVED) + tuple(also_remove)
        self.prefixes = tuple(REMOVED_PREFIXES) + tuple(also_remove_prefixes)
        self.set_vars = {"BLIS_ARCH_TYPE": "0"} if blis_arch and cpu_has_avx512() else {}

    def drops(self, name):
        return name in self.names or name.startswith(self.prefixes)

    def env(self, overrides=None, base=None):
        """The environment: `base` (os.environ) without the removed variables, with the set
        ones and then the overrides."""
        base = os.environ if base is None else base
        env = {k: v for k, v in base.items() if not self.drops(k)}
        env.update(self.set_vars)
        env.update(overrides or {})
        return env

    def removed(self):
        """The removed variables as a record lists them: names, then prefixes as NAME_*."""
        return list(self.names) + [p + "*" for p in self.prefixes]

    def kept(self, base=None):
        """The relevant variables the benchmark processes still see (from the caller's
        environment)."""
        base = os.environ if base is None else base
        return {k: v for k, v in base.items()
                if k.startswith(RELEVANT_PREFIXES) and not self.drops(k)}

    def record(self):
        """{"removed": [...], each set variable, and "kept": {...} when a variable that
        matters was left set}: the "env" entry of a record."""
        entry = dict({"removed": self.removed()}, **self.set_vars)
        if self.kept():
            entry["kept"] = self.kept()
        return entry
