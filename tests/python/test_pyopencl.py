#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""PyOpenCL on Lanewise: kernels built from OpenCL C source, checked against numpy.

Selects the platform whose name contains $LANEWISE_TEST_PLATFORM (default
"Lanewise"), builds and runs an elementwise kernel, a work-group reduction
with __local memory and barriers, and pyopencl.array expressions, and
compares every result with numpy. It also reloads a program from its
binaries, as PyOpenCL's own compiler cache does. Exits 0 when all checks pass, 1 on a
mismatch or error, 77 (skipped) when pyopencl or numpy cannot be imported.
Run with Debian's interpreter (/usr/bin/python3) and python3-pyopencl.
"""

import sys
import tempfile
import warnings

SKIP = 77

try:
    import numpy as np
    import pyopencl as cl
    import pyopencl.array as cla
except ImportError as error:  # pragma: no cover - depends on the machine
    print(f"SKIPPED: pyopencl or numpy is not importable ({error})")
    sys.exit(SKIP)

from checks import run_all, select_device


ELEMENTWISE = r"""
kernel void saxpy(float a, global const float *x, global const float *y,
                  global float *out) {
    size_t i = get_global_id(0);
    out[i] = a * x[i] + y[i];
}

kernel void mix_int(global const int *x, global const int *y, global int *out) {
    size_t i = get_global_id(0);
    int v = x[i];
    out[i] = (v > 0 ? v * 3 : -v) + (y[i] ^ 0x55) - (int)i;
}
"""

REDUCTION = r"""
// Each work-group sums its part of `in` in local memory, a tree of halvings
// with a barrier between steps; work-item 0 writes the group's sum.
kernel void group_sum(global const int *in, global int *partial,
                      local int *scratch) {
    size_t lid = get_local_id(0);
    size_t size = get_local_size(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t stride = size / 2; stride > 0; stride /= 2) {
        if (lid < stride)
            scratch[lid] += scratch[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}

// The same with a float sum and a fixed-size __local array.
#define GROUP 64
kernel void group_max_and_sum(global const float *in, global float *maxima,
                              global float *sums) {
    local float best[GROUP];
    local float total[GROUP];
    size_t lid = get_local_id(0);
    best[lid] = in[get_global_id(0)];
    total[lid] = best[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t stride = GROUP / 2; stride > 0; stride >>= 1) {
        if (lid < stride) {
            best[lid] = fmax(best[lid], best[lid + stride]);
            total[lid] += total[lid + stride];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        maxima[get_group_id(0)] = best[0];
        sums[get_group_id(0)] = total[0];
    }
}
"""


def tree_sum_float32(values):
    """The kernel's summation order in float32: halving strides."""
    values = values.astype(np.float32).copy()
    stride = values.size // 2
    while stride > 0:
        values[:stride] = values[:stride] + values[stride:2 * stride]
        stride //= 2
    return values[0]


def run(checks):
    platform, device = select_device(cl)
    print(f"platform: {platform.name} / device: {device.name}")
    context = cl.Context([device])
    queue = cl.CommandQueue(context)
    rng = np.random.default_rng(20240611)
    mf = cl.mem_flags

    # Elementwise kernels.
    program = cl.Program(context, ELEMENTWISE).build()
    n = 1000
    x = rng.uniform(-10, 10, n).astype(np.float32)
    y = rng.uniform(-10, 10, n).astype(np.float32)
    a = np.float32(2.5)
    x_buf = cl.Buffer(context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    y_buf = cl.Buffer(context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=y)
    out_buf = cl.Buffer(context, mf.WRITE_ONLY, x.nbytes)
    program.saxpy(queue, (n,), None, a, x_buf, y_buf, out_buf)
    out = np.empty_like(x)
    cl.enqueue_copy(queue, out, out_buf)
    expected = a * x + y
    checks.check("saxpy matches numpy", np.allclose(out, expected, rtol=1e-6, atol=1e-6),
                 f"max error {np.max(np.abs(out - expected))}")

    xi = rng.integers(-1000, 1000, n, dtype=np.int32)
    yi = rng.integers(-1000, 1000, n, dtype=np.int32)
    xi_buf = cl.Buffer(context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=xi)
    yi_buf = cl.Buffer(context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=yi)
    oi_buf = cl.Buffer(context, mf.WRITE_ONLY, xi.nbytes)
    program.mix_int(queue, (n,), None, xi_buf, yi_buf, oi_buf)
    oi = np.empty_like(xi)
    cl.enqueue_copy(queue, oi, oi_buf)
    expected_i = (np.where(xi > 0, xi * 3, -xi) + (yi ^ 0x55) - np.arange(n)).astype(np.int32)
    checks.check("integer kernel matches numpy", np.array_equal(oi, expected_i),
                 f"{np.count_nonzero(oi != expected_i)} differences")

    # Program binaries: PyOpenCL's compiler cache stores CL_PROGRAM_BINARIES
    # and later creates the program with clCreateProgramWithBinary.
    sizes = program.get_info(cl.program_info.BINARY_SIZES)
    checks.check("built program has a binary (CL_PROGRAM_BINARY_SIZES > 0)",
                 len(sizes) == 1 and sizes[0] > 0, f"sizes {sizes}")
    try:
        reloaded = cl.Program(context, [device], program.binaries).build()
        reloaded.saxpy(queue, (n,), None, a, x_buf, y_buf, out_buf)
        cl.enqueue_copy(queue, out, out_buf)
        checks.check("program from its binaries runs the same",
                     np.allclose(out, expected, rtol=1e-6, atol=1e-6))
    except cl.Error as error:
        checks.check("program from its binaries runs the same", False, f"({error})")
    with tempfile.TemporaryDirectory() as cache_dir, \
            warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cl.Program(context, ELEMENTWISE).build(cache_dir=cache_dir)
        cached = cl.Program(context, ELEMENTWISE).build(cache_dir=cache_dir)
        out_buf2 = cl.Buffer(context, mf.WRITE_ONLY, x.nbytes)
        cached.saxpy(queue, (n,), None, a, x_buf, y_buf, out_buf2)
        cl.enqueue_copy(queue, out, out_buf2)
        failures = [str(w.message).splitlines()[-2:] for w in caught
                    if "caching failed" in str(w.message)]
        checks.check("PyOpenCL's compiler cache reloads the program",
                     not failures and np.allclose(out, expected, rtol=1e-6, atol=1e-6),
                     f"{len(failures)} cache failures, e.g. {failures[:1]}")

    # Reductions with __local memory and barriers.
    reduction = cl.Program(context, REDUCTION).build()
    group, groups = 64, 37
    data = rng.integers(-1000, 1000, group * groups, dtype=np.int32)
    data_buf = cl.Buffer(context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=data)
    partial_buf = cl.Buffer(context, mf.WRITE_ONLY, groups * 4)
    reduction.group_sum(queue, (group * groups,), (group,), data_buf, partial_buf,
                        cl.LocalMemory(group * 4))
    partial = np.empty(groups, dtype=np.int32)
    cl.enqueue_copy(queue, partial, partial_buf)
    expected_partial = data.reshape(groups, group).sum(axis=1).astype(np.int32)
    checks.check("group_sum partial sums match numpy", np.array_equal(partial, expected_partial),
                 f"got {partial[:4]}..., expected {expected_partial[:4]}...")
    checks.check("group_sum total matches numpy", int(partial.sum()) == int(data.sum()))

    values = rng.uniform(-100, 100, group * groups).astype(np.float32)
    values_buf = cl.Buffer(context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=values)
    maxima_buf = cl.Buffer(context, mf.WRITE_ONLY, groups * 4)
    sums_buf = cl.Buffer(context, mf.WRITE_ONLY, groups * 4)
    reduction.group_max_and_sum(queue, (group * groups,), (group,), values_buf, maxima_buf,
                                sums_buf)
    maxima = np.empty(groups, dtype=np.float32)
    sums = np.empty(groups, dtype=np.float32)
    cl.enqueue_copy(queue, maxima, maxima_buf)
    cl.enqueue_copy(queue, sums, sums_buf)
    blocks = values.reshape(groups, group)
    checks.check("group maxima match numpy", np.array_equal(maxima, blocks.max(axis=1)))
    expected_sums = np.array([tree_sum_float32(block) for block in blocks], dtype=np.float32)
    checks.check("group float sums match the same summation order",
                 np.array_equal(sums, expected_sums),
                 f"max error {np.max(np.abs(sums - expected_sums))}")

    # pyopencl.array expressions (PyOpenCL generates and builds the kernels).
    size = 4096
    a_host = rng.uniform(-50, 50, size).astype(np.float32)
    b_host = rng.uniform(-50, 50, size).astype(np.float32)
    a_dev = cla.to_device(queue, a_host)
    b_dev = cla.to_device(queue, b_host)
    result = (a_dev * 2 + b_dev).get()
    checks.check("array a * 2 + b matches numpy",
                 np.array_equal(result, a_host * np.float32(2) + b_host),
                 f"max error {np.max(np.abs(result - (a_host * 2 + b_host)))}")
    ints = cla.to_device(queue, np.arange(size, dtype=np.int32))
    combined = (ints * 3 - 7).get()
    checks.check("int array expression matches numpy",
                 np.array_equal(combined, np.arange(size, dtype=np.int32) * 3 - 7))
    total = cla.sum(cla.to_device(queue, data)).get()
    checks.check("pyopencl.array.sum matches numpy", int(total) == int(data.sum()),
                 f"got {total}, expected {data.sum()}")

    # A C++ for OpenCL kernel (cl_ext_cxx_for_opencl): a template and a
    # function object, built with -cl-std=CLC++.
    cxx = cl.Program(context, """
        template <typename T> T square(T x) { return x * x; }
        struct Affine {
          float a, b;
          float operator()(float x) const { return a * x + b; }
        };
        __kernel void affine_square(__global const float *in, __global float *out) {
          size_t i = get_global_id(0);
          Affine f{2.0f, 1.0f};
          out[i] = f(square(in[i]));
        }
        """).build(options=["-cl-std=CLC++"])
    small = (np.arange(64, dtype=np.float32) - 32) / 4
    small_dev = cla.to_device(queue, small)
    squared = cla.empty_like(small_dev)
    cxx.affine_square(queue, small.shape, None, small_dev.data, squared.data)
    checks.check("C++ for OpenCL kernel matches numpy",
                 np.array_equal(squared.get(), np.float32(2) * small * small + np.float32(1)))
    queue.finish()


def main():
    # PyOpenCL's compiler cache falls back to building from source, with a
    # long warning, when a cached binary does not load; the binary checks
    # above report that once.
    warnings.filterwarnings("ignore", message="PyOpenCL compiler caching failed")
    return run_all(run)


if __name__ == "__main__":
    sys.exit(main())
