#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# readme_sync.sh README EXAMPLE: the README's first cpp block must equal, line for line, the
# lines of EXAMPLE between its README-BEGIN and README-END markers.
set -eu
readme=$1
example=$2
expected=$(sed -n '/^\/\/ README-BEGIN$/,/^\/\/ README-END$/p' "$example" | sed '1d;$d')
actual=$(awk '/^```cpp$/ {inside = 1; next} inside && /^```$/ {exit} inside' "$readme")
if [ "$expected" != "$actual" ]; then
  echo "README.md's example differs from $example (README-BEGIN..README-END):" >&2
  diff <(printf '%s\n' "$expected") <(printf '%s\n' "$actual") >&2 || true
  exit 1
fi
