#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The compile server (lanewise-compile-server, clang's libraries in a
# process kept between builds) builds the same SPIR-V as clang-14 and the
# translator run as two programs per build (LANEWISE_COMPILE_SERVER=0), for
# every OpenCL C test kernel, optimised and with the checked mode's -O0
# debug build; a source that fails fails both ways with the same log.
set -u
lanewise=$1
shift # then the folders of .cl files
failures=0
fail() { echo "compile server check: $*"; failures=$((failures + 1)); }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LANEWISE_CACHE=0
unset LANEWISE_CLANG LANEWISE_LLVM_SPIRV

# compile WAY FILE NAME OPTIONS...: the module and the log of one way.
compile() {
  local way=$1 file=$2 name=$3
  shift 3
  local server=1
  [ "$way" = programs ] && server=0
  LANEWISE_COMPILE_SERVER=$server "$lanewise" compile "$file" -o "$work/$name.$way.spv" -- "$@" \
    >"$work/$name.$way.log" 2>&1
  echo $? >"$work/$name.$way.status"
}

count=0
for folder in "$@"; do
  for file in "$folder"/*.cl; do
    base=$(basename "$file" .cl)
    for variant in O2 checked; do
      options=(-cl-std=CL3.0)
      [ "$variant" = checked ] && options+=(-lanewise-check)
      name=$base.$variant
      compile server "$file" "$name" "${options[@]}"
      compile programs "$file" "$name" "${options[@]}"
      count=$((count + 1))
      if ! cmp -s "$work/$name.server.status" "$work/$name.programs.status"; then
        fail "$name: exit status $(cat "$work/$name.server.status") through the server," \
             "$(cat "$work/$name.programs.status") through the programs"
        cat "$work/$name.server.log" "$work/$name.programs.log"
      elif [ "$(cat "$work/$name.server.status")" = 0 ]; then
        cmp -s "$work/$name.server.spv" "$work/$name.programs.spv" ||
          fail "$name: the server's SPIR-V differs from the programs'"
      else
        cmp -s "$work/$name.server.log" "$work/$name.programs.log" ||
          fail "$name: the build logs differ"
      fi
    done
  done
done
[ "$count" -gt 40 ] || fail "only $count builds compared: the kernel folders are missing"

# A build of a broken source gives clang's diagnostics, naming program.cl's
# line, through the server as through the programs.
printf 'kernel void k(global int *p) {\n  p[0] = no_such_thing;\n}\n' >"$work/broken.cl"
compile server "$work/broken.cl" broken
grep -q "2:10: error: use of undeclared identifier 'no_such_thing'" "$work/broken.server.log" ||
  fail "the broken source's log lacks clang's error: $(cat "$work/broken.server.log")"
[ "$(cat "$work/broken.server.status")" != 0 ] || fail "the broken source compiled"

# Programs that see the difference between built-ins declared at each
# lookup, as clang does, and declared up front, as the server does where
# that means the same: these must build as clang builds them. A file-scope
# typedef or enumerator named like a built-in compiles (it would clash with
# declarations made up front); after a program's own overload of `clz`,
# clang's lookups find only that overload (clz(5) calls clz(float)); after
# an #undef of the fp64 macros, clang's lookups of sqrt find no double
# overload (sqrt(x) of a double converts it to float).
printf 'typedef float rotate;\nkernel void k(global float *p) { rotate x = p[1]; p[0] = x + max(p[2], p[3]); }\n' \
  >"$work/typedef_named_like_builtin.cl"
printf 'enum { popcount = 3 };\nkernel void k(global int *p) { p[0] = popcount + clz(p[1]); }\n' \
  >"$work/enumerator_named_like_builtin.cl"
printf '__attribute__((overloadable)) int clz(float x) { return 7; }\nkernel void k(global int *p) { p[0] = clz(5) + rotate(p[1], 3); }\n' \
  >"$work/overload_named_like_builtin.cl"
printf 'kernel void a(global float *p, double x) { p[1] = sqrt(x); }\n#undef cl_khr_fp64\n#undef __opencl_c_fp64\nkernel void b(global float *p, double x) { p[0] = sqrt(x); }\n' \
  >"$work/extension_macro_undefined.cl"
for name in typedef_named_like_builtin enumerator_named_like_builtin overload_named_like_builtin \
  extension_macro_undefined; do
  compile server "$work/$name.cl" "$name" -cl-std=CL3.0
  compile programs "$work/$name.cl" "$name" -cl-std=CL3.0
  if [ "$(cat "$work/$name.server.status")" != 0 ] || [ "$(cat "$work/$name.programs.status")" != 0 ]; then
    fail "$name: does not build both ways: $(cat "$work/$name.server.log" "$work/$name.programs.log")"
  else
    cmp -s "$work/$name.server.spv" "$work/$name.programs.spv" ||
      fail "$name: the server's SPIR-V differs from the programs'"
  fi
done

echo "compile server check: $count builds compared, $failures failures"
[ "$failures" -eq 0 ]
