# SPDX-License-Identifier: Apache-2.0
"""The machine of a run, as the system reports it: cpuid's fields in /proc/cpuinfo, cache
sizes from sysfs, CPU counts and affinity, kernel, compiler and commit.

  /usr/bin/python3 -m teamla_bench.machine [--json] [--build DIR]   (from scripts/)
"""
import argparse
import glob
import json
import os
import platform
import sys

from .runner import sh

# The instruction-set flags that choose kernels (teamla's, OpenBLAS's, BLIS's).
FLAGS_OF_INTEREST = ("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512dq", "avx512bw",
                     "avx512vl", "avx512_vnni", "avx512_bf16", "amx_tile", "amx_bf16")


def cpuinfo():
    """The first processor's fields of /proc/cpuinfo (cpuid as the kernel read it)."""
    fields = {}
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if not line.strip():
                    break  # the first processor only: every core of these machines is alike
                name, _, value = line.partition(":")
                fields[name.strip()] = value.strip()
    except OSError:
        pass
    return fields


def read_line(path):
    """The stripped first line of a small system file, "" when it cannot be read."""
    try:
        with open(path) as handle:
            return handle.readline().strip()
    except OSError:
        return ""


def cpu_list_length(text):
    """How many CPUs a kernel CPU list names ("0-3,8" is 5), None when empty."""
    count = 0
    for part in filter(None, text.split(",")):
        first, _, last = part.partition("-")
        count += int(last or first) - int(first) + 1
    return count or None


def caches(cpu=0):
    """{"L1d": KiB, "L1i": KiB, "L2": KiB, "L3": KiB} of one CPU, from sysfs."""
    found = {}
    for index in sorted(glob.glob(f"/sys/devices/system/cpu/cpu{cpu}/cache/index*")):
        level, kind, size = (read_line(os.path.join(index, f)) for f in ("level", "type", "size"))
        if not (level and kind and size):
            continue
        suffix = {"Data": "d", "Instruction": "i"}.get(kind, "")
        scale = {"K": 1, "M": 1024, "G": 1024 * 1024}.get(size[-1:], None)
        found["L" + level + suffix] = int(size[:-1]) * scale if scale else int(size) // 1024
    return found


def cpu_record():
    """What identifies the CPU: vendor, family, model, stepping, model name, kernel-choosing
    flags, caches."""
    info = cpuinfo()
    flags = set(info.get("flags", "").split())
    family, model = info.get("cpu family", ""), info.get("model", "")
    return {
        "cpu": info.get("model name", "") or platform.processor() or platform.machine(),
        "vendor": info.get("vendor_id", ""),
        "family": int(family) if family.isdigit() else family,
        "model": int(model) if model.isdigit() else model,
        "stepping": info.get("stepping", ""),
        # lscpu's wording, which earlier records carry
        "family_model": f"CPU family: {family}\nModel: {model}",
        "flags": [f for f in FLAGS_OF_INTEREST if f in flags],
        "caches_kib": caches(),
    }


def cpu_counts():
    online = cpu_list_length(read_line("/sys/devices/system/cpu/online"))
    return {"cpus": os.cpu_count(), "online_cpus": online or os.cpu_count(),
            "affinity_cpus": len(os.sched_getaffinity(0))}


def compiler(build=None):
    """The first line of --version of the build's C++ compiler (its CMake cache), else c++'s."""
    path = "c++"
    cache = os.path.join(build, "CMakeCache.txt") if build else ""
    if cache and os.path.exists(cache):
        with open(cache) as lines:
            for line in lines:
                if line.startswith("CMAKE_CXX_COMPILER:"):
                    path = line.split("=", 1)[1].strip()
    version = sh([path, "--version"])
    return version.splitlines()[0] if version else ""


def commit():
    return sh(["git", "rev-parse", "--short", "HEAD"])


def tree_dirty():
    return bool(sh(["git", "status", "--porcelain", "--untracked-files=no"]))


def commit_label():
    """"abc1234", or "abc1234 (dirty)" when tracked files differ from it."""
    return commit() + (" (dirty)" if tree_dirty() else "")


def machine_record(build=None):
    """The machine entry of a record: the CPU, its counts and the kernel (and the compiler
    when a build directory is given)."""
    record = cpu_record()
    record.update(cpu_counts())
    record["kernel"] = platform.release()
    if build:
        record["compiler"] = compiler(build)
    return record


def describe(record):
    """A few human lines for a machine record."""
    caches_text = ", ".join(f"{name} {kib} KiB" for name, kib in record["caches_kib"].items())
    lines = [f"cpu: {record['cpu']} ({record['vendor']}, family {record['family']}, "
             f"model {record['model']}, stepping {record['stepping']})",
             f"flags: {' '.join(record['flags']) or 'none of interest'}",
             f"caches: {caches_text or 'unknown'}",
             f"cpus: {record['online_cpus']} online, {record['affinity_cpus']} in the affinity "
             f"set; Linux {record['kernel']}"]
    if record.get("compiler"):
        lines.append(f"compiler: {record['compiler']}")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(prog="machine-info",
                                     description="The machine, as cpuid and sysfs report it.")
    parser.add_argument("--json", action="store_true", help="the record as JSON")
    parser.add_argument("--build", help="a build directory: adds its compiler")
    args = parser.parse_args(argv)
    record = machine_record(args.build)
    record["commit"] = commit_label()
    if args.json:
        json.dump(record, sys.stdout, indent=1)
        print()
    else:
        print("\n".join(describe(record) + [f"commit: {record['commit']}"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
