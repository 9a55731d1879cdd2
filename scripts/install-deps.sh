#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs Lanewise's build and test dependencies from Debian 12 packages;
# with the argument "fuzz", also what the fuzz targets need (scripts/fuzz.sh:
# clang-16 and its libFuzzer, since clang-14 has no _Float16 on x86-64).
# Idempotent: when everything is present it installs nothing and prints nothing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  opencl-headers ocl-icd-opencl-dev opencl-clhpp-headers clinfo
  libtbb-dev spirv-tools spirv-headers
  libgtest-dev libgmock-dev libbenchmark-dev libmpfr-dev
  clang-14 llvm-spirv-14 llvm-14-dev libclang-cpp14-dev libclang-14-dev libllvmspirvlib-14-dev
  pocl-opencl-icd python3-pyopencl python3-numpy
  lintian
)
if [ "${1:-}" = fuzz ]; then
  packages+=(clang-16 libclang-rt-16-dev)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}; run this script as root" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
