# SPDX-License-Identifier: Apache-2.0
"""Wait A/B records (scripts/bench-ab, scripts/render-waits): rows of wait_scenarios over
rounds, folded into one cell per (placement, load, scenario, param, arm)."""
from . import stats

ARMS = ["legacy", "staged", "omp"]


def add_counters(rows):
    """The wait counters summed over rows, None when no row has any."""
    counters = {}
    for row in rows:
        for name, value in (row.get("counters") or {}).items():
            counters[name] = counters.get(name, 0) + value
    return counters or None


def fold_rows(rows):
    """One cell from the rows of several processes: median of their medians, worst p99,
    call-weighted slow fraction, summed counters."""
    calls = sum(r["calls"] for r in rows)
    return {"rounds": len(rows), "calls": calls,
            "median_us": stats.median(r["median_us"] for r in rows),
            "p99_us": max(r["p99_us"] for r in rows),
            "ideal_us": rows[0]["ideal_us"],
            "slow_fraction": sum(r["slow_fraction"] * r["calls"] for r in rows) / max(calls, 1),
            "counters": add_counters(rows)}


def rows_by_cell(runs, keep=lambda run: True):
    """{(placement, load, scenario, param, arm): [rows]} over the runs that `keep` accepts."""
    cells = {}
    for run in runs:
        if not keep(run):
            continue
        report = run["report"]
        for row in report["rows"]:
            key = (run["placement"], run["load"], row["scenario"], row["param"], report["arm"])
            cells.setdefault(key, []).append(row)
    return cells


def summarize(runs):
    """The record's summary: one entry per (placement, load, scenario, param, arm)."""
    names = ("placement", "load", "scenario", "param", "arm")
    return [dict(zip(names, key), **fold_rows(rows)) for key, rows in rows_by_cell(runs).items()]
