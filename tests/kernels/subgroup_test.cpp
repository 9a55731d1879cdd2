// SPDX-License-Identifier: Apache-2.0
// Sub-groups (OpenCL C 3.0 6.15.16, cl_khr_subgroups): the partition of
// work-groups into sub-groups that the built-ins describe, kernels mixing
// operations with and without intel_reqd_sub_group_size,
// clGetKernelSubGroupInfo and the device queries. Kernels are in
// cl/subgroups.cl; the operations themselves are tested by family in
// subgroup_reduce_test.cpp, subgroup_shuffle_test.cpp and
// subgroup_ballot_test.cpp. How results are checked: subgroup_fixture.h.
#include "subgroup_fixture.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace lanewise::test::subgroup {
namespace {

// ---- the partition itself -------------------------------------------------------------
using SubgroupIds = SubgroupFixture;

TEST_F(SubgroupIds, BuiltInsDescribeAPartition) {
  std::vector<Range> ranges = kRanges;
  ranges.insert(ranges.end(), {{{1}, {1}},
                               {{64}, {64}},
                               {{300}, {300}},
                               {{20, 14}, {10, 7}},
                               {{24, 9}, {8, 3}},
                               {{8, 6, 4}, {4, 3, 2}},
                               {{7, 5, 3}, {4, 4, 2}}});
  for (const std::string &variant : kVariants) {
    cl_kernel k = sgKernel("ids", variant);
    ASSERT_NE(k, nullptr);
    for (const Range &r : ranges) {
      cl_mem info = buffer<cl_uint>(items(r) * kInfoWords);
      setArgs(k, info);
      run(k, r.global, r.local);
      const auto p = partition(info, r, 0, where("ids", variant, r));
      if (p) {
        EXPECT_GE(p->max, 1u);
      }
    }
  }
}

// ---- a mix of operations with and without intel_reqd_sub_group_size -------------------
struct MixCase {
  const char *kernel;
  std::uint32_t required;
};
class SubgroupRequiredSize : public SubgroupFixture,
                             public ::testing::WithParamInterface<MixCase> {};

TEST_P(SubgroupRequiredSize, MixOfOperations) {
  const MixCase c = GetParam();
  constexpr size_t K = 19;
  static const char *slotNames[] = {"shuffle(x, s % size)",
                                    "shuffle_xor(x, (s >> 8) % max)",
                                    "shuffle_up(x, (s >> 16) % size)",
                                    "shuffle_down(x, (s >> 16) % size)",
                                    "broadcast(x, lane)",
                                    "reduce_add(a)",
                                    "scan_inclusive_add(a)",
                                    "scan_exclusive_max(x)",
                                    "ballot(p) word 0",
                                    "ballot(p) word 1",
                                    "ballot(p) word 2",
                                    "ballot(p) word 3",
                                    "all(p)",
                                    "any(p)",
                                    "clustered_reduce_add(a, 8)",
                                    "odd lanes: non_uniform_reduce_add(a)",
                                    "odd lanes: shuffle_xor(x, 2)",
                                    "odd lanes: non_uniform_scan_exclusive_add(a)",
                                    "odd lanes: elect()"};
  Rng rng(9);
  std::vector<Range> ranges = kRanges;
  ranges.push_back({{96}, {96}});
  ranges.push_back({{5}, {5}});
  for (const std::string &variant : kVariants) {
    cl_kernel k = sgKernel(c.kernel, variant);
    ASSERT_NE(k, nullptr);
    for (const Range &r : ranges) {
      for (size_t rep = 0; rep < 3; ++rep) {
        const size_t n = items(r);
        const cl_uint lane = cl_uint(rep * 11 + 2);
        std::vector<int> x(n), a(n);
        std::vector<cl_uint> s(n);
        for (size_t i = 0; i < n; ++i) {
          x[i] = int(rng());
          a[i] = int(rng() % 2001) - 1000;
          s[i] = cl_uint(rng());
        }
        cl_mem pb = buffer<int>(n);
        cl_mem out = sentinelBuffer<int>(n * K);
        cl_mem info = buffer<cl_uint>(n * kInfoWords);
        setArgs(k, buffer(x), buffer(s), buffer(a), pb, out, info, lane);
        run(k, r.global, r.local); // learns the partition
        const std::string at = where(c.kernel, variant, r) + ", pattern " + std::to_string(rep);
        const auto p = partition(info, r, c.required, at);
        if (!p)
          break;
        const std::vector<int> pred = predicates(*p, rng, rep * 3);
        write(pb, pred);
        write(out, std::vector<int>(n * K, sentinel<int>()));
        run(k, r.global, r.local);
        Expected<int> want(n, K);
        for (const auto &sg : p->subgroups) {
          const size_t size = sg.size(), max = p->max;
          const std::vector<bool> all(size, true), odd = oddLanes(size);
          const std::vector<int> xv = gather(sg, x), av = gather(sg, a);
          const Scan<int> add = scan(Op::Add, av, all), mx = scan(Op::Max, xv, all),
                          oddAdd = scan(Op::Add, av, odd);
          Bits b;
          bool allP = true, anyP = false;
          for (size_t l = 0; l < size; ++l) {
            if (pred[sg[l]])
              b.set(l);
            allP &= pred[sg[l]] != 0;
            anyP |= pred[sg[l]] != 0;
          }
          for (size_t l = 0; l < size; ++l) {
            const size_t g = sg[l], d = (s[g] >> 16) % size;
            want.from(g, 0, xv, s[g] % size, all);
            want.from(g, 1, xv, l ^ ((s[g] >> 8) % max), all);
            want.from(g, 2, xv, std::int64_t(l) - std::int64_t(d), all);
            want.from(g, 3, xv, l + d, all);
            want.value(g, 4, xv[clampLane(lane, size)]);
            want.value(g, 5, add.reduce);
            want.value(g, 6, add.inclusive[l]);
            want.value(g, 7, mx.exclusive[l]);
            for (size_t w = 0; w < 4; ++w)
              want.value(g, 8 + w, int(b.w[w]));
            want.truth(g, 12, allP);
            want.truth(g, 13, anyP);
            if (max >= 8) {
              const size_t first = l / 8 * 8;
              int sum = 0;
              for (size_t j = first; j < std::min(size, first + 8); ++j)
                sum += av[j];
              want.value(g, 14, sum);
            } else {
              want.undefined(g, 14);
            }
            if (l % 2) {
              want.value(g, 15, oddAdd.reduce);
              want.from(g, 16, xv, l ^ 2, odd);
              want.value(g, 17, oddAdd.exclusive[l]);
              want.truth(g, 18, l == 1);
            }
          }
        }
        compare<int>(
            at, *p, read<int>(out, n * K), want, [](size_t s) { return std::string(slotNames[s]); },
            false);
      }
    }
  }
}
INSTANTIATE_TEST_SUITE_P(Subgroup, SubgroupRequiredSize,
                         ::testing::Values(MixCase{"mix", 0}, MixCase{"mix8", 8},
                                           MixCase{"mix16", 16}, MixCase{"mix32", 32},
                                           MixCase{"mix64", 64}),
                         [](const auto &info) { return std::string(info.param.kernel); });

// ---- clGetKernelSubGroupInfo ---------------------------------------------------------
class SubgroupInfo : public SubgroupFixture {
protected:
  size_t query(cl_kernel k, cl_kernel_sub_group_info param, const std::vector<size_t> &input) {
    size_t value = 0, size = 0;
    EXPECT_EQ(clGetKernelSubGroupInfo(k, device, param, input.size() * sizeof(size_t),
                                      input.empty() ? nullptr : input.data(), sizeof value, &value,
                                      &size),
              CL_SUCCESS)
        << "param 0x" << std::hex << param;
    EXPECT_EQ(size, sizeof(size_t)) << "param 0x" << std::hex << param;
    return value;
  }
  size_t workGroupSize(cl_kernel k) {
    size_t wgs = 0;
    EXPECT_EQ(
        clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wgs, &wgs, nullptr),
        CL_SUCCESS);
    return wgs;
  }
  // Runs `ids` (or a mix kernel, with dummy data) as one work-group of
  // `local` and returns its partition.
  std::optional<Partition> runOnce(cl_kernel k, const std::string &name,
                                   const std::vector<size_t> &local, std::uint32_t required) {
    const Range r{local, local};
    const size_t n = items(r);
    cl_mem info = buffer<cl_uint>(n * kInfoWords);
    if (name == "ids") {
      setArgs(k, info);
    } else {
      cl_mem data = buffer<int>(n);
      setArgs(k, data, data, data, data, buffer<int>(n * 19), info, cl_uint(0));
    }
    run(k, r.global, r.local);
    return partition(info, r, required, name + " over " + show(r));
  }
};

