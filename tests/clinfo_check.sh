#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# clinfo, loading only the given Lanewise library, must list the platform and
# its CPU device and print no error for any query.
set -u
# Sanitizer builds name the runtimes to preload into the uninstrumented
# programs that load Lanewise (cmake/Sanitizers.cmake).
uninstrumented="env ${LANEWISE_SANITIZER_PRELOAD:+LD_PRELOAD=$LANEWISE_SANITIZER_PRELOAD}"
lib=$1
out=$(OCL_ICD_VENDORS="$lib" $uninstrumented clinfo 2>&1)
status=$?
fail() { echo "clinfo check: $*"; echo "$out"; exit 1; }
[ $status -eq 0 ] || fail "clinfo exited with $status"
grep -q "Platform Name *Lanewise" <<<"$out" || fail "platform 'Lanewise' not listed"
grep -q "Device Type *CPU" <<<"$out" || fail "no CPU device"
bad=$(grep -nE "CL_INVALID|CL_OUT_OF|error[ :-]" <<<"$out")
[ -z "$bad" ] || fail "error lines: $bad"
echo "clinfo lists Lanewise with no error lines"

# Beside another platform: a vendors folder naming both Lanewise and PoCL.
if [ -f /etc/OpenCL/vendors/pocl.icd ]; then
  vendors=$(mktemp -d)
  trap 'rm -rf "$vendors"' EXIT
  echo "$lib" > "$vendors/lanewise.icd"
  cp /etc/OpenCL/vendors/pocl.icd "$vendors/"
  both=$(OCL_ICD_VENDORS="$vendors" $uninstrumented clinfo -l 2>&1)
  grep -q "Lanewise" <<<"$both" || { echo "clinfo check: Lanewise missing beside PoCL"; echo "$both"; exit 1; }
  grep -q "Portable Computing Language" <<<"$both" ||
    { echo "clinfo check: PoCL missing beside Lanewise"; echo "$both"; exit 1; }
  echo "clinfo lists Lanewise beside PoCL"
fi
