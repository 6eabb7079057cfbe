#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check_no_static_guards.sh LIBRARY...: no object of teamla's libraries initialises a
# function-local static under a guard (__cxa_guard_acquire). A fork() while another thread
# holds such a guard copies it taken, and the child's first use waits for good; teamla's
# process-wide values are published without a lock instead (team::ProcessValue, docs/team.md,
# "Fork").
set -u
found=$(nm -A -u "$@" 2>/dev/null | grep '__cxa_guard_acquire')
if [ -n "$found" ]; then
  echo "check_no_static_guards: guarded statics in:" >&2
  echo "$found" >&2
  exit 1
fi
echo "no guarded static in: $*"
