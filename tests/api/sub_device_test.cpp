// SPDX-License-Identifier: Apache-2.0
// Sub-devices (OpenCL 3.0 API, 4.3, clCreateSubDevices): partitions equally,
// by counts and by affinity domain, the partition queries, reference
// counting, contexts of sub-devices and of their parent together, programs
// and kernels on every device of such a context, and launches confined to a
// sub-device's compute units and processors. The expected values are the
// specification's, and for affinity domains the host's own description of
// its processors (Linux sysfs, read here).
#include "common.h"

#include <gtest/gtest.h>

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace lanewise::test {
namespace {

namespace fs = std::filesystem;

// The affinity domains in the order NEXT_PARTITIONABLE looks at them.
constexpr cl_device_affinity_domain kDomains[] = {
    CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE};

std::vector<unsigned> processorsOfThisProcess() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<unsigned> processors;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (unsigned cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &set))
        processors.push_back(cpu);
  return processors;
}

std::string lineOf(const fs::path &path) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  return line;
}

// What the host says `cpu` shares at `domain`: its NUMA node, or the
// processors sharing its data or unified cache of that level.
std::optional<std::string> sharedAt(unsigned cpu, cl_device_affinity_domain domain) {
  const fs::path folder = "/sys/devices/system/cpu/cpu" + std::to_string(cpu);
  std::error_code error;
  if (domain == CL_DEVICE_AFFINITY_DOMAIN_NUMA) {
    for (const auto &entry : fs::directory_iterator(folder, error))
      if (const std::string name = entry.path().filename();
          name.rfind("node", 0) == 0 && name.size() > 4 && std::isdigit(name[4]))
        return name;
    return std::nullopt;
  }
  const std::string level = domain == CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE   ? "4"
                            : domain == CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE ? "3"
                            : domain == CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE ? "2"
                                                                           : "1";
  for (const auto &entry : fs::directory_iterator(folder / "cache", error)) {
    const std::string type = lineOf(entry.path() / "type");
    if (lineOf(entry.path() / "level") == level && (type == "Data" || type == "Unified"))
      return lineOf(entry.path() / "shared_cpu_list");
  }
  return std::nullopt;
}

// The sizes of the groups of this process's processors that share a node
// or cache of `domain`, in order of their first processor; nothing when the
// host does not describe it for all of them.
std::optional<std::vector<cl_uint>> hostGroups(cl_device_affinity_domain domain) {
  std::vector<std::string> keys;
  std::vector<cl_uint> sizes;
  for (unsigned cpu : processorsOfThisProcess()) {
    const std::optional<std::string> key = sharedAt(cpu, domain);
    if (!key)
      return std::nullopt;
    const auto found = std::find(keys.begin(), keys.end(), *key);
    if (found == keys.end()) {
      keys.push_back(*key);
      sizes.push_back(1);
    } else {
      ++sizes[size_t(found - keys.begin())];
    }
  }
  return sizes;
}

// The affinity domains the device should report: those the host describes
// that split its processors into more than one group (one node or cache
// that all share cannot partition the device), and the next partitionable
// one with them.
cl_device_affinity_domain hostDomains() {
  cl_device_affinity_domain domains = 0;
  for (cl_device_affinity_domain domain : kDomains)
    if (const auto groups = hostGroups(domain); groups && groups->size() > 1)
      domains |= domain;
  return domains ? domains | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE : 0;
}

class SubDevice : public ::testing::Test {
protected:
  void SetUp() override {
    root = testDevice();
    units = deviceInfo<cl_uint>(root, CL_DEVICE_MAX_COMPUTE_UNITS);
    if (units < 2)
      GTEST_SKIP() << "a device of one compute unit has no partition";
  }
  void TearDown() override {
    for (cl_device_id sub : made)
      clReleaseDevice(sub);
  }

  // The sub-devices `properties` makes of `device`; fails the test unless
  // the call succeeds.
  std::vector<cl_device_id> partition(cl_device_id device,
                                      std::vector<cl_device_partition_property> properties) {
    cl_uint count = 0;
    EXPECT_EQ(clCreateSubDevices(device, properties.data(), 0, nullptr, &count), CL_SUCCESS);
    std::vector<cl_device_id> subs(count);
    cl_uint returned = 0;
    EXPECT_EQ(clCreateSubDevices(device, properties.data(), count, subs.data(), &returned),
              CL_SUCCESS);
    EXPECT_EQ(returned, count);
    made.insert(made.end(), subs.begin(), subs.end());
    return subs;
  }