const std::vector<MixCase> kInfoKernels = {{"ids", 0},    {"mix", 0},    {"mix8", 8},
                                           {"mix16", 16}, {"mix32", 32}, {"mix64", 64}};

TEST_F(SubgroupInfo, NdrangeQueriesMatchTheBuiltIns) {
  const std::vector<std::vector<size_t>> locals = {{100}, {37},    {64},      {1},
                                                   {256}, {10, 7}, {4, 3, 2}, {33, 1, 1}};
  for (const MixCase &c : kInfoKernels) {
    cl_kernel k = sgKernel(c.kernel);
    ASSERT_NE(k, nullptr);
    for (const auto &local : locals) {
      SCOPED_TRACE(std::string(c.kernel) + " local " + show(Range{local, local}));
      const size_t max = query(k, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, local);
      const size_t count = query(k, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, local);
      if (c.required) {
        EXPECT_EQ(max, c.required);
      }
      const auto p = runOnce(k, c.kernel, local, c.required);
      if (!p)
        continue;
      EXPECT_EQ(max, p->max)
          << "CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE vs get_max_sub_group_size";
      EXPECT_EQ(count, p->items[0].num)
          << "CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE vs get_num_sub_groups";
    }
  }
}

TEST_F(SubgroupInfo, LocalSizeForSubGroupCount) {
  for (const MixCase &c : kInfoKernels) {
    cl_kernel k = sgKernel(c.kernel);
    ASSERT_NE(k, nullptr);
    const size_t wgs = workGroupSize(k);
    const size_t maxNum = query(k, CL_KERNEL_MAX_NUM_SUB_GROUPS, {});
    for (size_t count : {size_t(1), size_t(2), size_t(3), size_t(5), maxNum}) {
      for (size_t dims = 1; dims <= 3; ++dims) {
        SCOPED_TRACE(std::string(c.kernel) + ", " + std::to_string(count) + " sub-groups, " +
                     std::to_string(dims) + " dimension(s)");
        std::vector<size_t> local(dims, 12345);
        size_t ret = 0;
        ASSERT_EQ(clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                          sizeof count, &count, dims * sizeof(size_t), local.data(),
                                          &ret),
                  CL_SUCCESS);
        for (size_t d = 1; d < dims; ++d)
          EXPECT_EQ(local[d], 1u) << "dimension " << d;
        ASSERT_GT(local[0], 0u) << "a work-group of " << count << " sub-groups exists";
        EXPECT_LE(local[0], wgs);
        const size_t max = query(k, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, local);
        EXPECT_EQ(query(k, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, local), count);
        ASSERT_GT(max, 0u);
        EXPECT_EQ(local[0] % max, 0u) << "no partial sub-group";
        if (dims == 1 && std::string(c.kernel) == "ids") {
          const auto p = runOnce(k, c.kernel, local, c.required);
          if (p) {
            EXPECT_EQ(p->items[0].num, count);
          }
        }
      }
    }
    // No work-group holds more sub-groups than CL_KERNEL_MAX_NUM_SUB_GROUPS.
    for (size_t count : {maxNum + 1, maxNum * 4}) {
      std::vector<size_t> local(2, 12345);
      ASSERT_EQ(clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                        sizeof count, &count, 2 * sizeof(size_t), local.data(),
                                        nullptr),
                CL_SUCCESS);
      EXPECT_EQ(local[0], 0u) << c.kernel << ", " << count << " sub-groups";
      EXPECT_EQ(local[1], 0u) << c.kernel << ", " << count << " sub-groups";
    }
  }
}

