# SPDX-License-Identifier: Apache-2.0
"""The fair-baseline environment of benchmark processes (never of tests or CI).

OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE would pin OpenBLAS to other kernels than cpuid picks
(where cpuid picks generic kernels on an AVX-512 CPU, openblas_coretype() names its AVX-512 ones);
OMP_* and GOMP_* would tune libgomp away from its defaults; BLIS_ARCH_TYPE=0 makes BLIS use its
skx kernels where it would pick none, and is set only where the CPU has AVX-512 (on an AVX2-only
CPU those kernels cannot run, and BLIS aborts). A script removes more (each library's thread
count goes to its own arm only) with `also_remove`.
"""
import os
import subprocess
import sys


def cpu_has_avx512():
    """Whether /proc/cpuinfo lists avx512f."""
    try:
        with open("/proc/cpuinfo") as info:
            return any(line.startswith("flags") and " avx512f" in line for line in info)
    except OSError:
        return False

# The OpenBLAS the scripts load unless told another (Debian's pthreads build).
OPENBLAS = "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0"
# OpenBLAS's AVX-512 kernel sets, as openblas_get_corename() names them.
OPENBLAS_AVX512_CORES = ("SkylakeX", "Cooperlake", "SapphireRapids")
# What an AVX-512 CPU that OpenBLAS does not know gets: the kernels OpenBLAS 0.3.21 picks by
# itself on the AVX-512 CPUs it knows (Zen 5 included).
OPENBLAS_AVX512_FALLBACK = "Cooperlake"


def openblas_corename(library):
    """The kernels OpenBLAS at `library` picks from cpuid (OPENBLAS_CORETYPE removed), "" when
    it cannot be asked."""
    probe = ("import ctypes, sys\n"
             "lib = ctypes.CDLL(sys.argv[1])\n"
             "lib.openblas_get_corename.restype = ctypes.c_char_p\n"
             "print(lib.openblas_get_corename().decode())\n")
    if not os.path.exists(library):
        return ""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    try:
        out = subprocess.run([sys.executable, "-c", probe, library], env=env, text=True,
                             capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def openblas_coretype(library, wanted="auto"):
    """OPENBLAS_CORETYPE for the processes that load OpenBLAS ("" = removed). "auto": removed,
    unless the CPU has AVX-512 and OpenBLAS picks other kernels by itself: an OpenBLAS older
    than the CPU takes it for a generic one (0.3.21 on a Xeon of family 6 model 207 picks
    Prescott, whose dgemm and sgemm 64^3 ran at a quarter of its AVX-512 kernels' rate there:
    docs/perf/device/small-16.md), and beating that counts for nothing. Anything else is used as
    given."""
    if wanted != "auto":
        return wanted
    if not cpu_has_avx512():
        return ""
    name = openblas_corename(library)
    return "" if not name or name in OPENBLAS_AVX512_CORES else OPENBLAS_AVX512_FALLBACK


REMOVED = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
REMOVED_PREFIXES = ("OMP_", "GOMP_")
# The prefixes of the variables a record keeps when they were set (they change the results).
RELEVANT_PREFIXES = ("OPENBLAS", "OMP", "GOMP", "TEAMLA", "BLIS", "LD_PRELOAD")


class Baseline:
    """Which variables a benchmark process loses, and which it gets."""

    def __init__(self, also_remove=(), also_remove_prefixes=(), blis_arch=False):
        self.names = tuple(REMOVED) + tuple(also_remove)
        self.prefixes = tuple(REMOVED_PREFIXES) + tuple(also_remove_prefixes)
        self.blis_vars = {"BLIS_ARCH_TYPE": "0"} if blis_arch and cpu_has_avx512() else {}
        self.use_openblas(OPENBLAS)

    def use_openblas(self, library, coretype="auto"):
        """The OpenBLAS the processes load, and their OPENBLAS_CORETYPE (openblas_coretype():
        "auto" asks that library, on first use)."""
        self.openblas, self.coretype_wanted, self.coretype = library, coretype, None

    @property
    def set_vars(self):
        """The variables every process gets: BLIS_ARCH_TYPE, OPENBLAS_CORETYPE where set."""
        if self.coretype is None:
            self.coretype = openblas_coretype(self.openblas, self.coretype_wanted)
        return dict(self.blis_vars, **({"OPENBLAS_CORETYPE": self.coretype} if self.coretype
                                       else {}))

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