  cl_int tryPartition(cl_device_id device, std::vector<cl_device_partition_property> properties) {
    cl_uint count = 0;
    return clCreateSubDevices(device, properties.data(), 0, nullptr, &count);
  }

  std::vector<cl_device_partition_property> partitionType(cl_device_id device) {
    size_t size = 0;
    EXPECT_EQ(clGetDeviceInfo(device, CL_DEVICE_PARTITION_TYPE, 0, nullptr, &size), CL_SUCCESS);
    std::vector<cl_device_partition_property> type(size / sizeof(cl_device_partition_property));
    EXPECT_EQ(clGetDeviceInfo(device, CL_DEVICE_PARTITION_TYPE, size, type.data(), nullptr),
              CL_SUCCESS);
    return type;
  }

  cl_device_id root = nullptr;
  cl_uint units = 0;
  std::vector<cl_device_id> made;
};

TEST_F(SubDevice, RootDeviceReportsEqualAndCountedPartitions) {
  EXPECT_EQ(deviceInfo<cl_uint>(root, CL_DEVICE_PARTITION_MAX_SUB_DEVICES), units);
  size_t size = 0;
  ASSERT_EQ(clGetDeviceInfo(root, CL_DEVICE_PARTITION_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  std::vector<cl_device_partition_property> types(size / sizeof(cl_device_partition_property));
  ASSERT_EQ(clGetDeviceInfo(root, CL_DEVICE_PARTITION_PROPERTIES, size, types.data(), nullptr),
            CL_SUCCESS);
  std::vector<cl_device_partition_property> expected = {CL_DEVICE_PARTITION_EQUALLY,
                                                        CL_DEVICE_PARTITION_BY_COUNTS};
  if (units == processorsOfThisProcess().size() && hostDomains())
    expected.push_back(CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
  EXPECT_EQ(types, expected);
  EXPECT_EQ(deviceInfo<cl_device_affinity_domain>(root, CL_DEVICE_PARTITION_AFFINITY_DOMAIN),
            expected.size() == 3 ? hostDomains() : 0u);
  EXPECT_EQ(deviceInfo<cl_device_id>(root, CL_DEVICE_PARENT_DEVICE), nullptr);
  // A root device's partition type is empty or {0} (4.2).
  const auto type = partitionType(root);
  EXPECT_TRUE(type.empty() || type == std::vector<cl_device_partition_property>{0});
}

TEST_F(SubDevice, EqualPartitionMakesDevicesOfThatManyUnits) {
  for (cl_uint n = 1; n < units; ++n) {
    const std::vector<cl_device_id> subs = partition(root, {CL_DEVICE_PARTITION_EQUALLY, n, 0});
    ASSERT_EQ(subs.size(), units / n) << n;
    for (cl_device_id sub : subs) {
      EXPECT_EQ(deviceInfo<cl_uint>(sub, CL_DEVICE_MAX_COMPUTE_UNITS), n);
      EXPECT_EQ(deviceInfo<cl_device_id>(sub, CL_DEVICE_PARENT_DEVICE), root);
      EXPECT_EQ(partitionType(sub),
                (std::vector<cl_device_partition_property>{CL_DEVICE_PARTITION_EQUALLY, n, 0}));
      EXPECT_EQ(deviceInfo<cl_device_type>(sub, CL_DEVICE_TYPE), CL_DEVICE_TYPE_CPU);
      EXPECT_EQ(deviceInfo<cl_platform_id>(sub, CL_DEVICE_PLATFORM),
                deviceInfo<cl_platform_id>(root, CL_DEVICE_PLATFORM));
      EXPECT_EQ(deviceString(sub, CL_DEVICE_NAME), deviceString(root, CL_DEVICE_NAME));
      EXPECT_EQ(deviceString(sub, CL_DEVICE_EXTENSIONS), deviceString(root, CL_DEVICE_EXTENSIONS));
      EXPECT_EQ(deviceInfo<cl_uint>(sub, CL_DEVICE_REFERENCE_COUNT), 1u);
      // One compute unit has no partition; more have their own.
      EXPECT_EQ(deviceInfo<cl_uint>(sub, CL_DEVICE_PARTITION_MAX_SUB_DEVICES), n > 1 ? n : 0u);
    }
  }
}

TEST_F(SubDevice, CountedPartitionMakesTheCountsInOrder) {
  const cl_device_partition_property last = units - 1;
  const std::vector<cl_device_id> subs = partition(
      root, {CL_DEVICE_PARTITION_BY_COUNTS, 1, last, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0});
  ASSERT_EQ(subs.size(), 2u);
  EXPECT_EQ(deviceInfo<cl_uint>(subs[0], CL_DEVICE_MAX_COMPUTE_UNITS), 1u);
  EXPECT_EQ(deviceInfo<cl_uint>(subs[1], CL_DEVICE_MAX_COMPUTE_UNITS), cl_uint(last));
  EXPECT_EQ(partitionType(subs[1]),
            (std::vector<cl_device_partition_property>{CL_DEVICE_PARTITION_BY_COUNTS, 1, last,
                                                       CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0}));
  // A sub-device is partitioned in turn.
  if (last >= 2) {
    const std::vector<cl_device_id> nested =
        partition(subs[1], {CL_DEVICE_PARTITION_EQUALLY, 1, 0});
    EXPECT_EQ(nested.size(), size_t(last));
    EXPECT_EQ(deviceInfo<cl_device_id>(nested[0], CL_DEVICE_PARENT_DEVICE), subs[1]);
  }
}

// The errors clCreateSubDevices names for each kind of bad request.
TEST_F(SubDevice, BadPartitionsAreRejectedWithTheSpecifiedErrors) {
  EXPECT_EQ(tryPartition(root, {CL_DEVICE_PARTITION_EQUALLY, 0, 0}), CL_INVALID_VALUE);
  // Sub-devices of all the units would not be smaller ones: the device
  // cannot be partitioned so; more units than it has are a bad count (as
  // the CTS's negative_create_sub_devices reads the specification).
  EXPECT_EQ(tryPartition(root, {CL_DEVICE_PARTITION_EQUALLY, units, 0}),
            CL_DEVICE_PARTITION_FAILED);
  EXPECT_EQ(tryPartition(root, {CL_DEVICE_PARTITION_EQUALLY, units + 1, 0}),
            CL_INVALID_DEVICE_PARTITION_COUNT);
  EXPECT_EQ(tryPartition(root, {CL_DEVICE_PARTITION_BY_COUNTS, units, 1,
                                CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0}),
            CL_INVALID_DEVICE_PARTITION_COUNT);
  EXPECT_EQ(tryPartition(root, {CL_DEVICE_PARTITION_BY_COUNTS, -1,
                                CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0}),
            CL_INVALID_DEVICE_PARTITION_COUNT);
  EXPECT_EQ(tryPartition(
                root, {CL_DEVICE_PARTITION_BY_COUNTS, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0}),
            CL_INVALID_DEVICE_PARTITION_COUNT);
  // Affinity domains the device does not report, and two at once.
  const auto reported =
      deviceInfo<cl_device_affinity_domain>(root, CL_DEVICE_PARTITION_AFFINITY_DOMAIN);
  for (cl_device_affinity_domain domain : kDomains) {
    if (!(reported & domain)) {
      EXPECT_EQ(tryPartition(root, {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                    cl_device_partition_property(domain), 0}),
                CL_INVALID_VALUE)
          << domain;
    }
  }
  EXPECT_EQ(tryPartition(
                root, {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                       CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE | CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, 0}),
            CL_INVALID_VALUE);
  EXPECT_EQ(tryPartition(root, {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, 0, 0}), CL_INVALID_VALUE);
  EXPECT_EQ(clCreateSubDevices(root, nullptr, 0, nullptr, nullptr), CL_INVALID_VALUE);
  // Room for fewer sub-devices than the partition makes.
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_device_id one = nullptr;
  EXPECT_EQ(clCreateSubDevices(root, equally, 1, &one, nullptr), CL_INVALID_VALUE);
  // A sub-device of one compute unit has no partition.
  const std::vector<cl_device_id> singles = partition(root, {CL_DEVICE_PARTITION_EQUALLY, 1, 0});
  EXPECT_EQ(tryPartition(singles[0], {CL_DEVICE_PARTITION_EQUALLY, 1, 0}), CL_INVALID_VALUE);
}

// A sub-device is reference counted and deleted at its last release; the
// root device's count stays 1 (4.3). A context holds its sub-devices.
TEST_F(SubDevice, ReferenceCountsGovernTheSubDevicesLife) {
  EXPECT_EQ(clRetainDevice(root), CL_SUCCESS);
  EXPECT_EQ(deviceInfo<cl_uint>(root, CL_DEVICE_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clReleaseDevice(root), CL_SUCCESS);
  EXPECT_EQ(deviceInfo<cl_uint>(root, CL_DEVICE_REFERENCE_COUNT), 1u);

  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  std::vector<cl_device_id> subs(units);
  ASSERT_EQ(clCreateSubDevices(root, equally, units, subs.data(), nullptr), CL_SUCCESS);
  ASSERT_EQ(clRetainDevice(subs[0]), CL_SUCCESS);
  EXPECT_EQ(deviceInfo<cl_uint>(subs[0], CL_DEVICE_REFERENCE_COUNT), 2u);
  ASSERT_EQ(clReleaseDevice(subs[0]), CL_SUCCESS);
  EXPECT_EQ(deviceInfo<cl_uint>(subs[0], CL_DEVICE_REFERENCE_COUNT), 1u);

  cl_int error = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &subs[0], nullptr, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  // Released by the application, held by the context.
  ASSERT_EQ(clReleaseDevice(subs[0]), CL_SUCCESS);
  cl_device_id inContext = nullptr;
  ASSERT_EQ(clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof inContext, &inContext, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(inContext, subs[0]);
  EXPECT_EQ(deviceInfo<cl_uint>(inContext, CL_DEVICE_MAX_COMPUTE_UNITS), 1u);
  EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
  // Gone with the context: the handle is invalid.
  cl_uint count = 0;
  EXPECT_EQ(clGetDeviceInfo(subs[0], CL_DEVICE_REFERENCE_COUNT, sizeof count, &count, nullptr),
            CL_INVALID_DEVICE);
  EXPECT_EQ(clReleaseDevice(subs[0]), CL_INVALID_DEVICE);
  for (size_t i = 1; i < subs.size(); ++i)
    EXPECT_EQ(clReleaseDevice(subs[i]), CL_SUCCESS);
}

constexpr const char *kSource = R"(
kernel void scale(global int *data, int factor) {
  size_t i = get_global_id(0);
  data[i] = data[i] * factor + (int)i;
}
// Work-groups of two work-items with a barrier (one group to a warp): each
// counts the work-items running at once, and keeps the largest count.
kernel void concurrency(global volatile int *running, global int *most, int spins) {
  barrier(CLK_LOCAL_MEM_FENCE);
  int now = atomic_inc(running) + 1;
  atomic_max(most, now);
  for (int s = 0; s < spins; ++s)
    atomic_max(most, *running);
  atomic_dec(running);
  barrier(CLK_LOCAL_MEM_FENCE);
}
)";

// A context of every sub-device and their parent: one program built for
// all of them (a NULL device list) or for the parent alone, its devices,
// binaries and build status per device, and the kernel run on a queue of
// each device.
TEST_F(SubDevice, ContextOfSubDevicesAndParentRunsKernelsOnEach) {
  std::vector<cl_device_id> devices = partition(root, {CL_DEVICE_PARTITION_EQUALLY, 1, 0});
  devices.push_back(root);
  cl_int error = CL_SUCCESS;
  cl_context context =
      clCreateContext(nullptr, cl_uint(devices.size()), devices.data(), nullptr, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  cl_uint numDevices = 0;
  ASSERT_EQ(
      clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof numDevices, &numDevices, nullptr),
      CL_SUCCESS);
  ASSERT_EQ(numDevices, devices.size());
  std::vector<cl_device_id> listed(numDevices);
  ASSERT_EQ(clGetContextInfo(context, CL_CONTEXT_DEVICES, numDevices * sizeof(cl_device_id),
                             listed.data(), nullptr),
            CL_SUCCESS);
  EXPECT_EQ(listed, devices);

  for (bool parentOnly : {false, true}) {
    const char *source = kSource;
    cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &error);
    ASSERT_EQ(error, CL_SUCCESS);
    ASSERT_EQ(clBuildProgram(program, parentOnly ? 1 : 0, parentOnly ? &root : nullptr, "", nullptr,
                             nullptr),
              CL_SUCCESS);
    cl_uint programDevices = 0;
    ASSERT_EQ(clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof programDevices,
                               &programDevices, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(programDevices, devices.size());
    size_t size = 0;
    ASSERT_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, 0, nullptr, &size), CL_SUCCESS);
    ASSERT_EQ(size, devices.size() * sizeof(size_t));
    std::vector<size_t> sizes(devices.size());
    ASSERT_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, size, sizes.data(), nullptr),
              CL_SUCCESS);
    EXPECT_GT(sizes[0], 0u);
    // A binary per device, into the application's memory.
    std::vector<std::vector<unsigned char>> binaries;
    std::vector<unsigned char *> pointers;
    for (size_t bytes : sizes) {
      binaries.emplace_back(bytes);
      pointers.push_back(binaries.back().data());
    }
    ASSERT_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARIES,
                               pointers.size() * sizeof(unsigned char *), pointers.data(), nullptr),
              CL_SUCCESS);
    for (const auto &binary : binaries)
      EXPECT_EQ(binary, binaries[0]);
    for (cl_device_id device : devices) {
      cl_build_status status = CL_BUILD_NONE;
      ASSERT_EQ(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof status,
                                      &status, nullptr),
                CL_SUCCESS);
      EXPECT_EQ(status, CL_BUILD_SUCCESS);
    }

    cl_kernel kernel = clCreateKernel(program, "scale", &error);
    ASSERT_EQ(error, CL_SUCCESS);
    // The kernel's device must be named where the context has several.
    size_t workGroupSize = 0;
    EXPECT_EQ(clGetKernelWorkGroupInfo(kernel, nullptr, CL_KERNEL_WORK_GROUP_SIZE,
                                       sizeof workGroupSize, &workGroupSize, nullptr),
              CL_INVALID_DEVICE);
    for (cl_device_id device : devices)
      EXPECT_EQ(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE,
                                         sizeof workGroupSize, &workGroupSize, nullptr),
                CL_SUCCESS);

    const size_t n = 1000;
    std::vector<cl_int> data(n);
    std::iota(data.begin(), data.end(), -300);
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                   n * sizeof(cl_int), data.data(), &error);
    ASSERT_EQ(error, CL_SUCCESS);
    std::vector<cl_int> expected = data;
    for (size_t d = 0; d < devices.size(); ++d) {
      cl_command_queue queue =
          clCreateCommandQueueWithProperties(context, devices[d], nullptr, &error);
      ASSERT_EQ(error, CL_SUCCESS);
      cl_device_id queueDevice = nullptr;
      ASSERT_EQ(
          clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof queueDevice, &queueDevice, nullptr),
          CL_SUCCESS);
      EXPECT_EQ(queueDevice, devices[d]);
      const cl_int factor = cl_int(d) + 2;
      ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof buffer, &buffer), CL_SUCCESS);
      ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof factor, &factor), CL_SUCCESS);
      ASSERT_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &n, nullptr, 0, nullptr, nullptr),
                CL_SUCCESS);
      ASSERT_EQ(clFinish(queue), CL_SUCCESS);
      for (size_t i = 0; i < n; ++i)
        expected[i] = expected[i] * factor + cl_int(i);
      std::vector<cl_int> got(n);
      ASSERT_EQ(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, n * sizeof(cl_int), got.data(), 0,
                                    nullptr, nullptr),
                CL_SUCCESS);
      EXPECT_EQ(got, expected) << "device " << d << (parentOnly ? ", built for the parent" : "");
      clReleaseCommandQueue(queue);
    }
    clReleaseMemObject(buffer);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
  }
  // A device outside the context.
  std::vector<cl_device_id> others = partition(root, {CL_DEVICE_PARTITION_EQUALLY, 1, 0});
  EXPECT_EQ(clCreateCommandQueueWithProperties(context, others[0], nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_DEVICE);
  clReleaseContext(context);
}

