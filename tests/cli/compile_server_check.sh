#!/usr/bin/env bash
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

echo "compile server check: $count builds compared, $failures failures"
[ "$failures" -eq 0 ]
