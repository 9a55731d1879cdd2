#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs lanewise-bench from an existing build with both OpenCL drivers visible
# to the ICD loader: Lanewise from that build, and PoCL when it is installed.
# With --build-times first, runs lanewise-build-bench instead, with Oclgrind
# too when it is installed; with --images first, lanewise-image-bench. It
# builds nothing.
#
#   bash bench/run.sh [BUILD_DIR] [lanewise-bench options...]
#   bash bench/run.sh [BUILD_DIR] --build-times [lanewise-build-bench options...]
#   bash bench/run.sh [BUILD_DIR] --images [lanewise-image-bench options...]
#
# BUILD_DIR defaults to ../build relative to this script (the repository's
# build/). Options after it go to the program (--help lists them).
# Thread count: LANEWISE_THREADS caps Lanewise, POCL_MAX_PTHREAD_COUNT caps
# PoCL; when only one is set, this script sets the other to the same value.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${here}/../build"
if [[ $# -gt 0 && "$1" != -* ]]; then
  build="$1"
  shift
fi
build="$(cd "${build}" && pwd)"

program=lanewise-bench
if [[ "${1:-}" == --build-times ]]; then
  program=lanewise-build-bench
  shift
elif [[ "${1:-}" == --images ]]; then
  program=lanewise-image-bench
  shift
fi
bench="${build}/bench/${program}"
library="${build}/icd/liblanewise.so"
for file in "${bench}" "${library}"; do
  if [[ ! -e "${file}" ]]; then
    echo "run.sh: ${file} not found; build first:" >&2
    echo "  cmake --build ${build} --target lanewise ${program}" >&2
    exit 2
  fi
done

vendors="$(mktemp -d "${TMPDIR:-/tmp}/lanewise-bench-vendors.XXXXXX")"
trap 'rm -rf "${vendors}"' EXIT
echo "${library}" > "${vendors}/lanewise.icd"
if [[ -f /etc/OpenCL/vendors/pocl.icd ]]; then
  cp /etc/OpenCL/vendors/pocl.icd "${vendors}/pocl.icd"
else
  echo "run.sh: /etc/OpenCL/vendors/pocl.icd not found: timing Lanewise only" >&2
fi
# Debian's oclgrind package installs its ICD library without registering it.
if [[ "${program}" == lanewise-build-bench && -f /usr/lib/oclgrind/liboclgrind-rt-icd.so ]]; then
  echo /usr/lib/oclgrind/liboclgrind-rt-icd.so > "${vendors}/oclgrind.icd"
fi

if [[ -n "${LANEWISE_THREADS:-}" && -z "${POCL_MAX_PTHREAD_COUNT:-}" ]]; then
  export POCL_MAX_PTHREAD_COUNT="${LANEWISE_THREADS}"
elif [[ -z "${LANEWISE_THREADS:-}" && -n "${POCL_MAX_PTHREAD_COUNT:-}" ]]; then
  export LANEWISE_THREADS="${POCL_MAX_PTHREAD_COUNT}"
fi

OCL_ICD_VENDORS="${vendors}" "${bench}" "$@"
