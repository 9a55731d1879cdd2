# SPDX-License-Identifier: Apache-2.0
"""An application that runs only on GPUs, as many do: it asks every
platform for its devices of one type (CL_DEVICE_TYPE_GPU unless the first
argument says "accelerator"), and discards any device that reports itself
a CPU, in a photo editor's words "discarding new device as emulated by
CPU". On the first device it keeps it blurs an image with a 3x3 box filter
(edges clamped) and compares the result with NumPy's. Exits 0 when the
result is right, 1 when no device of the type is found, 2 on a wrong
result."""
import sys

import numpy as np
import pyopencl as cl

SOURCE = """
kernel void box3(global const float *in, global float *out, int width, int height) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height)
    return;
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int sx = clamp(x + dx, 0, width - 1), sy = clamp(y + dy, 0, height - 1);
      sum += in[sy * width + sx];
    }
  out[y * width + x] = sum / 9.0f;
}
"""

TYPES = {"GPU": cl.device_type.GPU, "ACCELERATOR": cl.device_type.ACCELERATOR,
         "CPU": cl.device_type.CPU}
wanted_name = (sys.argv[1] if len(sys.argv) > 1 else "gpu").upper()
wanted = TYPES[wanted_name]


def type_names(device_type):
    return "|".join(name for name, bit in TYPES.items() if device_type & bit)


kept = []
for platform in cl.get_platforms():
    try:
        devices = platform.get_devices(device_type=wanted)
    except cl.Error:  # CL_DEVICE_NOT_FOUND
        continue
    for device in devices:
        if device.type & cl.device_type.CPU:
            print(f"[opencl_init] discarding new device as emulated by CPU: {device.name}")
            continue
        kept.append(device)
if not kept:
    print(f"no OpenCL device of type {wanted_name}: nothing to run on")
    sys.exit(1)

device = kept[0]
context = cl.Context([device])
queue = cl.CommandQueue(context)
program = cl.Program(context, SOURCE).build()

width, height = 67, 45  # not multiples of the work-group size below
image = np.random.default_rng(7).random((height, width), dtype=np.float32)
flags = cl.mem_flags
source = cl.Buffer(context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=image)
result = cl.Buffer(context, flags.WRITE_ONLY, image.nbytes)
global_size = (-(-width // 16) * 16, -(-height // 4) * 4)
program.box3(queue, global_size, (16, 4), source, result, np.int32(width), np.int32(height))
blurred = np.empty_like(image)
cl.enqueue_copy(queue, blurred, result)

padded = np.pad(image, 1, mode="edge")
expected = sum(padded[1 + dy:1 + dy + height, 1 + dx:1 + dx + width]
               for dy in (-1, 0, 1) for dx in (-1, 0, 1)) / np.float32(9)
if not np.allclose(blurred, expected, rtol=1e-5, atol=1e-6):
    worst = np.unravel_index(np.argmax(np.abs(blurred - expected)), blurred.shape)
    print(f"wrong blur at {worst}: {blurred[worst]} instead of {expected[worst]}")
    sys.exit(2)
print(f"blurred {width}x{height} on {device.platform.name} "
      f"({type_names(device.type)})")