// A sub-device of one compute unit runs its work-groups one at a time: no
// two of its work-groups ever run at once.
TEST_F(SubDevice, SubDeviceLaunchesRunOnItsComputeUnitsAlone) {
  const std::vector<cl_device_id> subs = partition(root, {CL_DEVICE_PARTITION_EQUALLY, 1, 0});
  cl_int error = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &subs[0], nullptr, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  const char *source = kSource;
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(program, 0, nullptr, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel kernel = clCreateKernel(program, "concurrency", &error);
  ASSERT_EQ(error, CL_SUCCESS);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, subs[0], nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  cl_int zero = 0;
  cl_mem counters =
      clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  cl_mem most =
      clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  const cl_int spins = 2000;
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof counters, &counters), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof most, &most), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 2, sizeof spins, &spins), CL_SUCCESS);
  const size_t global = 256, local = 2;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr),
            CL_SUCCESS);
  cl_int got[2] = {-1, -1};
  ASSERT_EQ(clEnqueueReadBuffer(queue, counters, CL_TRUE, 0, sizeof(cl_int), &got[0], 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  ASSERT_EQ(
      clEnqueueReadBuffer(queue, most, CL_TRUE, 0, sizeof(cl_int), &got[1], 0, nullptr, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(got[0], 0);
  // The two work-items of one group at most.
  EXPECT_GE(got[1], 1);
  EXPECT_LE(got[1], 2);
  clReleaseMemObject(most);
  clReleaseMemObject(counters);
  clReleaseCommandQueue(queue);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseContext(context);
}

// A partition by an affinity domain the device reports makes one sub-device
// per node or cache of that domain among the device's processors, with as
// many compute units as the group has processors, or fails with
// CL_DEVICE_PARTITION_FAILED where all of them share one (the device could
// not be further partitioned).
TEST_F(SubDevice, AffinityPartitionsFollowTheHostsProcessors) {
  const auto reported =
      deviceInfo<cl_device_affinity_domain>(root, CL_DEVICE_PARTITION_AFFINITY_DOMAIN);
  if (!reported)
    GTEST_SKIP() << "the host describes no affinity domain of the device's processors";
  for (cl_device_affinity_domain domain : kDomains) {
    if (!(reported & domain))
      continue;
    SCOPED_TRACE(domain);
    const std::optional<std::vector<cl_uint>> groups = hostGroups(domain);
    ASSERT_TRUE(groups.has_value());
    const std::vector<cl_device_partition_property> properties = {
        CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, cl_device_partition_property(domain), 0};
    // A reported domain splits the device (the CTS's buffer_migrate
    // partitions along the first one the device reports, and needs it to).
    ASSERT_GT(groups->size(), 1u);
    const std::vector<cl_device_id> subs = partition(root, properties);
    ASSERT_EQ(subs.size(), groups->size());
    for (size_t i = 0; i < subs.size(); ++i) {
      EXPECT_EQ(deviceInfo<cl_uint>(subs[i], CL_DEVICE_MAX_COMPUTE_UNITS), (*groups)[i]) << i;
      EXPECT_EQ(partitionType(subs[i]), properties) << i;
      EXPECT_EQ(deviceInfo<cl_device_id>(subs[i], CL_DEVICE_PARENT_DEVICE), root);
    }
  }
}

// NEXT_PARTITIONABLE splits along the first domain, in the order NUMA, L4,
// L3, L2, L1, that splits the device, and the sub-devices report that
// domain.
TEST_F(SubDevice, NextPartitionableIsTheFirstDomainThatSplits) {
  if (!(deviceInfo<cl_device_affinity_domain>(root, CL_DEVICE_PARTITION_AFFINITY_DOMAIN) &
        CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE))
    GTEST_SKIP() << "the host describes no affinity domain of the device's processors";
  const std::vector<cl_device_partition_property> next = {
      CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0};
  cl_device_affinity_domain expected = 0;
  for (cl_device_affinity_domain domain : kDomains)
    if (const auto groups = hostGroups(domain); !expected && groups && groups->size() > 1)
      expected = domain;
  if (!expected) {
    EXPECT_EQ(tryPartition(root, next), CL_DEVICE_PARTITION_FAILED);
    return;
  }
  const std::vector<cl_device_id> subs = partition(root, next);
  ASSERT_EQ(subs.size(), hostGroups(expected)->size());
  for (cl_device_id sub : subs)
    EXPECT_EQ(partitionType(sub), (std::vector<cl_device_partition_property>{
                                      CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                      cl_device_partition_property(expected), 0}));
}

// The threads that run an affinity sub-device's launch are bound to the
// processors of its node or cache while they do: a long launch on the last
// sub-device is watched from here, through the threads' allowed-processor
// lists in /proc. The launching thread's own affinity is unchanged after.
TEST_F(SubDevice, AffinitySubDeviceWorkersRunOnItsProcessors) {
  if (!(deviceInfo<cl_device_affinity_domain>(root, CL_DEVICE_PARTITION_AFFINITY_DOMAIN) &
        CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE) ||
      tryPartition(root, {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                          CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0}) != CL_SUCCESS)
    GTEST_SKIP() << "no affinity partition of this host's processors";
  const std::vector<cl_device_id> subs =
      partition(root, {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                       CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0});
  const cl_device_id last = subs.back();
  const auto domain = cl_device_affinity_domain(partitionType(last)[1]);
  // The last group's processors, as /proc prints an allowed list ("1", "2-3").
  std::map<std::string, std::vector<unsigned>> byKey;
  std::vector<std::string> order;
  for (unsigned cpu : processorsOfThisProcess()) {
    const std::string key = *sharedAt(cpu, domain);
    if (!byKey.count(key))
      order.push_back(key);
    byKey[key].push_back(cpu);
  }
  const std::vector<unsigned> &mine = byKey[order.back()];
  std::string allowed;
  for (size_t i = 0; i < mine.size();) {
    size_t end = i + 1;
    while (end < mine.size() && mine[end] == mine[end - 1] + 1)
      ++end;
    allowed += (allowed.empty() ? "" : ",") + std::to_string(mine[i]);
    if (end - i > 1)
      allowed += "-" + std::to_string(mine[end - 1]);
    i = end;
  }
  cpu_set_t before;
  ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);

  cl_int error = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &last, nullptr, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  const char *source = "kernel void spin(global uint *out, uint n) {\n"
                       "  uint x = (uint)get_global_id(0);\n"
                       "  for (uint i = 0; i < n; ++i)\n"
                       "    x = x * 1103515245u + 12345u;\n"
                       "  out[get_global_id(0)] = x;\n"
                       "}\n";
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(program, 0, nullptr, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel kernel = clCreateKernel(program, "spin", &error);
  ASSERT_EQ(error, CL_SUCCESS);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, last, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  const size_t global = 1024;
  cl_mem out = clCreateBuffer(context, CL_MEM_WRITE_ONLY, global * 4, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  const cl_uint n = 200000;
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof out, &out), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof n, &n), CL_SUCCESS);

  // A thread of this process allowed on exactly the group's processors.
  auto boundThreadSeen = [&] {
    std::error_code ignored;
    for (const auto &task : fs::directory_iterator("/proc/self/task", ignored)) {
      std::ifstream status(task.path() / "status");
      for (std::string line; std::getline(status, line);)
        if (line == "Cpus_allowed_list:\t" + allowed)
          return true;
    }
    return false;
  };
  bool seen = false;
  for (int launch = 0; launch < 20 && !seen; ++launch) {
    cl_event done = nullptr;
    ASSERT_EQ(
        clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, &done),
        CL_SUCCESS);
    clFlush(queue);
    for (cl_int state = CL_QUEUED; !seen && state != CL_COMPLETE && state >= 0;) {
      seen = boundThreadSeen();
      clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, nullptr);
    }
    clWaitForEvents(1, &done);
    clReleaseEvent(done);
  }
  EXPECT_TRUE(seen) << "no thread was bound to processors " << allowed << " during the launches";
  cpu_set_t after;
  ASSERT_EQ(sched_getaffinity(0, sizeof after, &after), 0);
  EXPECT_TRUE(CPU_EQUAL(&before, &after));
  clReleaseMemObject(out);
  clReleaseCommandQueue(queue);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseContext(context);
}

} // namespace
} // namespace lanewise::test
