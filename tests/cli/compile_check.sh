#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# lanewise compile: OpenCL C in, a SPIR-V module out that spirv-val accepts
# and that runs; build options from --build-options and after "--";
# standard input and output; a failed build writes nothing; and the
# OpenCL-CTS offline-compiler interface with its device info file.
set -u
lanewise=$1
kernels=$2 # tests/spirv/kernels
failures=0
fail() { echo "compile check: $*"; failures=$((failures + 1)); }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

cat >scale.cl <<'CL'
kernel void scale(global int *out, global const int *in) {
  size_t i = get_global_id(0);
  out[i] = in[i] * FACTOR + OFFSET;
}
CL

# expect_run MODULE EXPECTED: the module's kernel on in = {0, 1, 2, 3}.
expect_run() {
  local out
  out=$("$lanewise" run "$1" --kernel scale --global 4 --arg out=buffer:int:4 \
        --arg in=buffer:int:4:range=0 --print out 2>&1)
  [ "$out" = "out = {$2}" ] || fail "$1 ran to '$out', not 'out = {$2}'"
}

# FILE.cl -> FILE.spv by default; the operands after "--" are build options.
"$lanewise" compile scale.cl -- -DFACTOR=3 -DOFFSET=1 || fail "compile scale.cl exited with $?"
[ -f scale.spv ] || fail "no scale.spv written"
[ "$(od -An -tx4 -N4 scale.spv | tr -d ' ')" = 07230203 ] || fail "scale.spv is not SPIR-V"
spirv-val scale.spv || fail "spirv-val rejects scale.spv"
expect_run scale.spv "1, 4, 7, 10"

# -o and --build-options, and options after "--", together.
"$lanewise" compile -o both.spv --build-options "-DFACTOR=-2" scale.cl -- -DOFFSET=5 ||
  fail "compile with -o, --build-options and -- exited with $?"
expect_run both.spv "5, 3, 1, -1"

# Standard input to standard output gives the same module as the files do.
"$lanewise" compile - -o - -- -DFACTOR=3 -DOFFSET=1 <scale.cl >piped.spv ||
  fail "compile - -o - exited with $?"
cmp -s piped.spv scale.spv || fail "the module from standard input differs from scale.spv"

# What llvm-spirv-14 writes invalidly (a private array's variable after
# other instructions of the entry block at -O2) comes out valid.
"$lanewise" compile "$kernels/private_array.cl" -o private_array.spv ||
  fail "compile private_array.cl exited with $?"
spirv-val private_array.spv || fail "spirv-val rejects private_array.spv"

# A switch clang narrows to an i2 comes out without arbitrary-precision
# integers, which spirv-val rejects (the CTS's ifp_core kernel has one).
"$lanewise" compile "$kernels/narrow_switch.cl" -o narrow_switch.spv ||
  fail "compile narrow_switch.cl exited with $?"
spirv-val narrow_switch.spv || fail "spirv-val rejects narrow_switch.spv"

# A kernel of CL_DEVICE_MAX_PARAMETER_SIZE bytes of arguments, in longs and
# one pointer (as the CTS's min_max_parameter_size makes it), compiles to a
# module spirv-val accepts (at most 255 parameters) and runs.
size=$("$lanewise" info | sed -n 's/^ *Kernel parameters *\([0-9]*\) bytes.*/\1/p')
[ -n "$size" ] || fail "lanewise info names no kernel parameter size"
count=$(((${size:-1024} - 8) / 8))
{
  printf 'kernel void many(global long *out'
  for ((i = 0; i < count; ++i)); do printf ', long a%d' $i; done
  printf ') {\n  long sum = 0;\n'
  for ((i = 0; i < count; ++i)); do printf '  sum += a%d;\n' $i; done
  printf '  out[get_global_id(0)] = sum;\n}\n'
} >many.cl
"$lanewise" compile many.cl -o many.spv || fail "compile many.cl ($count longs) exited with $?"
spirv-val many.spv || fail "spirv-val rejects a kernel of $count longs and a pointer"
arguments=()
for ((i = 0; i < count; ++i)); do arguments+=(--arg "a$i=long:$i"); done
out=$("$lanewise" run many.spv --kernel many --global 2 --arg out=buffer:long:2 "${arguments[@]}" \
      --print out 2>&1)
sum=$((count * (count - 1) / 2))
[ "$out" = "out = {$sum, $sum}" ] || fail "a kernel of $count longs ran to '$out', not {$sum, $sum}"