TEST_F(SubgroupInfo, MaxAndCompileNumSubGroups) {
  const cl_uint deviceMax = deviceInfo<cl_uint>(device, CL_DEVICE_MAX_NUM_SUB_GROUPS);
  for (const MixCase &c : kInfoKernels) {
    SCOPED_TRACE(c.kernel);
    cl_kernel k = sgKernel(c.kernel);
    ASSERT_NE(k, nullptr);
    const size_t maxNum = query(k, CL_KERNEL_MAX_NUM_SUB_GROUPS, {});
    EXPECT_GE(maxNum, 1u);
    EXPECT_LE(maxNum, deviceMax);
    // The largest work-group, CL_KERNEL_WORK_GROUP_SIZE, has the most
    // sub-groups.
    const size_t wgs = workGroupSize(k);
    const size_t size = query(k, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {wgs});
    ASSERT_GT(size, 0u);
    EXPECT_EQ(maxNum, (wgs + size - 1) / size);
    EXPECT_EQ(query(k, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, {wgs}), maxNum);
    // Input values are ignored for these two.
    size_t v = 99;
    const size_t junk = 7;
    EXPECT_EQ(clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, sizeof junk, &junk,
                                      sizeof v, &v, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(v, maxNum);
    // No kernel of subgroups.cl declares a number of sub-groups.
    EXPECT_EQ(query(k, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, {}), 0u);
  }
}

TEST_F(SubgroupInfo, CompileSubGroupSizeIntel) {
  const bool reported =
      deviceString(device, CL_DEVICE_EXTENSIONS).find("cl_intel_required_subgroup_size") !=
      std::string::npos;
  for (const MixCase &c : kInfoKernels) {
    cl_kernel k = sgKernel(c.kernel);
    ASSERT_NE(k, nullptr);
    size_t value = 99, ret = 0;
    const cl_int error = clGetKernelSubGroupInfo(k, device, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL,
                                                 0, nullptr, sizeof value, &value, &ret);
    if (!reported && error == CL_INVALID_VALUE)
      GTEST_SKIP() << "cl_intel_required_subgroup_size is not reported";
    ASSERT_EQ(error, CL_SUCCESS) << c.kernel;
    EXPECT_EQ(value, c.required) << c.kernel;
    EXPECT_EQ(ret, sizeof(size_t));
  }
}

TEST_F(SubgroupInfo, KhrEntryPointIsTheSame) {
  auto khr = reinterpret_cast<clGetKernelSubGroupInfoKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clGetKernelSubGroupInfoKHR"));
  ASSERT_NE(khr, nullptr);
  for (const MixCase &c : kInfoKernels) {
    cl_kernel k = sgKernel(c.kernel);
    ASSERT_NE(k, nullptr);
    for (const std::vector<size_t> &local : {std::vector<size_t>{100}, {10, 7}}) {
      for (cl_kernel_sub_group_info param : {CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR,
                                             CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR}) {
        size_t value = 0;
        EXPECT_EQ(khr(k, device, param, local.size() * sizeof(size_t), local.data(), sizeof value,
                      &value, nullptr),
                  CL_SUCCESS);
        EXPECT_EQ(value, query(k, param, local)) << c.kernel << " param 0x" << std::hex << param;
      }
    }
  }
}

TEST_F(SubgroupInfo, Errors) {
  cl_kernel k = sgKernel("ids");
  ASSERT_NE(k, nullptr);
  const size_t local[4] = {100, 1, 1, 1};
  size_t value = 0, ret = 0;
  // Invalid kernel and device.
  EXPECT_EQ(clGetKernelSubGroupInfo(nullptr, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                    sizeof(size_t), local, sizeof value, &value, nullptr),
            CL_INVALID_KERNEL);
  EXPECT_EQ(clGetKernelSubGroupInfo(reinterpret_cast<cl_kernel>(context), device,
                                    CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(size_t), local,
                                    sizeof value, &value, nullptr),
            CL_INVALID_KERNEL);
  EXPECT_EQ(clGetKernelSubGroupInfo(k, reinterpret_cast<cl_device_id>(context),
                                    CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(size_t), local,
                                    sizeof value, &value, nullptr),
            CL_INVALID_DEVICE);
  // A NULL device is fine: the kernel's program has one device.
  EXPECT_EQ(clGetKernelSubGroupInfo(k, nullptr, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                    sizeof(size_t), local, sizeof value, &value, nullptr),
            CL_SUCCESS);
  // Unknown queries.
  for (cl_kernel_sub_group_info param :
       {cl_kernel_sub_group_info(CL_KERNEL_WORK_GROUP_SIZE), cl_kernel_sub_group_info(0x2030),
        cl_kernel_sub_group_info(0)})
    EXPECT_EQ(clGetKernelSubGroupInfo(k, device, param, sizeof(size_t), local, sizeof value, &value,
                                      nullptr),
              CL_INVALID_VALUE)
        << "param 0x" << std::hex << param;
  // Results too small for a size_t, for every query.
  for (cl_kernel_sub_group_info param :
       {CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
        CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, CL_KERNEL_MAX_NUM_SUB_GROUPS,
        CL_KERNEL_COMPILE_NUM_SUB_GROUPS}) {
    const size_t one = 1;
    const void *input = param == CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT ? &one : local;
    EXPECT_EQ(clGetKernelSubGroupInfo(k, device, param, sizeof(size_t), input, sizeof(size_t) - 1,
                                      &value, nullptr),
              CL_INVALID_VALUE)
        << "param 0x" << std::hex << param;
    // Only the size: param_value NULL.
    ret = 0;
    EXPECT_EQ(clGetKernelSubGroupInfo(k, device, param, sizeof(size_t), input, 0, nullptr, &ret),
              CL_SUCCESS)
        << "param 0x" << std::hex << param;
    EXPECT_GE(ret, sizeof(size_t)) << "param 0x" << std::hex << param;
  }
  // Missing or malformed inputs.
  for (cl_kernel_sub_group_info param :
       {CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE}) {
    EXPECT_EQ(clGetKernelSubGroupInfo(k, device, param, sizeof(size_t), nullptr, sizeof value,
                                      &value, nullptr),
              CL_INVALID_VALUE)
        << "NULL input, param 0x" << std::hex << param;
    for (size_t bytes : {size_t(0), sizeof(size_t) - 1, sizeof(size_t) + 1, 4 * sizeof(size_t)})
      EXPECT_EQ(
          clGetKernelSubGroupInfo(k, device, param, bytes, local, sizeof value, &value, nullptr),
          CL_INVALID_VALUE)
          << bytes << " input bytes, param 0x" << std::hex << param;
  }
  const size_t count[2] = {1, 1};
  size_t out[3];
  EXPECT_EQ(clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                    sizeof(size_t), nullptr, sizeof out, out, nullptr),
            CL_INVALID_VALUE);
  for (size_t bytes : {size_t(0), sizeof(size_t) - 1, 2 * sizeof(size_t)})
    EXPECT_EQ(clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, bytes,
                                      count, sizeof out, out, nullptr),
              CL_INVALID_VALUE)
        << bytes << " input bytes";
}

