# SPDX-License-Identifier: Apache-2.0
"""An application with planted kernel bugs, as its user would write it:
PyOpenCL, OpenCL C source, no build options. Each kernel is named on the
command line: oob (an out-of-bounds write), folded (a read of a private
variable never written, which clang -O2 folds away), spin (a loop that
never ends), then a second kernel and a read on the same queue, whose
results are printed. Exits 0 unless OpenCL itself fails."""
import sys

import numpy as np
import pyopencl as cl

SOURCE = """
kernel void oob(global int *out) {
  out[get_global_id(0) + 1] = 1;
}
kernel void folded(global int *out, int n) {
  int x;
  if (get_global_id(0) > n)
    x = 1;
  out[get_global_id(0)] = x + 1;
}
kernel void spin(global volatile int *flag) {
  while (flag[0] == 0) {
  }
}
kernel void fill(global int *out) {
  out[get_global_id(0)] = 40 + get_global_id(0);
}
"""

platform = [p for p in cl.get_platforms() if p.name == "Lanewise"][0]
context = cl.Context(platform.get_devices())
queue = cl.CommandQueue(context)
program = cl.Program(context, SOURCE).build()
out = cl.Buffer(context, cl.mem_flags.READ_WRITE, 64 * 4)
cl.enqueue_fill_buffer(queue, out, np.int32(0), 0, 64 * 4)

for name in sys.argv[1:]:
    if name == "oob":
        program.oob(queue, (64,), (16,), out)
    elif name == "folded":
        program.folded(queue, (64,), (16,), out, np.int32(1000))
    elif name == "spin":
        flag = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4)
        cl.enqueue_fill_buffer(queue, flag, np.int32(0), 0, 4)
        event = program.spin(queue, (32,), (16,), flag)
        program.fill(queue, (4,), None, out)
        result = np.zeros(4, np.int32)
        cl.enqueue_copy(queue, result, out)  # blocking: the queue goes on
        print("after spin:", list(result), "spin status", event.command_execution_status)
        try:
            queue.finish()
            print("finish: success")
        except cl.Error as error:
            print("finish:", error.code)
queue.finish()
print("done")
