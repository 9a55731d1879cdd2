#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configures and builds Lanewise into ./build (or $LANEWISE_BUILD_DIR): every
# target, or the ones named as arguments.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${LANEWISE_BUILD_DIR:-$root/build}
bash "$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build "$build" --parallel "$(nproc)" "${targets[@]}"
