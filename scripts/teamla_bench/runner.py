# SPDX-License-Identifier: Apache-2.0
"""Running benchmark processes: shell capture, the bench lock, alternation, CPU pressure."""
import os
import subprocess
import sys

from . import ROOT

# Every timing on a shared machine takes this lock, so that no two timings overlap.
LOCK_PATH = "/tmp/teamla-bench.lock"


def sh(command, cwd=ROOT):
    """The stripped stdout of a command (a list, or a shell line), "" when it cannot run."""
    try:
        return subprocess.run(command, shell=isinstance(command, str), capture_output=True,
                              text=True, check=False, cwd=cwd).stdout.strip()
    except OSError:
        return ""


def locked(command):
    """The command, run under the bench lock."""
    return ["flock", LOCK_PATH] + list(command)


def run_locked(command, env=None, timeout=None, check=False):
    """Runs the command under the bench lock; returns the CompletedProcess (text output)."""
    return subprocess.run(locked(command), env=env, capture_output=True, text=True,
                          timeout=timeout, check=check)


def rotated(arms, round_index):
    """The arms in round round_index's order: each round starts one arm later, so that no arm
    always runs first (or right after the same neighbour)."""
    arms = list(arms)
    if not arms:
        return arms
    shift = round_index % len(arms)
    return arms[shift:] + arms[:shift]


def build_targets(script, targets, preset="release"):
    """Builds CMake targets with a preset; exits naming the script when the build fails."""
    built = subprocess.run(["cmake", "--build", "--preset", preset, "--target"] + list(targets),
                           capture_output=True, text=True)
    if built.returncode != 0:
        sys.exit(f"{script}: build failed:\n" + built.stdout + built.stderr)


def cpu_pressure():
    """Total µs some runnable task waited for a CPU (PSI, /proc/pressure/cpu), or None."""
    try:
        with open("/proc/pressure/cpu") as psi:
            fields = dict(f.split("=") for f in psi.readline().split()[1:])
            return int(fields["total"])
    except (OSError, KeyError, ValueError):
        return None


def pressure_share(before, after, seconds):
    """The share of `seconds` during which some task waited for a CPU, from two PSI totals."""
    if before is None or after is None or seconds <= 0:
        return None
    return round((after - before) / (seconds * 1e6), 3)


def cpu_steal():
    """Seconds of CPU time the hypervisor ran other guests on this one's vCPUs (/proc/stat's
    steal, over all CPUs), or None."""
    try:
        with open("/proc/stat") as stat:
            return int(stat.readline().split()[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def steal_share(before, after, seconds):
    """The share of all CPUs' time over `seconds` that was stolen, from two cpu_steal() values."""
    if before is None or after is None or seconds <= 0:
        return None
    return round((after - before) / (seconds * os.cpu_count()), 3)


def load_average():
    return os.getloadavg()
