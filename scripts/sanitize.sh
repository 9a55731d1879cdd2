#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds Lanewise with sanitizers (cmake/Sanitizers.cmake) and runs the test
# suite under them:
#
#   scripts/sanitize.sh address,undefined [CTEST-ARGS...]   into build-asan/
#   scripts/sanitize.sh thread [CTEST-ARGS...]              into build-tsan/
#
# AddressSanitizer and UndefinedBehaviorSanitizer build with clang-16, and
# that build also has the fuzz targets (tests/fuzz/, libFuzzer is clang's):
# scripts/fuzz.sh runs them from it when it is there
# (LANEWISE_FUZZ_BUILD_DIR=build-asan). ThreadSanitizer builds with GCC.
#
# Every test that runs a program this project does not build (python3, clinfo,
# the shell) gets the sanitizer's runtime preloaded. A report fails its test.
# LANEWISE_SANITIZE_TARGETS names the targets to build when not all are
# wanted; pass ctest a matching selection then.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sanitizers=${1:-}
case "$sanitizers" in
  address,undefined | undefined,address) folder=build-asan ;;
  thread) folder=build-tsan ;;
  *)
    echo "usage: scripts/sanitize.sh address,undefined|thread [ctest arguments...]" >&2
    exit 2
    ;;
esac
shift
build=${LANEWISE_SANITIZE_BUILD_DIR:-$root/$folder}
compiler=()
if [ "$folder" = build-asan ]; then
  bash "$root/scripts/install-deps.sh" fuzz
  compiler=(-DCMAKE_C_COMPILER=clang-16 -DCMAKE_CXX_COMPILER=clang++-16 -DLANEWISE_FUZZ=ON)
else
  bash "$root/scripts/install-deps.sh"
fi
# -O1 with line tables: half the compile time of -O2 -g, and reports still
# name source lines.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${compiler[@]}" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DLANEWISE_SANITIZE="$sanitizers" >/dev/null
# LANEWISE_SANITIZE_TARGETS: build only these targets (default: all).
targets=()
for target in ${LANEWISE_SANITIZE_TARGETS:-}; do targets+=(--target "$target"); done
cmake --build "$build" --parallel "$(nproc)" "${targets[@]}"
cd "$build"
ctest --output-on-failure --parallel "$(nproc)" "$@"
