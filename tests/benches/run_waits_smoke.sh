#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run_waits_smoke.sh SOURCE_DIR BUILD_DIR OUT_DIR: a quick bench-ab run, then its form checked.
set -eu
source_dir=$1 build_dir=$2 out=$3
rm -rf "$out"
probe=""
[ -x "$build_dir/benches/acquire_probe_107" ] || probe="--no-probe"
/usr/bin/python3 "$source_dir/scripts/bench-ab" --quick $probe --build "$build_dir" --out "$out" \
  --name smoke
/usr/bin/python3 "$source_dir/tests/benches/check_waits_result.py" "$out"/smoke-*.json
