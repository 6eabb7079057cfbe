#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run_reference.sh WORKDIR PROGRAM INPUT SUMMARY PATTERN...
#
# Runs a reference BLAS/LAPACK test program in WORKDIR with INPUT on stdin, then checks its
# report: SUMMARY is the file the program writes its summary to ("-": stdout). The test passes
# when the program exits 0, no line of the report mentions a failure ("FAIL", "*****", or the
# LAPACK "***" banners), and every PATTERN (a fixed string) occurs in the report or on stderr,
# where TEAMLA_BLAS_VERBOSE=1 names the teamla routines that served the calls: so a run that
# silently fell through to the system BLAS fails.
set -u
workdir=$1 program=$2 input=$3 summary=$4
shift 4
mkdir -p "$workdir" && cd "$workdir" || exit 1
rm -f stdout.txt stderr.txt
"$program" < "$input" > stdout.txt 2> stderr.txt
status=$?
if [ "$summary" = "-" ]; then report=stdout.txt; else report=$summary; fi
cat "$report"
cat stderr.txt >&2
if [ $status -ne 0 ]; then
  echo "run_reference: $program exited with status $status" >&2
  exit 1
fi
if grep -n -i -E 'fail|\*\*\*' "$report" >&2; then
  echo "run_reference: the report above mentions failures" >&2
  exit 1
fi
for pattern in "$@"; do
  if ! grep -q -F -- "$pattern" "$report" stderr.txt; then
    echo "run_reference: missing: $pattern" >&2
    exit 1
  fi
done
echo "run_reference: passed"
