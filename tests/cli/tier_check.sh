#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# LANEWISE_TIER: the native tier computes what the interpreter does, with
# the values of OpenCL C's arithmetic (computed here by the shell); the
# statistics say which tier ran, and whether the native code came from the
# disk cache; an unknown tier is reported and the kernel runs interpreted.
set -u
lanewise=$1
cases=$(cd "$(dirname "$0")/cases" && pwd)
failures=0
fail() { echo "tier check: $*"; failures=$((failures + 1)); }

n=4 lanes=200
u=$((n * 3 + 1))
ints="" floats=""
for ((i = 0; i < lanes; ++i)); do
  if ((i % 3 == 0)); then v=$(((i * 3 + u) ^ (i << 2))); else v=$(((i - 5) * (i + u) - (i >> 1))); fi
  ints+="${ints:+, }$v"
  floats+="${floats:+, }$(awk -v i=$i -v u=$u 'BEGIN { printf "%.9g", i * 0.5 + u }')"
done
expected="out = {$ints}
f = {$floats}"

run() {
  "$lanewise" run "$cases/tier_mix.cl" --kernel mix --global $lanes --local 100 \
    --arg out=buffer:int:$lanes --arg f=buffer:float:$lanes --arg n=int:$n --print out --print f
}
for tier in interp jit auto; do
  out=$(LANEWISE_TIER=$tier run 2>/dev/null) || fail "LANEWISE_TIER=$tier: exit status $?"
  [ "$out" = "$expected" ] || fail "LANEWISE_TIER=$tier printed
$out
  expected
$expected"
done

stats=$(LANEWISE_TIER=jit LANEWISE_STATS=1 run 2>&1 >/dev/null)
echo "$stats" | grep -q "tier: native: [1-9][0-9]* of [0-9]* blocks, [1-9][0-9]* instructions computed" ||
  fail "LANEWISE_TIER=jit: no native code in the statistics:
$stats"
stats=$(LANEWISE_TIER=interp LANEWISE_STATS=1 run 2>&1 >/dev/null)
echo "$stats" | grep -q "tier:" && fail "the interpreter's statistics name a tier:
$stats"

# The disk cache: the first process compiles and keeps the kernel's native
# code, the next loads it; an entry that is not the code (cut short, or
# another file) is compiled again and replaced; LANEWISE_CACHE=0 keeps none.
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
native_run() { LANEWISE_CACHE_DIR=$cache LANEWISE_TIER=jit LANEWISE_STATS=1 run 2>&1; }
expect_origin() { # origin, what
  out=$(native_run)
  echo "$out" | grep -q "tier: native: .*; $1$" || fail "$2: the statistics do not say \"$1\":
$out"
  echo "$out" | grep -q "^out = {$ints}$" || fail "$2: wrong results:
$out"
}
expect_origin compiled "a cold disk cache"
ls "$cache"/native-*.o >/dev/null 2>&1 || fail "no native code in the disk cache: $(ls "$cache")"
expect_origin "loaded from the disk cache" "a warm disk cache"
for entry in "$cache"/native-*.o; do head -c 64 "$entry" >"$entry.cut" && mv "$entry.cut" "$entry"; done
expect_origin compiled "entries cut short"
expect_origin "loaded from the disk cache" "entries written again"
for entry in "$cache"/native-*.o; do cp "$lanewise" "$entry"; done
expect_origin compiled "entries of another program"
rm -f "$cache"/native-*.o
LANEWISE_CACHE=0 native_run >/dev/null
ls "$cache"/native-*.o >/dev/null 2>&1 && fail "LANEWISE_CACHE=0 wrote native code: $(ls "$cache")"

out=$(LANEWISE_TIER=native run 2>&1)
echo "$out" | grep -q "LANEWISE_TIER=native is not one of interp, jit, auto" ||
  fail "an unknown tier is not reported:
$out"
echo "$out" | grep -q "^out = {$ints}$" || fail "with an unknown tier, the kernel did not run:
$out"

[ $failures -eq 0 ] && echo "tier check: passed"
exit $((failures != 0))
