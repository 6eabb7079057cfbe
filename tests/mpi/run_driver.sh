#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run_driver.sh MPIEXEC RANKS TEAMLA_BLAS_SO DRIVER ARGS...
#
# Runs DRIVER on RANKS ranks with libteamla_blas.so preloaded in every rank (one teamla thread
# each) and passes when the driver exits 0 (its residual is below its tolerance), its JSON line
# names teamla as the library that serves dgemm_, and every rank's log says that teamla served
# dgemm_, dtrsm_ and dsyrk_ (TEAMLA_EXPECTED_ROUTINES, if set, names others): a rank that fell
# back to the system BLAS fails the test. The system BLAS still serves the level 1 and 2 calls
# (OpenBLAS here): one thread, so that its pool, started when it loads, has no threads beside
# teamla's.
set -u
mpiexec=$1 ranks=$2 blas=$3
shift 3
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
# Root in a container needs the two OMPI_ALLOW_* variables. --bind-to none: at two ranks or
# fewer Open MPI binds each rank to one core, which would stack a rank's threads on it.
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
  LD_PRELOAD=$blas TEAMLA_BLAS_VERBOSE=1 TEAMLA_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 \
  "$mpiexec" --oversubscribe --bind-to none --tag-output -np "$ranks" \
  -x LD_PRELOAD -x TEAMLA_BLAS_VERBOSE -x TEAMLA_NUM_THREADS -x OPENBLAS_NUM_THREADS \
  "$@" > "$out" 2> "$err"
status=$?
cat "$out"
cat "$err" >&2
if [ $status -ne 0 ]; then
  echo "run_driver: exit status $status" >&2
  exit 1
fi
if ! grep -q '"dgemm_from":"[^"]*libteamla_blas' "$out"; then
  echo "run_driver: dgemm_ is not served by libteamla_blas.so" >&2
  exit 1
fi
rank=0
while [ $rank -lt "$ranks" ]; do
  for routine in ${TEAMLA_EXPECTED_ROUTINES:-dgemm_ dtrsm_ dsyrk_}; do
    if ! grep -q -F "[1,$rank]<stderr>:teamla_blas: $routine served by teamla" "$err"; then
      echo "run_driver: rank $rank's log does not show $routine served by teamla" >&2
      exit 1
    fi
  done
  rank=$((rank + 1))
done
echo "run_driver: passed"
