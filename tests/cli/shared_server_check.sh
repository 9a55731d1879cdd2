#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The shared compile server (spirv/translator/shared_server.h): the first
# build starts it, later processes' builds use it, builds from several
# processes at once all succeed, relative include folders are the
# client's, a compiler crash fails one build and leaves the server up, a
# killed server is replaced, an idle one ends and removes its socket, and
# an unsafe folder or LANEWISE_COMPILE_SERVER=private keeps to private
# servers.
set -u
lanewise=$1
failures=0
fail() { echo "shared server check: $*"; failures=$((failures + 1)); }
work=$(mktemp -d)
export XDG_RUNTIME_DIR=$work/runtime LANEWISE_CACHE=0
mkdir -m 700 "$XDG_RUNTIME_DIR"
cleanup() {
  for lock in "$XDG_RUNTIME_DIR"/lanewise/*.lock; do
    [ -s "$lock" ] && kill "$(cat "$lock")" 2>/dev/null
  done
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
unset LANEWISE_COMPILE_SERVER LANEWISE_CLANG LANEWISE_LLVM_SPIRV LANEWISE_COMPILE_SERVER_IDLE

printf 'kernel void k(global int *out) { out[get_global_id(0)] = 1; }\n' >small.cl
compile() { "$lanewise" compile "$@" >/dev/null 2>"$work/last.err"; }
server_pid() { cat "$XDG_RUNTIME_DIR"/lanewise/compile-server-*.socket.lock 2>/dev/null; }
# Running: an ended server whose new parent has not reaped it yet is a zombie.
alive() {
  [ -n "$1" ] && kill -0 "$1" 2>/dev/null && ! grep -qE '^[0-9]+ \(.*\) Z' "/proc/$1/stat" 2>/dev/null
}

# The first build starts the server; the next process's build uses it.
compile small.cl -o a.spv || fail "the first build failed: $(cat last.err)"
sockets=("$XDG_RUNTIME_DIR"/lanewise/compile-server-*.socket)
[ -S "${sockets[0]}" ] || fail "no server socket in $XDG_RUNTIME_DIR/lanewise"
first=$(server_pid)
alive "$first" || fail "no server process (lock file: '$first')"
compile small.cl -o b.spv || fail "the second build failed: $(cat last.err)"
[ "$(server_pid)" = "$first" ] || fail "the second process started another server"
cmp -s a.spv b.spv || fail "two builds of one source differ"

# Several processes at once.
for i in 1 2 3 4 5 6; do
  printf 'kernel void k%d(global int *out) { out[get_global_id(0)] = %d; }\n' "$i" "$i" >"p$i.cl"
  "$lanewise" compile "p$i.cl" -o "p$i.spv" >"p$i.err" 2>&1 &
done
wait
for i in 1 2 3 4 5 6; do
  [ -s "p$i.spv" ] || fail "concurrent build $i failed: $(cat "p$i.err")"
done
[ "$(server_pid)" = "$first" ] || fail "concurrent builds started another server"

# A relative include folder is the client's working folder's.
mkdir -p project/include
printf '#define VALUE 7\n' >project/include/value.h
printf '#include "value.h"\nkernel void k(global int *out) { *out = VALUE; }\n' >project/uses.cl
(cd project && "$lanewise" compile uses.cl -o uses.spv -- -I include >/dev/null 2>../last.err) ||
  fail "a build with -I include (relative) failed: $(cat last.err)"

# A program that crashes the compiler fails its build; the server stays.
printf '#pragma clang __debug crash\nkernel void k(global int *out) { *out = 1; }\n' >crash.cl
compile crash.cl -o crash.spv && fail "a crashing program built"
grep -q "ended with signal" last.err || fail "the crash is not reported: $(cat last.err)"
[ "$(server_pid)" = "$first" ] && alive "$first" || fail "a compiler crash took the server down"
compile small.cl -o c.spv || fail "a build after the crash failed: $(cat last.err)"

# A killed server leaves its socket; the next build starts another.
kill -KILL "$first"
sleep 0.2
compile small.cl -o d.spv || fail "a build after the server was killed failed: $(cat last.err)"
second=$(server_pid)
[ "$second" != "$first" ] && alive "$second" || fail "no new server after a kill ('$second')"

# An idle server ends and removes its socket.
kill "$second"
sleep 0.2
LANEWISE_COMPILE_SERVER_IDLE=0.5 "$lanewise" compile small.cl -o e.spv >/dev/null 2>&1 ||
  fail "a build with a short idle time failed"
third=$(server_pid)
alive "$third" || fail "no server with a short idle time"
# It ends 0.5 s after its last client; a loaded machine (or a sanitizer's
# exit-time checks) may take some seconds more.
for _ in $(seq 50); do
  alive "$third" || break
  sleep 0.2
done
alive "$third" && fail "the idle server $third did not end within 10 s"
compgen -G "$XDG_RUNTIME_DIR/lanewise/*.socket" >/dev/null && fail "the idle server left its socket"

# Private servers: on request, and where the folder is not the user's alone.
rm -rf "$XDG_RUNTIME_DIR/lanewise"
LANEWISE_COMPILE_SERVER=private "$lanewise" compile small.cl -o f.spv >/dev/null 2>&1 ||
  fail "a build with private servers failed"
compgen -G "$XDG_RUNTIME_DIR/lanewise/*.socket" >/dev/null && fail "private servers made a socket"
mkdir -p "$XDG_RUNTIME_DIR/lanewise" && chmod 777 "$XDG_RUNTIME_DIR/lanewise"
compile small.cl -o g.spv || fail "a build beside an open folder failed: $(cat last.err)"
compgen -G "$XDG_RUNTIME_DIR/lanewise/*.socket" >/dev/null && fail "a socket was made in an open folder"

[ $failures -eq 0 ] || exit 1
echo "shared server check passed"
