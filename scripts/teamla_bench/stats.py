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
