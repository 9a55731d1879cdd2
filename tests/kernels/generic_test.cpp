// SPDX-License-Identifier: Apache-2.0
// Generic pointers: casts back to named address spaces give null unless the
// pointer points there; get_fence names the space's fence.
#include "harness.h"

namespace lanewise::test {
namespace {

using GenericPointer = KernelTest;

// Whether the device supports the generic address space, checked against
// the feature it reports.
bool genericAddressSpace(cl_device_id device) {
  size_t size = 0;
  clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &size);
  std::vector<cl_name_version> features(size / sizeof(cl_name_version));
  clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size, features.data(), nullptr);
  bool generic = false;
  for (const cl_name_version &feature : features)
    generic |= std::string(feature.name) == "__opencl_c_generic_address_space";
  cl_bool support = CL_FALSE;
  clGetDeviceInfo(device, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, sizeof support, &support,
                  nullptr);
  EXPECT_EQ(generic, support == CL_TRUE);
  return generic && support == CL_TRUE;
}

TEST_F(GenericPointer, NamedSpacesAndFences) {
  if (!genericAddressSpace(device))
    GTEST_SKIP() << "the device does not support the generic address space";
  // In groups of 50, and of one work-item: such groups share a warp only
  // if their __local memory is the arena's, which to_local looks for.
  for (const char *variant : {"", "-O0"})
    for (const size_t local : {50, 1}) {
      const int n = 150;
      std::vector<int> data(n);
      for (int i = 0; i < n; ++i)
        data[i] = 1000 + i;
      cl_mem D = buffer(data), O = buffer<int>(6 * n);
      cl_kernel k = kernel("generic", "classify", variant);
      setArgs(k, D, O);
      run(k, {n}, {local});
      std::vector<int> out = read<int>(O, 6 * n);
      for (int i = 0; i < n; ++i) {
        const int space = i % 3; // 0 global, 1 local, 2 private
        EXPECT_EQ(out[6 * i + 0], space == 0) << variant << " to_global at " << i;
        EXPECT_EQ(out[6 * i + 1], space == 1) << variant << " to_local at " << i;
        EXPECT_EQ(out[6 * i + 2], space == 2) << variant << " to_private at " << i;
        // get_fence: CLK_GLOBAL_MEM_FENCE for global, CLK_LOCAL_MEM_FENCE for
        // local, and for private memory no fence flag (OpenCL C 3.0, 6.15.10).
        constexpr int localFence = 1, globalFence = 2; // CLK_LOCAL/GLOBAL_MEM_FENCE in OpenCL C
        const int fence = space == 0 ? globalFence : space == 1 ? localFence : 0;
        EXPECT_EQ(out[6 * i + 3], fence) << variant << " get_fence at " << i;
        EXPECT_EQ(out[6 * i + 4], space == 0 ? 1000 + i : i) << variant << " value at " << i;
        EXPECT_EQ(out[6 * i + 5], 0) << variant << " to_global(NULL) at " << i;
      }
    }
}

// Another work-item's private pointer is a private pointer (OpenCL C 3.0,
// 6.15.9: to_private returns null only for a pointer that is not to the
// private address space), wherever the work-item runs: in another warp of
// the group here, in another work-group or on another worker thread when
// the pointer goes through global memory. The CTS's
// generic_address_space language_struct has every work-item of every group
// store its pointer to one program-scope variable and read it back.
TEST_F(GenericPointer, PointersHandedBetweenWorkItemsKeepTheirSpace) {
  if (!genericAddressSpace(device))
    GTEST_SKIP() << "the device does not support the generic address space";
  for (const char *variant : {"", "-O0"})
    for (const size_t groupSize : {1024, 256, 2}) {
      const size_t n = 2048;
      cl_mem O = buffer<int>(3 * n);
      cl_kernel k = kernel("generic", "handover", variant);
      setArgs(k, O);
      run(k, {n}, {groupSize});
      std::vector<int> out = read<int>(O, 3 * n);
      for (size_t i = 0; i < n; ++i) {
        // Work-item l receives the pointer of work-item groupSize - 1 - l:
        // to its __local int when that work-item's id is odd, else to its
        // private int.
        const bool local = (groupSize - 1 - i % groupSize) % 2 == 1;
        constexpr int localFence = 1; // CLK_LOCAL_MEM_FENCE in OpenCL C
        EXPECT_EQ(out[3 * i + 0], !local) << variant << " to_private at " << i;
        EXPECT_EQ(out[3 * i + 1], local) << variant << " to_local at " << i;
        EXPECT_EQ(out[3 * i + 2], local ? localFence : 0) << variant << " get_fence at " << i;
      }
    }
}

} // namespace
} // namespace lanewise::test
