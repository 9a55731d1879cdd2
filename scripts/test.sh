#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds Lanewise and runs the whole test suite:
#   1. the release build's tests (ctest in build/; arguments go to this ctest);
#   2. the API, SPIR-V, command-line and PyOpenCL tests built with
#      AddressSanitizer and UndefinedBehaviorSanitizer (scripts/sanitize.sh,
#      in build-asan/);
#   3. each fuzz target for half a minute (LANEWISE_FUZZ_SECONDS;
#      scripts/fuzz.sh), so that they keep building and running.
# LANEWISE_TEST_STAGES picks stages (default "release sanitizers fuzz").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${LANEWISE_BUILD_DIR:-$root/build}
stages=${LANEWISE_TEST_STAGES:-release sanitizers fuzz}
for stage in $stages; do
  case "$stage" in
    release | sanitizers | fuzz) ;;
    *) echo "test.sh: unknown stage '$stage' in LANEWISE_TEST_STAGES" >&2; exit 2 ;;
  esac
done
stage() { [[ " $stages " == *" $1 "* ]]; }
# The shared compile servers the suite starts end a minute after it.
export LANEWISE_COMPILE_SERVER_IDLE=${LANEWISE_COMPILE_SERVER_IDLE:-60}

if stage release; then
  bash "$root/scripts/build.sh"
  (cd "$build" && ctest --output-on-failure --parallel "$(nproc)" "$@")
fi
if stage sanitizers; then
  # The library and every test that reaches it through the API, the API
  # layer's unit tests, the SPIR-V front end's tests, the command line and
  # PyOpenCL. Building every suite source under every option set
  # (BuildOptions) is clang's work more than the library's; the release
  # stage runs it. The kernel suite under the sanitizers
  # (scripts/sanitize.sh address,undefined, everything) takes four times as
  # long: docs/reliability.md has its figures.
  echo "== the API, SPIR-V, command-line and PyOpenCL tests under AddressSanitizer and UndefinedBehaviorSanitizer"
  # The build has the fuzz targets too (clang-16): the fuzz stage runs them.
  LANEWISE_SANITIZE_TARGETS="lanewise lanewise_jit lanewise_cli lanewise-hello lanewise-saxpy lanewise-subgroups lanewise_api_tests lanewise_icd_tests lanewise_spirv_tests lanewise_stress_tests lanewise_test_kernels spirv_module_fuzzer opencl_c_fuzzer run_description_fuzzer lanewise_fuzz_seeds" \
    bash "$root/scripts/sanitize.sh" address,undefined \
    -E '^(CheckedMode(\..*)?|Builds/CheckedMode|Sets/BuildOptions|package\..*)$'
fi
if stage fuzz; then
  seconds=${LANEWISE_FUZZ_SECONDS:-30}
  # In the sanitizer stage's build when it has them; else a build of their own.
  if grep -qs "^LANEWISE_FUZZ:BOOL=ON" "$root/build-asan/CMakeCache.txt"; then
    export LANEWISE_FUZZ_BUILD_DIR=${LANEWISE_FUZZ_BUILD_DIR:-$root/build-asan}
  fi
  for target in spirv_module opencl_c run_description; do
    echo "== fuzz target $target, $seconds s"
    bash "$root/scripts/fuzz.sh" "$target" "$seconds" -seed=1 >"${TMPDIR:-/tmp}/lanewise-fuzz-$target.log" 2>&1 || {
      tail -n 60 "${TMPDIR:-/tmp}/lanewise-fuzz-$target.log"
      echo "test.sh: fuzz target $target failed" >&2
      exit 1
    }
    grep -a -E "^stat::number_of_executed_units|^Done" "${TMPDIR:-/tmp}/lanewise-fuzz-$target.log" || true
  done
fi
