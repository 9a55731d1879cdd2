// SPDX-License-Identifier: Apache-2.0
// Small helpers over the OpenCL API: error names, info queries, and finding
// the Lanewise device once it is the only platform.
#pragma once

#include <CL/cl.h>

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace lanewise::cli {

// "CL_INVALID_VALUE" for -30; the number for a code the headers do not name.
std::string errorName(cl_int code);

// Throws Failure "WHAT failed: CL_..." unless code is CL_SUCCESS.
void check(cl_int code, const std::string &what);

std::string platformText(cl_platform_id platform, cl_platform_info param);
std::string deviceText(cl_device_id device, cl_device_info param);

template <typename T> T deviceValue(cl_device_id device, cl_device_info param) {
  T value{};
  check(clGetDeviceInfo(device, param, sizeof value, &value, nullptr), "clGetDeviceInfo");
  return value;
}

template <typename T> std::vector<T> deviceValues(cl_device_id device, cl_device_info param) {
  size_t size = 0;
  check(clGetDeviceInfo(device, param, 0, nullptr, &size), "clGetDeviceInfo");
  std::vector<T> values(size / sizeof(T));
  check(clGetDeviceInfo(device, param, size, values.data(), nullptr), "clGetDeviceInfo");
  return values;
}

// Owning handles: each releases its object when it goes.
template <typename Handle, cl_int (*release)(Handle)> struct Releaser {
  void operator()(Handle handle) const { release(handle); }
};
template <typename Handle, cl_int (*release)(Handle)>
using Owned = std::unique_ptr<std::remove_pointer_t<Handle>, Releaser<Handle, release>>;
using Context = Owned<cl_context, clReleaseContext>;
using Queue = Owned<cl_command_queue, clReleaseCommandQueue>;
using Program = Owned<cl_program, clReleaseProgram>;
using Kernel = Owned<cl_kernel, clReleaseKernel>;
using Buffer = Owned<cl_mem, clReleaseMemObject>;
using Event = Owned<cl_event, clReleaseEvent>;

// OpenCL C from a file, as the CLI gives it to clCreateProgramWithSource:
// a #line directive first, so that clang's diagnostics and the debug
// information (the checked mode's source lines) name the user's file, not
// the library's "program.cl".
std::string namedSource(const std::string &path, const std::string &text);
// For a source with an #include directive, the build option that adds the
// file's folder to the include path, so that #include "x.h" finds x.h
// beside the file as a compiler would; else nothing.
std::string includeFolderOption(const std::string &path, const std::string &text);
// For a C++ for OpenCL source (FILE.clcpp) whose options choose no
// language, the option that does: -cl-std=CLC++; else nothing.
std::string languageOption(const std::string &path, const std::string &options);

// The program's build log for the device, without trailing newlines.
std::string buildLog(cl_program program, cl_device_id device);

struct LanewiseDevice {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
};

// The Lanewise platform and its device. Throws Failure when the loader finds
// no platform named Lanewise.
LanewiseDevice findLanewiseDevice();

} // namespace lanewise::cli