// ---- device queries -----------------------------------------------------------------------
using SubgroupDevice = SubgroupFixture;

TEST_F(SubgroupDevice, ReportsSubGroups) {
  EXPECT_GT(deviceInfo<cl_uint>(device, CL_DEVICE_MAX_NUM_SUB_GROUPS), 0u);
  cl_bool progress = 7;
  EXPECT_EQ(clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
                            sizeof progress, &progress, nullptr),
            CL_SUCCESS);
  EXPECT_TRUE(progress == CL_TRUE || progress == CL_FALSE);
  const std::string extensions = " " + deviceString(device, CL_DEVICE_EXTENSIONS) + " ";
  EXPECT_NE(extensions.find(" cl_khr_subgroups "), std::string::npos) << extensions;
  auto named = [&](cl_device_info param, const char *name) {
    size_t size = 0;
    EXPECT_EQ(clGetDeviceInfo(device, param, 0, nullptr, &size), CL_SUCCESS);
    std::vector<cl_name_version> list(size / sizeof(cl_name_version));
    EXPECT_EQ(clGetDeviceInfo(device, param, size, list.data(), nullptr), CL_SUCCESS);
    return std::any_of(list.begin(), list.end(),
                       [&](const cl_name_version &v) { return std::strcmp(v.name, name) == 0; });
  };
  EXPECT_TRUE(named(CL_DEVICE_EXTENSIONS_WITH_VERSION, "cl_khr_subgroups"));
  EXPECT_TRUE(named(CL_DEVICE_OPENCL_C_FEATURES, "__opencl_c_subgroups"));
  if (extensions.find(" cl_intel_required_subgroup_size ") != std::string::npos) {
    size_t size = 0;
    ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, nullptr, &size),
              CL_SUCCESS);
    std::vector<size_t> sizes(size / sizeof(size_t));
    ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, size, sizes.data(), nullptr),
              CL_SUCCESS);
    for (size_t s : {8, 16, 32, 64})
      EXPECT_NE(std::find(sizes.begin(), sizes.end(), s), sizes.end()) << s;
  }
}

} // namespace
} // namespace lanewise::test::subgroup
