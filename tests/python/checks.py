"""What the PyOpenCL scripts of this folder share: named checks and the
platform under test (the one whose name contains $LANEWISE_TEST_PLATFORM,
by default "Lanewise")."""

import os

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
