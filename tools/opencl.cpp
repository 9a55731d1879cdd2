// SPDX-License-Identifier: Apache-2.0
#include "opencl.h"

#include "errors.h"
#include "text.h"

#include <algorithm>
#include <filesystem>
#include <utility>

namespace lanewise::cli {

namespace {

#define LANEWISE_ERROR(name)                                                                       \
  { name, #name }
constexpr std::pair<cl_int, const char *> errorNames[] = {
    LANEWISE_ERROR(CL_SUCCESS),
    LANEWISE_ERROR(CL_DEVICE_NOT_FOUND),
    LANEWISE_ERROR(CL_DEVICE_NOT_AVAILABLE),
    LANEWISE_ERROR(CL_COMPILER_NOT_AVAILABLE),
    LANEWISE_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE),
    LANEWISE_ERROR(CL_OUT_OF_RESOURCES),
    LANEWISE_ERROR(CL_OUT_OF_HOST_MEMORY),
    LANEWISE_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE),
    LANEWISE_ERROR(CL_MEM_COPY_OVERLAP),
    LANEWISE_ERROR(CL_IMAGE_FORMAT_MISMATCH),
    LANEWISE_ERROR(CL_IMAGE_FORMAT_NOT_SUPPORTED),
    LANEWISE_ERROR(CL_BUILD_PROGRAM_FAILURE),
    LANEWISE_ERROR(CL_MAP_FAILURE),
    LANEWISE_ERROR(CL_MISALIGNED_SUB_BUFFER_OFFSET),
    LANEWISE_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
    LANEWISE_ERROR(CL_COMPILE_PROGRAM_FAILURE),
    LANEWISE_ERROR(CL_LINKER_NOT_AVAILABLE),
    LANEWISE_ERROR(CL_LINK_PROGRAM_FAILURE),
    LANEWISE_ERROR(CL_DEVICE_PARTITION_FAILED),
    LANEWISE_ERROR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE),
    LANEWISE_ERROR(CL_INVALID_VALUE),
    LANEWISE_ERROR(CL_INVALID_DEVICE_TYPE),
    LANEWISE_ERROR(CL_INVALID_PLATFORM),
    LANEWISE_ERROR(CL_INVALID_DEVICE),
    LANEWISE_ERROR(CL_INVALID_CONTEXT),
    LANEWISE_ERROR(CL_INVALID_QUEUE_PROPERTIES),
    LANEWISE_ERROR(CL_INVALID_COMMAND_QUEUE),
    LANEWISE_ERROR(CL_INVALID_HOST_PTR),
    LANEWISE_ERROR(CL_INVALID_MEM_OBJECT),
    LANEWISE_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
    LANEWISE_ERROR(CL_INVALID_IMAGE_SIZE),
    LANEWISE_ERROR(CL_INVALID_SAMPLER),
    LANEWISE_ERROR(CL_INVALID_BINARY),
    LANEWISE_ERROR(CL_INVALID_BUILD_OPTIONS),
    LANEWISE_ERROR(CL_INVALID_PROGRAM),
    LANEWISE_ERROR(CL_INVALID_PROGRAM_EXECUTABLE),
    LANEWISE_ERROR(CL_INVALID_KERNEL_NAME),
    LANEWISE_ERROR(CL_INVALID_KERNEL_DEFINITION),
    LANEWISE_ERROR(CL_INVALID_KERNEL),
    LANEWISE_ERROR(CL_INVALID_ARG_INDEX),
    LANEWISE_ERROR(CL_INVALID_ARG_VALUE),
    LANEWISE_ERROR(CL_INVALID_ARG_SIZE),
    LANEWISE_ERROR(CL_INVALID_KERNEL_ARGS),
    LANEWISE_ERROR(CL_INVALID_WORK_DIMENSION),
    LANEWISE_ERROR(CL_INVALID_WORK_GROUP_SIZE),
    LANEWISE_ERROR(CL_INVALID_WORK_ITEM_SIZE),
    LANEWISE_ERROR(CL_INVALID_GLOBAL_OFFSET),
    LANEWISE_ERROR(CL_INVALID_EVENT_WAIT_LIST),
    LANEWISE_ERROR(CL_INVALID_EVENT),
    LANEWISE_ERROR(CL_INVALID_OPERATION),
    LANEWISE_ERROR(CL_INVALID_GL_OBJECT),
    LANEWISE_ERROR(CL_INVALID_BUFFER_SIZE),
    LANEWISE_ERROR(CL_INVALID_MIP_LEVEL),
    LANEWISE_ERROR(CL_INVALID_GLOBAL_WORK_SIZE),
    LANEWISE_ERROR(CL_INVALID_PROPERTY),
    LANEWISE_ERROR(CL_INVALID_IMAGE_DESCRIPTOR),
    LANEWISE_ERROR(CL_INVALID_COMPILER_OPTIONS),
    LANEWISE_ERROR(CL_INVALID_LINKER_OPTIONS),
    LANEWISE_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT),
    LANEWISE_ERROR(CL_INVALID_PIPE_SIZE),
    LANEWISE_ERROR(CL_INVALID_DEVICE_QUEUE),
    LANEWISE_ERROR(CL_INVALID_SPEC_ID),
    LANEWISE_ERROR(CL_MAX_SIZE_RESTRICTION_EXCEEDED),
};
#undef LANEWISE_ERROR

