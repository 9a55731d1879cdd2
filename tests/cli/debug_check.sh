#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Debugging as users run it: an application's planted bugs reported with
# their source lines although it builds without -g; the read clang -O2 folds
# away found at -O0; exit statuses that tell CI something was found; a hung
# kernel stopped by the watchdog with the queue going on; a crash reported
# before the process dies; a trace that parses; statistics that add up.
set -u
# Sanitizer builds name the runtimes to preload into the uninstrumented
# programs that load Lanewise (cmake/Sanitizers.cmake).
uninstrumented="env ${LANEWISE_SANITIZER_PRELOAD:+LD_PRELOAD=$LANEWISE_SANITIZER_PRELOAD}"
lanewise=$1
library=$2
apps=$(cd "$(dirname "$0")/apps" && pwd)
failures=0
fail() { echo "debug check: $*"; failures=$((failures + 1)); }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
unset LANEWISE_CHECK LANEWISE_CHECK_FILE LANEWISE_CHECK_JSON LANEWISE_CHECK_ABORT \
      LANEWISE_CHECK_EXITCODE LANEWISE_CHECK_OPTIMIZE LANEWISE_TIMEOUT LANEWISE_STATS \
      LANEWISE_TRACE LANEWISE_DETERMINISTIC
export LANEWISE_CACHE_DIR=$work/cache XDG_CACHE_HOME=$work/xdg
python="$uninstrumented /usr/bin/python3"

# run NAME COMMAND...: runs it, keeping its status, output and errors.
run() {
  local name=$1
  shift
  "$@" >"$name.out" 2>"$name.err"
  echo $? >"$name.status"
}
status() { cat "$1.status"; }
has() { grep -qE -- "$2" "$1.err" || fail "$1: no '$2' in: $(cat "$1.err")"; }

# An application's out-of-bounds write, built without -g: the report has
# its line, and says which program (program.cl is every application's).
run oob "$lanewise" exec --check $python "$apps/planted.py" oob
[ "$(status oob)" = 3 ] || fail "oob: exit status $(status oob), not 3"
has oob "out-of-bounds in kernel 'oob' at program\.cl:3:[0-9]+ of program [0-9a-f]{8} \(kernels oob, folded, spin, fill\)"
grep -q "^done" oob.out || fail "oob: the application did not finish"
# PyOpenCL's binary cache, filled by a run without checks, is not used under
# them (it would give back a program built without checks and lines).
# (Runs a correct kernel: the planted write is out of bounds of a real buffer.)
run cached_first env OCL_ICD_VENDORS="$library" $python "$apps/planted.py" folded
run cached "$lanewise" exec --check $python "$apps/planted.py" oob
has cached "out-of-bounds in kernel 'oob' at program\.cl:3:"

# The uninitialised variable clang -O2 folds into a constant is found, since
# the checked mode builds without clang's optimisations; kept optimisations
# fold it away again.
run folded "$lanewise" exec --check=uninit $python "$apps/planted.py" folded
[ "$(status folded)" = 3 ] || fail "folded: exit status $(status folded), not 3"
has folded "uninitialised-read in kernel 'folded' at program\.cl:9:"
run optimised "$lanewise" exec --check=uninit --check-optimize $python "$apps/planted.py" folded
[ "$(status optimised)" = 0 ] || fail "optimised: exit status $(status optimised), not 0"
grep -q "uninitialised" optimised.err && fail "optimised: reported: $(cat optimised.err)"

# Exit statuses: configurable; the library's own, without the command; and
# the program's own when nothing was found or nothing asked for a status.
run custom "$lanewise" exec --check --check-exitcode=9 $python "$apps/planted.py" oob
[ "$(status custom)" = 9 ] || fail "--check-exitcode=9: exit status $(status custom)"
run library env OCL_ICD_VENDORS="$library" LANEWISE_CHECK=bounds LANEWISE_CHECK_EXITCODE=5 \
  $python "$apps/planted.py" oob
