#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# lanewise run from the command line alone, and with a run description
# whose settings the command line replaces or extends; --seed decides the
# random values and nothing else does.
set -u
lanewise=$1
cases=$(cd "$(dirname "$0")/cases" && pwd)
failures=0
fail() { echo "run check: $*"; failures=$((failures + 1)); }

# expect_output EXPECTED ARGUMENTS...: exit status 0, this standard output.
expect_output() {
  local expected=$1
  shift
  local out
  out=$("$lanewise" run "$@" 2>&1)
  local status=$?
  [ $status -eq 0 ] || fail "'lanewise run $*' exited with $status: $out"
  [ "$out" = "$expected" ] || fail "'lanewise run $*' printed
$out
  expected
$expected"
}

expect_output "out = {1, 4, 9, 16}" "$cases/square.cl" --kernel square --global 4 \
  --arg out=buffer:int:4 --arg in=buffer:int:4:values=1,2,3,4 --print out

# The file's global size (8) is replaced; its prints (out, in) come first.
expect_output "out = {9, 4, 0, 0, 0, 0, 0, 0}
in = {-3, -2, -1, 0, 1, 2, 3, 4}
in = {-3, -2, -1, 0, 1, 2, 3, 4}" "$cases/square.cl" --args-file "$cases/square.run" \
  --global 2 --print in

# The file's arguments come first; the command line adds the missing one.
description=$(mktemp)
trap 'rm -f "$description"' EXIT
printf 'program %s\nkernel square\nglobal 3\narg buffer:int:3\n' "$cases/square.cl" >"$description"
expect_output "in = {5, 6, 7}
out = {25, 36, 49}" --args-file "$description" --arg buffer:int:3:range=5 --print 1 --print 0

random() {
  "$lanewise" run "$cases/square.cl" --kernel square --global 1 --arg buffer:int:1 \
    --arg buffer:int:8:random=-1000000,1000000 --print in "$@"
}
first=$(random --seed 5)
[ -n "$first" ] && [ "$first" = "$(random --seed 5)" ] || fail "--seed 5 twice gives '$first' and '$(random --seed 5)'"
[ "$first" != "$(random --seed 6)" ] || fail "--seed 5 and --seed 6 give the same values: $first"
[ "$(random)" = "$(random --seed 1)" ] || fail "the default seed is not 1"

[ $failures -eq 0 ] || exit 1
echo "run check: command line, run description and seed as expected"
