# SPDX-License-Identifier: Apache-2.0
"""Statistics over rounds: medians, spreads (min–max, IQR) and grouped medians."""
import statistics


def median(values):
    return statistics.median(list(values))


def spread(values):
    """(min, max) of the values: the range a median over rounds came from."""
    values = list(values)
    return min(values), max(values)


def iqr(values):
    """(first quartile, third quartile); with fewer than two values, (min, max)."""
    values = sorted(values)
    if len(values) < 2:
        return spread(values)
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q3


def group(items, key):
    """{key(item): [items...]}, in first-seen order."""
    groups = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return groups


def median_by_key(samples):
    """From a list of {name: value} dicts (one per round), {name: median over the rounds} for
    the names of the first round."""
    return {key: median(s[key] for s in samples) for key in samples[0]}


def unique_in_order(values):
    seen = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return seen


def arm_ratios(samples, fields, arms=("teamla", "openblas")):
    """Per configuration (the values of `fields`): each arm's median rate over rounds
    ("gflops" of the samples) and its range, and the median of the per-round ratios of the first
    arm over the second, with their range. Samples carry "arm", "round" and "gflops"."""
    summary = []
    for config, recs in sorted(group(samples, lambda r: tuple(r[f] for f in fields)).items()):
        row = dict(zip(fields, config))
        for arm in arms:
            rates = [r["gflops"] for r in recs if r["arm"] == arm]
            if rates:
                row[arm + "_gflops"] = round(median(rates), 2)
                row[arm + "_range"] = [round(x, 2) for x in spread(rates)]
        ratios = []
        for rnd in group(recs, lambda r: r["round"]).values():
            rate = {r["arm"]: r["gflops"] for r in rnd}
            if arms[0] in rate and arms[1] in rate:
                ratios.append(rate[arms[0]] / rate[arms[1]])
        if ratios:
            row["ratio"] = round(median(ratios), 3)
            row["ratio_range"] = [round(x, 3) for x in spread(ratios)]
        summary.append(row)
    return summary