[ "$(status library)" = 5 ] || fail "LANEWISE_CHECK_EXITCODE=5: exit status $(status library)"
has library "exit status 5 \(LANEWISE_CHECK_EXITCODE\)"
run unasked env OCL_ICD_VENDORS="$library" LANEWISE_CHECK=bounds $python "$apps/planted.py" oob
[ "$(status unasked)" = 0 ] || fail "without LANEWISE_CHECK_EXITCODE: exit status $(status unasked)"
# Variables that make no sense are named and ignored, not guessed at.
run bad_status env OCL_ICD_VENDORS="$library" LANEWISE_CHECK=bounds LANEWISE_CHECK_EXITCODE=999 \
  $python "$apps/planted.py" oob
[ "$(status bad_status)" = 0 ] || fail "LANEWISE_CHECK_EXITCODE=999: exit status $(status bad_status)"
has bad_status "LANEWISE_CHECK_EXITCODE='999' is not a status from 1 to 255; ignored"
run bad_timeout env OCL_ICD_VENDORS="$library" LANEWISE_TIMEOUT=soon $python "$apps/planted.py" folded
[ "$(status bad_timeout)" = 0 ] || fail "LANEWISE_TIMEOUT=soon: exit status $(status bad_timeout)"
has bad_timeout "LANEWISE_TIMEOUT='soon' is not a number of seconds; ignored"
run clean "$lanewise" exec --check $python "$apps/planted.py"
[ "$(status clean)" = 0 ] || fail "no finding: exit status $(status clean)"
printf 'kernel void oob(global int *p) {\n  p[get_global_id(0) + 1] = 0;\n}\n' >oob.cl
run run_oob "$lanewise" run oob.cl --kernel oob --global 4 --arg p=buffer:int:4 --check
[ "$(status run_oob)" = 3 ] || fail "lanewise run with a finding: exit status $(status run_oob)"
has run_oob "out-of-bounds in kernel 'oob' at oob\.cl:2:"

# A kernel that never ends: stopped by the watchdog; its event fails, the
# commands after it on the queue run, clFinish answers an error.
start=$(date +%s)
run spin "$lanewise" exec --timeout=1 $python "$apps/planted.py" spin
elapsed=$(($(date +%s) - start))
[ $elapsed -lt 30 ] || fail "spin: the watchdog of 1 s took ${elapsed} s"
[ "$(status spin)" = 3 ] || fail "spin: exit status $(status spin), not 3"
# Two work-groups: both had started, or the second had to wait for the first.
has spin "kernel 'spin' stopped by the watchdog after 1 s \(LANEWISE_TIMEOUT\): (32 work-items of 2 work-groups had not finished|16 work-items of 1 work-group had not finished, 1 work-group had not started)"
has spin "work-group \(0,0,0\), local ids 0-15: at block [0-9]+ \(SPIR-V %[0-9]+\), after [0-9]+ backward branches"
grep -qx "after spin: \[40, 41, 42, 43\] spin status -5" spin.out ||
  fail "spin: the queue did not go on: $(cat spin.out)"
grep -qx "finish: -5" spin.out || fail "spin: clFinish did not fail: $(cat spin.out)"
# lanewise run has the watchdog on by default, and source lines.
cat >spin.cl <<'CL'
kernel void spin(global volatile int *flag) {
  while (flag[0] == 0) {
  }
}
CL
run run_spin "$lanewise" run spin.cl --kernel spin --global 8 --arg flag=buffer:int:1 --timeout 0.5
[ "$(status run_spin)" = 3 ] || fail "run spin: exit status $(status run_spin)"
has run_spin "local ids 0-7: at block [0-9]+ \(SPIR-V %[0-9]+\) at spin\.cl:2:"
# Small work-groups share a warp (runtime::groupsPerPackedWarp): the report
# still names each group and its work-items' local ids.
run run_spin_groups "$lanewise" run spin.cl --kernel spin --global 8 --local 2 \
  --arg flag=buffer:int:1 --timeout 0.5
[ "$(status run_spin_groups)" = 3 ] || fail "run spin, 4 groups: exit status $(status run_spin_groups)"
has run_spin_groups "8 work-items of 4 work-groups had not finished"
has run_spin_groups "work-group \(3,0,0\), local ids 0-1: at block [0-9]+ \(SPIR-V %[0-9]+\) at spin\.cl:2:"

# A wild write in the default mode: reported, then the process dies of it.
cat >wild.cl <<'CL'
kernel void wild(global int *p, long far) {
  size_t i = get_global_id(0);
  p[i + (i == 5 ? far : 0)] = 7;
}
CL
# In a build with AddressSanitizer or ThreadSanitizer, the sanitizer's own
# SIGSEGV handler would report first and exit: this is about Lanewise's
# report.
run wild env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0" \
  TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}handle_segv=0" "$lanewise" run wild.cl --kernel wild --global 16 --arg p=buffer:int:16 \
  --arg long:1099511627776