# A program that does not build: status 1, the build log, no output file.
printf 'kernel void broken(global int *p) { p[0] = undeclared; }\n' >broken.cl
errors=$("$lanewise" compile broken.cl -o broken.spv 2>&1)
status=$?
[ $status -eq 1 ] || fail "compile broken.cl exited with $status, not 1"
grep -qF "compiling 'broken.cl' failed: CL_BUILD_PROGRAM_FAILURE" <<<"$errors" ||
  fail "compile broken.cl printed '$errors'"
grep -q "^broken.cl:1:[0-9]*: error: use of undeclared identifier 'undeclared'" <<<"$errors" ||
  fail "compile broken.cl did not print clang's diagnostic, naming the file: '$errors'"
[ ! -e broken.spv ] && [ ! -e broken.spv.tmp ] || fail "a failed build left an output file"
# Warnings reach standard error and the module is still written.
printf '#warning "mind the gap"\nkernel void warns(global int *p) { p[0] = 2; }\n' >warns.cl
errors=$("$lanewise" compile warns.cl 2>&1) || fail "compile warns.cl exited with $?"
grep -qF 'warning: "mind the gap"' <<<"$errors" || fail "compile warns.cl printed '$errors'"
[ -s warns.spv ] || fail "compile warns.cl wrote no module"

# #include "x.h" finds x.h beside the source file, from any folder.
mkdir -p sub
printf '#define FACTOR 4\n#define OFFSET 0\n' >sub/factor.h
{ printf '#include "factor.h"\n'; cat scale.cl; } >sub/scale.cl
(cd / && "$lanewise" compile "$work/sub/scale.cl" -o "$work/included.spv") ||
  fail "a source with an include beside it did not compile"
expect_run included.spv "0, 4, 8, 12"

# Usage errors: status 2.
expect_usage() {
  local expected=$1
  shift
  local errors
  errors=$("$lanewise" compile "$@" 2>&1 >/dev/null)
  local status=$?
  [ $status -eq 2 ] || fail "'compile $*' exited with $status, not 2"
  grep -qF -- "$expected" <<<"$errors" || fail "'compile $*' printed '$errors', not '$expected'"
}
expect_usage "no source file" -o x.spv
expect_usage "no output file for standard input" -
expect_usage "cannot read the source file 'missing.cl'" missing.cl
expect_usage "unknown mode 'llvm'" --mode=llvm scale.cl

# The CTS's interface (cl_offline_compiler-interface.txt), as test_common's
# harness calls it through system().
name=$("$lanewise" info | sed -n 's/^Device  *//p')
cat >device.txt <<INFO
# OpenCL device info affecting SPIR-V offline compilation:
CL_DEVICE_ADDRESS_BITS=64
CL_DEVICE_EXTENSIONS="cl_khr_fp64"
CL_DEVICE_IL_VERSION="SPIR-V_1.0 SPIR-V_1.4"
CL_DEVICE_VERSION="OpenCL 3.0 Lanewise"
CL_DEVICE_IMAGE_SUPPORT=1
CL_DEVICE_NAME="$name"
INFO
sh -c "\"$lanewise\" compile --mode=spir-v --source=scale.cl --output=cts.spv64 \
  --cl-device-info=device.txt -- -DFACTOR=10 -DOFFSET=-3" 2>cts.err ||
  fail "the CTS interface exited with $?: $(cat cts.err)"
[ -s cts.err ] && fail "the CTS interface warned for Lanewise's own device: $(cat cts.err)"
expect_run cts.spv64 "-3, 7, 17, 27"
"$lanewise" compile --mode=binary --source=scale.cl --output=cts.bin --cl-device-info=device.txt \
  -- -DFACTOR=10 -DOFFSET=-3 || fail "--mode=binary exited with $?"
cmp -s cts.bin cts.spv64 || fail "--mode=binary wrote another module than --mode=spir-v"

sed 's/CL_DEVICE_ADDRESS_BITS=64/CL_DEVICE_ADDRESS_BITS=32/' device.txt >device32.txt
errors=$("$lanewise" compile --source=scale.cl --output=x.spv --cl-device-info=device32.txt 2>&1)
[ $? -eq 1 ] || fail "a 32-bit device info file did not fail"
grep -qF "asks for 32-bit addresses; the Lanewise device has 64-bit addresses" <<<"$errors" ||
  fail "a 32-bit device info file printed '$errors'"

sed 's/^CL_DEVICE_NAME=.*/CL_DEVICE_NAME="Another GPU"/' device.txt >other.txt
errors=$("$lanewise" compile --source=scale.cl --output=other.spv --cl-device-info=other.txt \
         -- -DFACTOR=1 -DOFFSET=0 2>&1) || fail "another device's name failed the compilation"
grep -qF "describes 'Another GPU'" <<<"$errors" || fail "no warning for another device: '$errors'"

[ $failures -eq 0 ] || exit 1
echo "compile check: modules valid and running, options, errors and the CTS interface as expected"
