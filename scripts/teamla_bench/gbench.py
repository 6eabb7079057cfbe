# SPDX-License-Identifier: Apache-2.0
"""Google Benchmark programs: their paths (the Eigen arm per ISA), a locked run of one as JSON,
and the per-call figures of its results (median aggregate when repeated).

Timing, iteration counts, repetitions and their statistics are Google Benchmark's; this
module only picks the binary, runs it under the bench lock and reads the JSON it printed.
"""
import json
import os

from . import machine, runner

# Seconds per unit of Google Benchmark's "time_unit".
UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def cpu_isa():
    """"avx512" where the CPU has AVX-512 F, "avx2" otherwise: the Eigen arm's build to run."""
    return "avx512" if "avx512f" in machine.cpuinfo().get("flags", "").split() else "avx2"


def dense_binary(build, arm):
    """build/benches/dense_bench_<arm>; the Eigen arm is the build of the CPU's ISA."""
    name = "dense_bench_" + arm + ("_" + cpu_isa() if arm == "eigen" else "")
    return os.path.join(build, "benches", name)


def exact_filter(names):
    """A --benchmark_filter matching exactly these benchmark names (whatever time suffix)."""
    return "--benchmark_filter=^(%s)(/real_time|/manual_time)?$" % "|".join(names)


def options(min_time, repetitions=1):
    """The Google Benchmark options of a scripted run: JSON on stdout, and with repetitions,
    their aggregates only."""
    opts = ["--benchmark_format=json", "--benchmark_min_time=%s" % min_time]
    if repetitions > 1:
        opts += ["--benchmark_repetitions=%d" % repetitions,
                 "--benchmark_report_aggregates_only=true"]
    return opts


def run(cmd, env=None):
    """Runs a Google Benchmark program under the bench lock: (its JSON, None), or (None, the
    failure as text)."""
    out = runner.run_locked(cmd, env=env)
    if out.returncode != 0:
        return None, "%s (exit %d): %s" % (" ".join(cmd), out.returncode, out.stderr.strip())
    return json.loads(out.stdout), None


def per_call(doc):
    """{base name: result} for each benchmark of a JSON document: the median aggregate where
    repeated, the single run otherwise; the time suffix (/real_time, /manual_time) is dropped
    and errored runs are left out."""
    found = {}
    for row in doc.get("benchmarks", []):
        if row.get("error_occurred"):
            continue
        repeated = row.get("run_type") == "aggregate"
        if repeated and row.get("aggregate_name") != "median":
            continue
        base = row.get("run_name", row["name"])
        for suffix in ("/real_time", "/manual_time"):
            base = base[:-len(suffix)] if base.endswith(suffix) else base
        if repeated or base not in found:
            found[base] = row
    return found


def seconds(row, key="real_time"):
    """A result's time per call in seconds (real_time, or cpu_time)."""
    return row[key] * UNIT_SECONDS[row.get("time_unit", "ns")]


def name_fields(name):
    """"dgemm/threads:2/m:64/n:64/k:64" -> ("dgemm", {"threads": 2, "m": 64, ...})."""
    routine, *args = name.split("/")
    return routine, {k: int(v) for k, v in (a.split(":") for a in args if ":" in a)}
