#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# lanewise exec runs a program with Lanewise as its only platform, sets the
# checked mode's variables from its options, and exits as the program does.
set -u
# Sanitizer builds name the runtimes to preload into the uninstrumented
# programs that load Lanewise (cmake/Sanitizers.cmake).
uninstrumented="env ${LANEWISE_SANITIZER_PRELOAD:+LD_PRELOAD=$LANEWISE_SANITIZER_PRELOAD}"
lanewise=$1
library=$2
failures=0
fail() { echo "exec check: $*"; failures=$((failures + 1)); }
unset LANEWISE_CHECK LANEWISE_CHECK_FILE LANEWISE_CHECK_JSON LANEWISE_CHECK_ABORT \
      LANEWISE_DETERMINISTIC LANEWISE_CHECK_EXITCODE LANEWISE_TIMEOUT LANEWISE_STATS LANEWISE_TRACE \
      LANEWISE_CHECK_OPTIMIZE

# clinfo -l lists the platforms the loader offers: Lanewise alone, even where
# the machine has others (a vendors folder with PoCL, when it is installed).
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
echo "$library" > "$vendors/lanewise.icd"
[ -f /etc/OpenCL/vendors/pocl.icd ] && cp /etc/OpenCL/vendors/pocl.icd "$vendors/"
out=$(OCL_ICD_VENDORS="$vendors" "$lanewise" exec $uninstrumented clinfo -l 2>&1)
status=$?
[ $status -eq 0 ] || fail "'exec clinfo -l' exited with $status: $out"
platforms=$(grep -c "Platform #" <<<"$out")
[ "$platforms" -eq 1 ] || fail "'exec clinfo -l' lists $platforms platforms: $out"
grep -q "Platform #0: Lanewise" <<<"$out" || fail "'exec clinfo -l' does not list Lanewise: $out"

# The environment the program gets.
out=$("$lanewise" exec env)
grep -qx "OCL_ICD_VENDORS=$library" <<<"$out" || fail "OCL_ICD_VENDORS is not $library"
grep -q "^LANEWISE_CHECK=" <<<"$out" && fail "checks are set without --check"
grep -qx "LANEWISE_CHECK_EXITCODE=3" <<<"$out" || fail "the exit status for findings is not 3"
out=$("$lanewise" exec --check env)
grep -qx "LANEWISE_CHECK=all" <<<"$out" || fail "--check does not set LANEWISE_CHECK=all"
out=$("$lanewise" exec --check=bounds,races --check-file=report.txt --check-json=findings.jsonl \
      --check-abort --deterministic --check-optimize --check-exitcode=7 --timeout=2.5 --stats \
      --trace=t.json env -0 | tr '\0' '\n')
for variable in LANEWISE_CHECK=bounds,races LANEWISE_CHECK_FILE=report.txt \
                LANEWISE_CHECK_JSON=findings.jsonl LANEWISE_CHECK_ABORT=1 LANEWISE_DETERMINISTIC=1 \
                LANEWISE_CHECK_OPTIMIZE=1 LANEWISE_CHECK_EXITCODE=7 LANEWISE_TIMEOUT=2.5 \
                LANEWISE_STATS=1 LANEWISE_TRACE=t.json; do
  grep -qx "$variable" <<<"$out" || fail "the options do not set $variable"
done

# Options end at the program: the program's own options reach it unchanged.
out=$("$lanewise" exec printf '%s|' --check --help -- x)
[ "$out" = "--check|--help|--|x|" ] || fail "the program's arguments arrive as '$out'"

"$lanewise" exec sh -c 'exit 7'
status=$?
[ $status -eq 7 ] || fail "the program's exit status 7 came back as $status"
errors=$("$lanewise" exec ./no-such-program 2>&1)
status=$?
[ $status -eq 127 ] || fail "a missing program exited with $status, not 127"
grep -qF "cannot run './no-such-program': No such file or directory" <<<"$errors" ||
  fail "a missing program: '$errors'"

[ $failures -eq 0 ] || exit 1
echo "exec check: Lanewise alone, variables set, exit status passed on"