[ "$(status wild)" = 139 ] || fail "wild: exit status $(status wild), not 139 (SIGSEGV)"
has wild "kernel 'wild' crashed: SIGSEGV \(invalid memory access\) at address 0x"
has wild "^  at wild\.cl:3:"
has wild "work-item: global \(5,0,0\) local \(5,0,0\) group \(0,0,0\)"
has wild "checked mode"
# In a warp that holds several work-groups, the work-item's own group.
run wild_groups env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0" \
  TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}handle_segv=0" "$lanewise" run wild.cl --kernel wild \
  --global 16 --local 4 --arg p=buffer:int:16 --arg long:1099511627776
[ "$(status wild_groups)" = 139 ] || fail "wild, groups of 4: exit status $(status wild_groups)"
has wild_groups "work-item: global \(5,0,0\) local \(1,0,0\) group \(1,0,0\)"
run wild_checked "$lanewise" run wild.cl --kernel wild --global 16 --arg p=buffer:int:16 \
  --arg long:1099511627776 --check=bounds
[ "$(status wild_checked)" = 3 ] || fail "wild under bounds: exit status $(status wild_checked)"

# A trace: JSON with a track per thread, a slice per work-group, the build
# and the kernel command.
cat >diverge.cl <<'CL'
kernel void diverge(global int *out) {
  int i = get_global_id(0);
  if (i % 3 == 0)
    out[i] = i;
}
CL
# Ten groups of 100 share one warp (runtime::groupsPerPackedWarp): one
# slice names them all; with LANEWISE_PACK=0, a slice per group.
for pack in 1 0; do
run traced env LANEWISE_PACK=$pack "$lanewise" run diverge.cl --kernel diverge --global 1000 \
  --local 100 --arg out=buffer:int:1000 --trace="$work/trace.json"
[ "$(status traced)" = 0 ] || fail "traced: exit status $(status traced): $(cat traced.err)"
$python - "$work/trace.json" $pack <<'PY' || fail "the trace is not as expected (LANEWISE_PACK=$pack)"
import json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in events if e["name"] == "thread_name"}
slices = [e for e in events if e["ph"] == "X"]
groups = sorted(e["name"] for e in slices if e["cat"] == "work-group")
expected = (["groups (0,0,0) to (9,0,0)"] if sys.argv[2] == "1"
            else sorted(f"group ({g},0,0)" for g in range(10)))
assert groups == expected, groups
assert all(names[e["tid"]].startswith(("worker", "command queue"))
           for e in slices if e["cat"] == "work-group"), names
kernel = [e for e in slices if e["name"] == "kernel diverge"]
assert len(kernel) == 1 and names[kernel[0]["tid"]].startswith("command queue"), kernel
assert any(e["name"] == "clBuildProgram" and names[e["tid"]].startswith("application")
           for e in slices), slices
for e in slices:
    if e["cat"] == "work-group":  # inside the kernel command
        assert kernel[0]["ts"] <= e["ts"] and e["ts"] + e["dur"] <= kernel[0]["ts"] + kernel[0]["dur"] + 1
PY
done

# Statistics: the block of the if runs with a third of the lanes, in one
# warp that holds the ten groups.
run stats "$lanewise" run diverge.cl --kernel diverge --global 1000 --local 100 \
  --arg out=buffer:int:1000 --stats
[ "$(status stats)" = 0 ] || fail "stats: exit status $(status stats)"
active=0
for ((i = 0; i < 1000; i++)); do ((i % 3 == 0)) && active=$((active + 1)); done
expected=$(awk -v a=$active 'BEGIN { printf "%.1f %%", 100 * a / 1000 }')
has stats "kernel 'diverge': 1 launch, 1000 work-items"
has stats "at diverge\.cl:4:[0-9]+: $expected \($active active of 1000 lanes, 1 run\)"
has stats "interpreter time: .*memory [0-9.]+ %"

[ $failures -eq 0 ] || exit 1
echo "debug check: lines without -g, folded reads, exit statuses, watchdog, crash, trace, stats"
