#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job: builds Lanewise and runs the sample host program through the
# OpenCL ICD loader, with Lanewise as the only platform.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${LANEWISE_BUILD_DIR:-$root/build}
bash "$root/scripts/build.sh" lanewise lanewise-hello lanewise-saxpy lanewise-subgroups
export OCL_ICD_VENDORS="$build/icd/liblanewise.so"
"$build/samples/lanewise-hello"
echo
"$build/samples/lanewise-saxpy"
echo
"$build/samples/lanewise-subgroups"
