#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs one libFuzzer target (tests/fuzz/) for a number of seconds:
#
#   scripts/fuzz.sh spirv_module|opencl_c|run_description SECONDS [libFuzzer options...]
#
# Builds the targets with clang-16, AddressSanitizer and UndefinedBehaviorSanitizer
# into build-fuzz/, seeds the corpus build-fuzz/corpus/TARGET from the test
# kernels and run descriptions, and keeps what the run finds there (crashes:
# build-fuzz/artifacts/). Exits non-zero when the target crashed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
target=${1:-}
seconds=${2:-}
case "$target" in
  spirv_module | opencl_c | run_description) ;;
  *)
    echo "usage: scripts/fuzz.sh spirv_module|opencl_c|run_description SECONDS [libFuzzer options...]" >&2
    exit 2
    ;;
esac
if ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
  echo "fuzz.sh: SECONDS must be a whole number, not '$seconds'" >&2
  exit 2
fi
shift 2
build=${LANEWISE_FUZZ_BUILD_DIR:-$root/build-fuzz}
bash "$root/scripts/install-deps.sh" fuzz
# A build folder configured with the fuzz targets (scripts/sanitize.sh's
# build-asan/) is used as it is; any other is configured for them alone.
if ! grep -qs "^LANEWISE_FUZZ:BOOL=ON" "$build/CMakeCache.txt"; then
  # -O1 with line tables, as scripts/sanitize.sh: half the compile time of
  # -O2 -g, and reports still name source lines.
  CC=clang-16 CXX=clang++-16 cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
    -DLANEWISE_SANITIZE=address,undefined \
    -DLANEWISE_FUZZ=ON -DLANEWISE_BUILD_TESTS=OFF >/dev/null
fi
cmake --build "$build" --parallel "$(nproc)" --target "${target}_fuzzer" lanewise_fuzz_seeds

corpus=$build/corpus/$target
seeds=$build/seeds/$target
mkdir -p "$corpus" "$seeds" "$build/artifacts"
case "$target" in
  spirv_module)
    cp "$build"/tests/fuzz/kernels/*.spv "$seeds"/ ;;
  opencl_c)
    for source in "$root"/tests/kernels/cl/*.cl "$root"/tests/spirv/kernels/*.cl \
                  "$root"/tests/cli/cases/*.cl; do
      { echo "-cl-std=CL3.0"; cat "$source"; } >"$seeds/$(basename "$source")"
    done ;;
  run_description)
    cp "$root"/tests/cli/cases/*.run "$seeds"/ ;;
esac

# An input of opencl_c runs clang up to four times (the tables, then the
# header; then again for the damaged cache entry): seconds each for a large
# broken source on a loaded machine. A hang is still one.
timeout=30
[ "$target" = opencl_c ] && timeout=300

export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cd "$build"
dictionary=()
[ -f "$root/tests/fuzz/$target.dict" ] && dictionary=(-dict="$root/tests/fuzz/$target.dict")
exec "$build/tests/fuzz/${target}_fuzzer" -max_total_time="$seconds" -print_final_stats=1 \
  "${dictionary[@]}" \
  -rss_limit_mb=4096 -timeout="$timeout" -artifact_prefix="$build/artifacts/${target}-" "$@" \
  "$corpus" "$seeds"
