#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# In the ThreadSanitizer build: a kernel whose work-groups write one location
# races, and ThreadSanitizer reports it in the engine's store. The launch's
# happens-before edges through oneTBB (runtime/thread_sanitizer.h) and the
# suppressions must not order work-groups among themselves; this fails if
# they do. A run is retried when the work-groups happened to share a thread.
set -u
lanewise=$1
kernel=$2
for attempt in 1 2 3 4 5; do
  out=$(LANEWISE_THREADS=4 "$lanewise" run "$kernel" --kernel race --global 4096 --local 64 \
        --arg out=buffer:int:1 2>&1)
  status=$?
  if grep -q "ThreadSanitizer: data race" <<<"$out"; then
    grep -q "runtime/exec_memory.cpp" <<<"$out" ||
      { echo "thread race check: the race is not reported in the engine's store:"; echo "$out"; exit 1; }
    [ "$status" -ne 0 ] || { echo "thread race check: reported, but the exit status is 0"; exit 1; }
    echo "thread race check: reported on attempt $attempt"
    exit 0
  fi
done
echo "thread race check: no report in 5 runs; the last said:"
echo "$out"
exit 1