std::string infoText(auto query) {
  size_t size = 0;
  if (query(0, nullptr, &size) != CL_SUCCESS)
    return {};
  std::string text(size, '\0');
  if (query(size, text.data(), nullptr) != CL_SUCCESS)
    return {};
  return text.c_str(); // without the terminating null
}

} // namespace

std::string errorName(cl_int code) {
  for (const auto &[value, name] : errorNames)
    if (value == code)
      return name;
  return "OpenCL error " + std::to_string(code);
}

void check(cl_int code, const std::string &what) {
  if (code != CL_SUCCESS)
    throw Failure(what + " failed: " + errorName(code));
}

std::string platformText(cl_platform_id platform, cl_platform_info param) {
  return infoText([&](size_t size, void *value, size_t *sizeReturn) {
    return clGetPlatformInfo(platform, param, size, value, sizeReturn);
  });
}

std::string deviceText(cl_device_id device, cl_device_info param) {
  return infoText([&](size_t size, void *value, size_t *sizeReturn) {
    return clGetDeviceInfo(device, param, size, value, sizeReturn);
  });
}

std::string namedSource(const std::string &path, const std::string &text) {
  std::string name;
  for (char c : path) {
    if (c == '"' || c == '\\')
      name += '\\';
    name += c;
  }
  return "#line 1 \"" + name + "\"\n" + text;
}

std::string languageOption(const std::string &path, const std::string &options) {
  if (std::filesystem::path(path).extension() != ".clcpp" ||
      options.find("-cl-std=") != std::string::npos)
    return {};
  return "-cl-std=CLC++";
}

std::string includeFolderOption(const std::string &path, const std::string &text) {
  // Only for a source that includes something: builds with -I folders are
  // not cached (clang reads the folders).
  bool includes = false;
  for (size_t start = 0; start < text.size() && !includes;) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = trimmed(std::string_view(text).substr(start, end - start));
    includes = line.starts_with('#') && trimmed(line.substr(1)).starts_with("include");
    start = end + 1;
  }
  if (!includes)
    return {};
  std::string folder = std::filesystem::path(path).parent_path().string();
  if (folder.empty())
    folder = ".";
  if (folder.find('"') != std::string::npos)
    return {}; // the option syntax has no escape for a quote
  return "-I \"" + folder + "\"";
}

std::string buildLog(cl_program program, cl_device_id device) {
  size_t size = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  log = log.c_str();
  while (!log.empty() && log.back() == '\n')
    log.pop_back();
  return log;
}

LanewiseDevice findLanewiseDevice() {
  cl_uint count = 0;
  const cl_int status = clGetPlatformIDs(0, nullptr, &count);
  if (status != CL_SUCCESS || count == 0)
    throw Failure("the OpenCL ICD loader found no platform (" + errorName(status) +
                  "); is liblanewise.so loadable?");
  std::vector<cl_platform_id> platforms(count);
  check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
  for (cl_platform_id platform : platforms) {
    if (platformText(platform, CL_PLATFORM_NAME) != "Lanewise")
      continue;
    LanewiseDevice found{platform, nullptr};
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &found.device, nullptr),
          "clGetDeviceIDs on the Lanewise platform");
    return found;
  }
  throw Failure("the OpenCL ICD loader lists no platform named Lanewise");
}

} // namespace lanewise::cli
