#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""PyOpenCL's library on Lanewise: the parts real programs lean on.

pyopencl.algorithm's scans, sorts, copy_if and unique (their kernels need
the driver's LLVM IR fix-ups), complex math (restrict pointers), the
random number generators (Random123's threefry and philox, which read
structs as vectors through unions), and a SPIR-V program in the form SPIR-V
1.0 translators wrote (argument 1: its path). Every result is compared
with numpy. Exits 0 when all checks pass, 1 on a mismatch or error, 77
(skipped) when pyopencl or numpy cannot be imported. The platform is the
one whose name contains $LANEWISE_TEST_PLATFORM (default "Lanewise"), so
that the same checks run on PoCL ("Portable").
"""

import sys

SKIP = 77

try:
    import numpy as np
    import pyopencl as cl
    import pyopencl.array as cla
    import pyopencl.algorithm as algorithm
    import pyopencl.clmath as clmath
    import pyopencl.clrandom as clrandom
    from pyopencl.scan import ExclusiveScanKernel, InclusiveScanKernel
except ImportError as error:  # pragma: no cover - depends on the machine
    print(f"SKIPPED: pyopencl or numpy is not importable ({error})")
    sys.exit(SKIP)

from checks import run_all, select_device


def check_algorithms(checks, queue, rng):
    values = rng.integers(-1000, 1000, 10007).astype(np.int32)
    device_values = cla.to_device(queue, values)

    inclusive = InclusiveScanKernel(queue.context, np.int32, "a+b", "0")
    result = device_values.copy()
    inclusive(result)
    checks.check("inclusive scan (sum)", np.array_equal(result.get(), np.cumsum(values)))

    exclusive = ExclusiveScanKernel(queue.context, np.int32, "max(a, b)", "-2147483647")
    result = device_values.copy()
    exclusive(result)
    want = np.concatenate(([-2147483647], np.maximum.accumulate(values)[:-1]))
    checks.check("exclusive scan (max)", np.array_equal(result.get(), want))

    selected, count, _ = algorithm.copy_if(device_values, "ary[i] > 250")
    count = int(count.get())
    checks.check("copy_if", np.array_equal(selected.get()[:count], values[values > 250]))

    ordered = np.sort(values)
    uniq, count, _ = algorithm.unique(cla.to_device(queue, ordered))
    count = int(count.get())
    checks.check("unique", np.array_equal(uniq.get()[:count], np.unique(ordered)))

    sorter = algorithm.RadixSort(queue.context, "int *ary", key_expr="ary[i]",
                                 sort_arg_names=["ary"], key_dtype=np.uint32)
    keys = rng.integers(0, 2**31, 5000).astype(np.int32)
    (sorted_keys,), _ = sorter(cla.to_device(queue, keys), key_bits=31)
    checks.check("radix sort", np.array_equal(sorted_keys.get(), np.sort(keys)))


def check_complex(checks, queue, rng):
    z = (rng.uniform(-2, 2, 4096) + 1j * rng.uniform(-2, 2, 4096)).astype(np.complex64)
    device_z = cla.to_device(queue, z)
    for name, function, reference in [("exp", clmath.exp, np.exp), ("sin", clmath.sin, np.sin),
                                      ("cosh", clmath.cosh, np.cosh)]:
        got = function(device_z).get()
        want = reference(z.astype(np.complex128))
        error = np.max(np.abs(got - want) / np.maximum(np.abs(want), 1))
        checks.check(f"complex64 {name}", error < 1e-5, f"relative error {error}")
    product = (device_z * device_z.conj()).get()
    checks.check("complex64 z * conj(z)",
                 np.allclose(product, (z * z.conj()), rtol=1e-6, atol=1e-6))


def check_random(checks, queue):
    for generator in (clrandom.ThreefryGenerator, clrandom.PhiloxGenerator):
        name = generator.__name__
        for dtype in (np.float32, np.int32, np.int64):
            first = generator(queue.context, seed=12).uniform(queue, 40000, dtype, a=0, b=100)
            again = generator(queue.context, seed=12).uniform(queue, 40000, dtype, a=0, b=100)
            values = first.get().astype(np.float64)
            checks.check(f"{name} {dtype.__name__}: in [0, 100)",
                         values.min() >= 0 and values.max() < 100,
                         f"range {values.min()}..{values.max()}")
            # A uniform distribution on [0, 100): mean 50, and every tenth
            # of the range about equally often.
            counts = np.histogram(values, bins=10, range=(0, 100))[0]
            checks.check(f"{name} {dtype.__name__}: uniform",
                         abs(values.mean() - 50) < 1 and counts.min() > 3500,
                         f"mean {values.mean()}, bins {counts}")
            checks.check(f"{name} {dtype.__name__}: the same seed gives the same numbers",
                         np.array_equal(first.get(), again.get()))


def check_spirv_file(checks, queue, path):
    with open(path, "rb") as file:
        program = cl.Program(queue.context, file.read()).build()
    n, local = 300, 20
    out = cla.zeros(queue, n, np.uint64)
    ids = cla.zeros(queue, n, np.uint64)
    program.builtin_forms(queue, (n,), (local,), out.data, ids.data)
    index = np.arange(n, dtype=np.uint64)
    checks.check("SPIR-V 1.0 module: global ids", np.array_equal(out.get(), index * 1000 + n))
    checks.check("SPIR-V 1.0 module: local ids", np.array_equal(ids.get(), index % local))


def run(checks):
    platform, device = select_device(cl)
    print(f"platform: {platform.name} / device: {device.name}")
    queue = cl.CommandQueue(cl.Context([device]))
    rng = np.random.default_rng(7)
    check_algorithms(checks, queue, rng)
    check_complex(checks, queue, rng)
    check_random(checks, queue)
    # PoCL 3.1 refuses this module (CL_INVALID_VALUE): it is checked on
    # Lanewise only.
    if len(sys.argv) > 1 and "Lanewise" in platform.name:
        check_spirv_file(checks, queue, sys.argv[1])


if __name__ == "__main__":
    sys.exit(run_all(run))
