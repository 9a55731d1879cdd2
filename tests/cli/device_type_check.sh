#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# An application that filters devices by type (tests/cli/apps/gpu_only.py)
# finds no device on Lanewise as it is, and runs right with
# LANEWISE_DEVICE_TYPE (or lanewise exec --device-type); clinfo and
# lanewise info show the type; an unknown type is named, not taken.
set -u
# Sanitizer builds name the runtimes to preload into the uninstrumented
# programs that load Lanewise (cmake/Sanitizers.cmake).
uninstrumented="env ${LANEWISE_SANITIZER_PRELOAD:+LD_PRELOAD=$LANEWISE_SANITIZER_PRELOAD}"
lanewise=$1
library=$2
apps=$(cd "$(dirname "$0")/apps" && pwd)
python="$uninstrumented /usr/bin/python3"
failures=0
fail() { echo "device type check: $*"; failures=$((failures + 1)); }
unset LANEWISE_DEVICE_TYPE
export LANEWISE_CACHE=0

# As a CPU, the application finds nothing to run on.
out=$("$lanewise" exec $python "$apps/gpu_only.py" 2>&1)
status=$?
[ $status -eq 1 ] || fail "on the CPU device the application exited with $status, not 1: $out"
grep -q "no OpenCL device of type GPU" <<<"$out" || fail "on the CPU device: $out"

# As a GPU, it runs, and its answer is right.
out=$("$lanewise" exec --device-type=gpu $python "$apps/gpu_only.py" 2>&1)
status=$?
[ $status -eq 0 ] || fail "--device-type=gpu: the application exited with $status: $out"
grep -q "blurred 67x45 on Lanewise (GPU)" <<<"$out" || fail "--device-type=gpu: $out"

# The variable alone, in any case, and the accelerator type.
out=$(OCL_ICD_VENDORS="$library" LANEWISE_DEVICE_TYPE=Accelerator $python "$apps/gpu_only.py" accelerator 2>&1)
status=$?
[ $status -eq 0 ] || fail "LANEWISE_DEVICE_TYPE=Accelerator: the application exited with $status: $out"
grep -q "blurred 67x45 on Lanewise (ACCELERATOR)" <<<"$out" || fail "LANEWISE_DEVICE_TYPE=Accelerator: $out"
out=$(OCL_ICD_VENDORS="$library" LANEWISE_DEVICE_TYPE=accelerator $python "$apps/gpu_only.py" gpu 2>&1)
[ $? -eq 1 ] || fail "an accelerator was taken for a GPU: $out"

# clinfo and lanewise info show the type.
out=$("$lanewise" exec --device-type=gpu $uninstrumented clinfo 2>&1)
grep -q "Device Type *GPU" <<<"$out" || fail "clinfo does not show a GPU: $out"
out=$(LANEWISE_DEVICE_TYPE=gpu "$lanewise" info 2>&1)
grep -qE "^  Type +GPU$" <<<"$out" || fail "lanewise info does not show a GPU: $out"
out=$("$lanewise" info 2>&1)
grep -qE "^  Type +CPU$" <<<"$out" || fail "lanewise info does not show a CPU: $out"

# An unknown type: the library names it on stderr and stays a CPU; the
# command line refuses it.
out=$(LANEWISE_DEVICE_TYPE=fpga "$lanewise" exec $uninstrumented clinfo 2>&1)
grep -qF "LANEWISE_DEVICE_TYPE: unknown device type 'fpga' (known: cpu, gpu, accelerator, default)" \
  <<<"$out" || fail "an unknown type in the environment is not named: $out"
grep -q "Device Type *CPU" <<<"$out" || fail "with an unknown type the device is not a CPU: $out"
out=$("$lanewise" exec --device-type=fpga true 2>&1)
status=$?
[ $status -eq 2 ] || fail "--device-type=fpga exited with $status, not 2"
grep -qF "takes cpu, gpu, accelerator or default, not 'fpga'" <<<"$out" ||
  fail "--device-type=fpga: $out"

[ $failures -eq 0 ] || exit 1
echo "device type check passed"
