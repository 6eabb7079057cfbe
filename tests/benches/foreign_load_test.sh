#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# foreign_load_test.sh FOREIGN_LOAD: the generator's contract. It propagates the command's exit
# status, returns 128+signal when stopped by a signal, and leaves no load child behind, also
# when it is SIGKILLed. The unusual period marks this test's children (their command line is
# the parent's, as they are forked without exec).
set -u
bin=$1
marker=10007
fail() { echo "foreign_load_test: $*"; exit 1; }
leftovers() { pgrep -f -- "--period-us $marker" | grep -v "^$$\$" || true; }

"$bin" --load 2:10 --period-us $marker -- sh -c 'exit 3'
[ $? -eq 3 ] || fail "exit status not propagated"

"$bin" --load 2:10 --period-us $marker --duration-s 0.3
[ $? -eq 0 ] || fail "a timed run did not exit 0"

"$bin" --load 2:10 --period-us $marker -- sleep 30 &
pid=$!
sleep 0.3
[ -n "$(leftovers)" ] || fail "no load children while running"
kill -TERM $pid
wait $pid
[ $? -eq 143 ] || fail "SIGTERM did not give 143"

"$bin" --load 2:10 --period-us $marker -- sleep 30 &
pid=$!
sleep 0.3
kill -KILL $pid
wait $pid 2>/dev/null
for _ in 1 2 3 4 5 6 7 8 9 10; do
  [ -z "$(leftovers)" ] && break
  sleep 0.1
done
[ -z "$(leftovers)" ] || fail "load children outlived a SIGKILLed parent: $(leftovers)"

"$bin" --load 2:200 -- true 2>/dev/null && fail "accepted PCT 200"
echo "foreign_load_test: ok"
