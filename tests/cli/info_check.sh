#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# lanewise info describes the Lanewise platform and device (the device clinfo
# sees), the checks the environment enables, and finds the library the way
# an installed tool does.
set -u
# Sanitizer builds name the runtimes to preload into the uninstrumented
# programs that load Lanewise (cmake/Sanitizers.cmake).
uninstrumented="env ${LANEWISE_SANITIZER_PRELOAD:+LD_PRELOAD=$LANEWISE_SANITIZER_PRELOAD}"
lanewise=$1
library=$2
libdir=$3 # the install layout's library folder, relative to the prefix
failures=0
fail() { echo "info check: $*"; failures=$((failures + 1)); }
field() { sed -n "s/^$1  *//p" <<<"$2" | head -1; }

unset LANEWISE_LIBRARY LANEWISE_CHECK LANEWISE_CHECK_FILE LANEWISE_CHECK_JSON \
      LANEWISE_CHECK_ABORT LANEWISE_DETERMINISTIC LANEWISE_ISA
out=$("$lanewise" info 2>&1)
status=$?
[ $status -eq 0 ] || fail "exited with $status: $out"
[ "$(field Library "$out")" = "$library" ] || fail "does not name the library $library"
[ "$(field Platform "$out")" = Lanewise ] || fail "does not name the platform Lanewise"
device=$(OCL_ICD_VENDORS="$library" $uninstrumented clinfo -l 2>/dev/null | sed -n 's/.*Device #0: //p')
[ -n "$device" ] && [ "$(field Device "$out")" = "$device" ] ||
  fail "device is '$(field Device "$out")', clinfo says '$device'"
for label in "OpenCL C versions" "IL versions" "Extensions" "Compute units" "Global memory" \
             "Local memory" "Max work-group size" "Sub-group sizes" "Printf buffer"; do
  [ -n "$(field "  $label" "$out")" ] || fail "no '$label' line"
done
grep -q "IL versions .*SPIR-V_1.0" <<<"$out" || fail "no SPIR-V 1.0 among the IL versions"
# Every extension the device reports, on however many lines the list takes.
extensions=$(OCL_ICD_VENDORS="$library" $uninstrumented clinfo --raw 2>/dev/null |
             sed -n 's/.*CL_DEVICE_EXTENSIONS  *//p')
[ -n "$extensions" ] || fail "clinfo --raw reports no device extensions"
for extension in $extensions; do
  grep -qw -- "$extension" <<<"$out" || fail "extension $extension is not listed"
done
[ "$(field Checks "$out")" = "none (LANEWISE_CHECK is not set)" ] || fail "checks without LANEWISE_CHECK"
# The handlers' instruction set: AVX2 and F16C where /proc/cpuinfo lists both.
if grep -qw avx2 /proc/cpuinfo && grep -qw f16c /proc/cpuinfo; then
  expected="AVX2, F16C"
else
  expected="baseline x86-64 (SSE2)"
fi
[ "$(field "Vector instructions" "$out")" = "$expected" ] ||
  fail "vector instructions '$(field "Vector instructions" "$out")', expected '$expected'"
out=$(LANEWISE_ISA=baseline "$lanewise" info)
[ "$(field "Vector instructions" "$out")" = "baseline x86-64 (SSE2) (LANEWISE_ISA=baseline)" ] ||
  fail "LANEWISE_ISA=baseline not shown: '$(field "Vector instructions" "$out")'"

out=$(LANEWISE_CHECK=races,bounds LANEWISE_CHECK_ABORT=1 LANEWISE_DETERMINISTIC=1 \
      LANEWISE_CHECK_JSON=/tmp/findings.jsonl "$lanewise" info)
[ "$(field Checks "$out")" = "bounds, races (LANEWISE_CHECK=races,bounds)" ] ||
  fail "checks of LANEWISE_CHECK=races,bounds: '$(field Checks "$out")'"
[ "$(field "  Abort on a finding" "$out")" = yes ] || fail "LANEWISE_CHECK_ABORT=1 not shown"
[ "$(field "  JSON findings file" "$out")" = /tmp/findings.jsonl ] || fail "LANEWISE_CHECK_JSON not shown"
[ "$(field Deterministic "$out")" = yes ] || fail "LANEWISE_DETERMINISTIC=1 not shown"
out=$(LANEWISE_CHECK=all,nonsense "$lanewise" info)
[ "$(field Checks "$out")" = \
  "bounds, uninit, races, barriers, subgroups, alignment, division (LANEWISE_CHECK=all,nonsense)" ] ||
  fail "checks of LANEWISE_CHECK=all: '$(field Checks "$out")'"
[ "$(field "  Unknown checks" "$out")" = nonsense ] || fail "an unknown check is not shown"

# LANEWISE_LIBRARY wins, and a wrong one is an error that names it.
errors=$(LANEWISE_LIBRARY=/nonexistent/liblanewise.so "$lanewise" info 2>&1 >/dev/null)
status=$?
[ $status -eq 1 ] || fail "a missing LANEWISE_LIBRARY exited with $status, not 1"
grep -qF "LANEWISE_LIBRARY names '/nonexistent/liblanewise.so', which is not a file" <<<"$errors" ||
  fail "a missing LANEWISE_LIBRARY: '$errors'"

# Installed: bin/lanewise finds <libdir>/liblanewise.so of its own prefix
# before the build tree's library.
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
mkdir -p "$prefix/bin" "$prefix/$libdir"
cp "$lanewise" "$prefix/bin/lanewise"
ln -s "$library" "$prefix/$libdir/liblanewise.so"
out=$("$prefix/bin/lanewise" info 2>&1)
[ "$(field Library "$out")" = "$prefix/$libdir/liblanewise.so" ] ||
  fail "installed, the tool uses '$(field Library "$out")', not $prefix/$libdir/liblanewise.so"
[ "$(field Platform "$out")" = Lanewise ] || fail "installed, no Lanewise platform: $out"

[ $failures -eq 0 ] || exit 1
echo "info check: platform, device, checks and library as expected"
