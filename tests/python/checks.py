# SPDX-License-Identifier: Apache-2.0
"""What the PyOpenCL scripts of this folder share: named checks and the
platform under test (the one whose name contains $LANEWISE_TEST_PLATFORM,
by default "Lanewise")."""

import os
import traceback

WANTED = os.environ.get("LANEWISE_TEST_PLATFORM", "Lanewise")


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = []

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok    {name}")
        else:
            self.failed.append(name)
            print(f"FAIL  {name} {detail}")


def select_device(cl):
    """The platform and its first device; SystemExit when there is none."""
    try:
        platforms = cl.get_platforms()
    except cl.Error as error:
        raise SystemExit(f"FAILED: no OpenCL platform at all ({error})")
    matching = [p for p in platforms if WANTED in p.name]
    if not matching:
        names = ", ".join(p.name for p in platforms)
        raise SystemExit(f"FAILED: no platform named '{WANTED}' (found: {names})")
    devices = matching[0].get_devices()
    if not devices:
        raise SystemExit(f"FAILED: platform '{matching[0].name}' has no device")
    return matching[0], devices[0]


def run_all(body):
    """Runs body(checks), an OpenCL error or build failure counting as one
    failed check; prints the summary and returns the exit status (0 or 1)."""
    checks = Checks()
    try:
        body(checks)
    except SystemExit:
        raise
    except Exception:  # an OpenCL error or a build failure: report and fail
        traceback.print_exc()
        checks.failed.append("exception")
    if checks.failed:
        print(f"FAILED: pyopencl on {WANTED}: {len(checks.failed)} failed "
              f"({', '.join(checks.failed)}), {checks.passed} passed")
        return 1
    print(f"PASSED: pyopencl on {WANTED}: all {checks.passed} checks passed")
    return 0
