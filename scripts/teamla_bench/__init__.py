# SPDX-License-Identifier: Apache-2.0
"""teamla_bench: what the scripts under scripts/ share, one job per module.

  machine   the machine, compiler and commit of a run (from cpuid's /proc/cpuinfo fields,
            sysfs caches, the CMake cache and git; nothing typed in)
  baseline  the fair-baseline environment of the benchmark processes, and the variables that
            matter which a run kept
  runner    subprocesses: shell capture, the bench lock, arm alternation, CPU pressure
  gbench    Google Benchmark programs: the binary of an arm, a locked run, its JSON results
  stats     medians and spreads over rounds
  records   stamps and JSON records
  render    markdown tables and matplotlib figures
  waits     wait_scenarios rows folded over rounds (bench-ab's summary, render-waits' tables)

The scripts import it as `teamla_bench` (their own directory is first on sys.path);
`/usr/bin/python3 -m teamla_bench.machine` (from scripts/) or scripts/machine-info prints the
machine.
"""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
