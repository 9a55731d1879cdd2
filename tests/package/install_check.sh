#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# cmake --install with a prefix other than /usr, into a throw-away root
# (DESTDIR): the ICD entry names the library under that prefix, and the
# tree works on its own, as the package's does (the command finds the
# library beside it, the library its helpers beside itself).
set -u
build=$1  # the build folder
libdir=$2 # the install layout's library folder, relative to the prefix
failures=0
fail() { echo "install check: $*"; failures=$((failures + 1)); }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

prefix=/opt/lanewise
root="$work/root"
DESTDIR="$root" cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; echo "install check: cmake --install failed"; exit 1; }

for file in bin/lanewise "$libdir/liblanewise.so" "$libdir/lanewise/lanewise-llvm-spirv" \
            "$libdir/lanewise/lanewise-compile-server" "$libdir/lanewise/liblanewise-jit.so" \
            share/man/man1/lanewise.1.gz \
            share/doc/lanewise/copyright share/doc/lanewise/changelog.gz; do
  [ -f "$root$prefix/$file" ] || fail "the install lacks $prefix/$file"
done
icd=$(cat "$root/etc/OpenCL/vendors/lanewise.icd")
[ "$icd" = "$prefix/$libdir/liblanewise.so" ] || fail "the ICD entry names '$icd'"

export LANEWISE_CACHE=0
unset LANEWISE_LIBRARY LANEWISE_BUILD_TRANSLATOR LANEWISE_CLANG LANEWISE_LLVM_SPIRV
info=$("$root$prefix/bin/lanewise" info 2>&1) || fail "lanewise info failed: $info"
grep -q "^Library  *$root$prefix/$libdir/liblanewise.so" <<<"$info" ||
  fail "lanewise info did not load the installed library: $(head -1 <<<"$info")"
printf 'kernel void twice(global int *p) { p[get_global_id(0)] *= 2; }\n' >"$work/twice.cl"
out=$("$root$prefix/bin/lanewise" run "$work/twice.cl" --kernel twice --global 4 \
      --arg p=buffer:int:4:range=3 --print p 2>&1)
[ "$out" = "p = {6, 8, 10, 12}" ] || fail "a source kernel ran to '$out'"
# The ICD loader finds the library through the entry, its path taken under
# the throw-away root.
mkdir "$work/vendors"
echo "$root$icd" >"$work/vendors/lanewise.icd"
out=$(OCL_ICD_VENDORS="$work/vendors" clinfo -l 2>&1)
grep -q "Platform #0: Lanewise" <<<"$out" || fail "clinfo -l printed '$out'"

[ $failures -eq 0 ] || exit 1
echo "install check: the tree installed under $prefix has its files and works"
