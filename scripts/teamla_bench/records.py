# SPDX-License-Identifier: Apache-2.0
"""Result records: UTC stamps, stamped paths and JSON reading and writing."""
import datetime
import json
import os
import time


def utc_stamp(when=None):
    """20261201T061500Z: the stamp in record file names."""
    when = when or datetime.datetime.now(datetime.timezone.utc)
    return when.strftime("%Y%m%dT%H%M%SZ")


def utc_iso():
    """2026-12-01T06:15:00Z: the time a record was written."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def stamped_path(out_dir, prefix, stamp, name="", suffix=".json"):
    """OUT/prefix-stamp[-name].json."""
    return os.path.join(out_dir, prefix + "-" + stamp + ("-" + name if name else "") + suffix)


def write_json(path, record, indent=1, sort_keys=False):
    """Writes the record, creating its directory."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as handle:
        json.dump(record, handle, indent=indent, sort_keys=sort_keys)
    return path


def write_text(path, text):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as handle:
        handle.write(text)
    return path


def read_json(path):
    with open(path) as handle:
        return json.load(handle)


def json_lines(text):
    """The JSON objects of the lines of a program's output that start with '{'."""
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]
