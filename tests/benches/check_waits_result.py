#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""check_waits_result.py RESULT.json: fails unless a bench-ab waits result is well formed.

Form only, never speed: the record names its machine, compiler and commit; every load and
placement has every arm; every row has finite, non-negative numbers, at least one call, a
positive ideal and a slow fraction in [0, 1]; teamla rows carry counters; the probe (when run)
has processes that all succeeded; the rendered markdown (and PNG, with matplotlib) exist.
"""
import json
import math
import os
import sys

ROWS = {("sections", "5 us x 200"), ("gaps (first section)", "0"), ("gaps (call)", "10 ms"),
        ("acquire", "team held, token per call"), ("nested", "pairs, 100 x 20 us")}


def fail(why):
    sys.exit(f"check_waits_result: {why}")


def main(path):
    with open(path) as handle:
        record = json.load(handle)
    for key in ["cpu", "compiler", "commit", "affinity_cpus", "kernel"]:
        if key not in record["machine"] or record["machine"][key] in ("", None):
            fail(f"machine.{key} missing")
    if not record["summary"]:
        fail("no summary rows")
    seen = {}
    for cell in record["summary"]:
        for key in ["median_us", "p99_us", "ideal_us", "slow_fraction"]:
            value = cell[key]
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                fail(f"{key} = {value!r} in {cell}")
        if cell["ideal_us"] <= 0 or cell["calls"] < 1 or cell["slow_fraction"] > 1:
            fail(f"bad row {cell}")
        if cell["arm"] != "omp" and not cell["counters"]:
            fail(f"teamla row without counters: {cell}")
        seen.setdefault((cell["placement"], cell["load"]), {}).setdefault(cell["arm"], set()).add(
            (cell["scenario"], cell["param"]))
    for place_load, arms in seen.items():
        if set(arms) != {"legacy", "staged", "omp"}:
            fail(f"{place_load}: arms {sorted(arms)}")
        for arm, rows in arms.items():
            if not ROWS <= rows:
                fail(f"{place_load} {arm}: missing rows {sorted(ROWS - rows)}")
    loads = {load for _, load in seen}
    if loads != set(record["loads"]):
        fail(f"loads run {sorted(loads)} against asked {record['loads']}")
    for report in record["probe"]:
        for result in report["results"]:
            if result["processes"] < 1 or result["failed_processes"]:
                fail(f"probe process failed: {result}")
            if not all(math.isfinite(m) and m > 0 for m in result["medians_us"]):
                fail(f"probe medians: {result}")
    stem = os.path.splitext(path)[0]
    with open(stem + ".md") as handle:
        if "Criteria" not in handle.read():
            fail("markdown has no criteria section")
    try:
        import matplotlib  # noqa: F401
        if os.path.getsize(stem + ".png") < 1000:
            fail("PNG too small")
    except ImportError:
        pass
    print(f"check_waits_result: {path} is well formed "
          f"({len(record['summary'])} rows, {len(record['probe'])} probe runs)")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        fail("usage: check_waits_result.py RESULT.json")
    main(sys.argv[1])
