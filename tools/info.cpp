// SPDX-License-Identifier: Apache-2.0
// lanewise info: the platform, its device and the checks the environment
// enables.
#include "checks.h"
#include "command_line.h"
#include "commands.h"
#include "errors.h"
#include "help.h"
#include "library.h"
#include "opencl.h"

#include <CL/cl_ext.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace lanewise::cli {

namespace {

constexpr std::array<OptionSpec, 1> infoOptions{{{"help", OptionValue::None}}};

void field(std::string_view label, std::string_view value, int indent = 2) {
  const int width = 30 - indent;
  std::printf("%*s%-*.*s %.*s\n", indent, "", width, static_cast<int>(label.size()), label.data(),
              static_cast<int>(value.size()), value.data());
}

// A list of words (extensions, features) on as many lines as it takes, the
// continuation lines under the first word.
void wrappedField(std::string_view label, std::string_view words, int indent = 2) {
  constexpr size_t lineWidth = 100;
  constexpr size_t valueColumn = 31;
  std::string line;
  bool first = true;
  auto flush = [&] {
    if (first)
      field(label, line, indent);
    else
      std::printf("%*s%s\n", static_cast<int>(valueColumn), "", line.c_str());
    first = false;
    line.clear();
  };
  size_t start = 0;
  while (start < words.size()) {
    size_t end = words.find(' ', start);
    if (end == std::string_view::npos)
      end = words.size();
    const std::string_view word = words.substr(start, end - start);
    if (!line.empty() && valueColumn + line.size() + 1 + word.size() > lineWidth)
      flush();
    if (!word.empty())
      line += (line.empty() ? "" : " ") + std::string(word);
    start = end + 1;
  }
  if (!line.empty() || first)
    flush();
}

std::string bytes(cl_ulong size) {
  static constexpr std::array<const char *, 4> units{"KiB", "MiB", "GiB", "TiB"};
  std::string text = std::to_string(size) + " bytes";
  double scaled = static_cast<double>(size);
  const char *unit = nullptr;
  for (const char *next : units) {
    if (scaled < 1024)
      break;
    scaled /= 1024;
    unit = next;
  }
  if (unit) {
    char human[32];
    std::snprintf(human, sizeof human, " (%.1f %s)", scaled, unit);
    text += human;
  }
  return text;
}

std::string versionText(cl_version version) {
  return std::to_string(CL_VERSION_MAJOR(version)) + "." +
         std::to_string(CL_VERSION_MINOR(version));
}

std::string nameVersions(cl_device_id device, cl_device_info param, bool withNames) {
  std::string text;
  for (const cl_name_version &item : deviceValues<cl_name_version>(device, param)) {
    if (!text.empty())
      text += withNames ? " " : ", ";
    text += withNames ? std::string(item.name) : versionText(item.version);
  }
  return text;
}

std::string joined(const auto &values, std::string_view separator = ", ") {
  std::string text;
  for (const auto &value : values) {
    if (!text.empty())
      text += separator;
    if constexpr (std::is_arithmetic_v<std::decay_t<decltype(value)>>)
      text += std::to_string(value);
    else
      text += value;
  }
  return text;
}

std::string yesNo(bool value) { return value ? "yes" : "no"; }

std::string svmText(cl_device_svm_capabilities capabilities) {
  std::vector<std::string> names;
  if (capabilities & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)
    names.emplace_back("coarse-grain buffer");
  if (capabilities & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)
    names.emplace_back("fine-grain buffer");
  if (capabilities & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM)
    names.emplace_back("fine-grain system");
  if (capabilities & CL_DEVICE_SVM_ATOMICS)
    names.emplace_back("atomics");
  return names.empty() ? "none" : joined(names);
}

std::string deviceTypeText(cl_device_type type) {
  std::vector<std::string> names;
  if (type & CL_DEVICE_TYPE_CPU)
    names.emplace_back("CPU");
  if (type & CL_DEVICE_TYPE_GPU)
    names.emplace_back("GPU");
  if (type & CL_DEVICE_TYPE_ACCELERATOR)
    names.emplace_back("accelerator");
  if (type & CL_DEVICE_TYPE_CUSTOM)
    names.emplace_back("custom");
  if (type & CL_DEVICE_TYPE_DEFAULT)
    names.emplace_back("default");
  return names.empty() ? "none" : joined(names);
}

void printPlatform(cl_platform_id platform) {
  field("Platform", platformText(platform, CL_PLATFORM_NAME), 0);
  field("Vendor", platformText(platform, CL_PLATFORM_VENDOR));
  field("Version", platformText(platform, CL_PLATFORM_VERSION));
  field("Profile", platformText(platform, CL_PLATFORM_PROFILE));
  wrappedField("Extensions", platformText(platform, CL_PLATFORM_EXTENSIONS));
}

void printDevice(cl_device_id device) {
  field("Device", deviceText(device, CL_DEVICE_NAME), 0);
  field("Vendor", deviceText(device, CL_DEVICE_VENDOR));
  field("Version", deviceText(device, CL_DEVICE_VERSION));
  field("Driver version", deviceText(device, CL_DRIVER_VERSION));
  field("Type", deviceTypeText(deviceValue<cl_device_type>(device, CL_DEVICE_TYPE)));
  field("OpenCL C version", deviceText(device, CL_DEVICE_OPENCL_C_VERSION));
  field("OpenCL C versions", nameVersions(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, false));
  wrappedField("OpenCL C features", nameVersions(device, CL_DEVICE_OPENCL_C_FEATURES, true));
  field("IL versions", deviceText(device, CL_DEVICE_IL_VERSION));
  wrappedField("Extensions", deviceText(device, CL_DEVICE_EXTENSIONS));
  field("Compiler available", yesNo(deviceValue<cl_bool>(device, CL_DEVICE_COMPILER_AVAILABLE)));
  field("Compute units", std::to_string(deviceValue<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS)));
  field("Address bits", std::to_string(deviceValue<cl_uint>(device, CL_DEVICE_ADDRESS_BITS)));
  field("Global memory", bytes(deviceValue<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE)));
  field("Largest allocation", bytes(deviceValue<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE)));
  field("Local memory", bytes(deviceValue<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE)));
  field("Constant buffer",
        bytes(deviceValue<cl_ulong>(device, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE)));
  field("Kernel parameters", bytes(deviceValue<size_t>(device, CL_DEVICE_MAX_PARAMETER_SIZE)));
  field("Printf buffer", bytes(deviceValue<size_t>(device, CL_DEVICE_PRINTF_BUFFER_SIZE)));
  field("SVM",
        svmText(deviceValue<cl_device_svm_capabilities>(device, CL_DEVICE_SVM_CAPABILITIES)));
  field("Max work-group size",
        std::to_string(deviceValue<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE)));
  field("Max work-item sizes", joined(deviceValues<size_t>(device, CL_DEVICE_MAX_WORK_ITEM_SIZES)));
  field("Work-group size multiple",
        std::to_string(deviceValue<size_t>(device, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE)));
  field("Sub-group sizes", joined(deviceValues<size_t>(device, CL_DEVICE_SUB_GROUP_SIZES_INTEL)));
  field("Max sub-groups",
        std::to_string(deviceValue<cl_uint>(device, CL_DEVICE_MAX_NUM_SUB_GROUPS)));
}

std::string variable(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

bool flagSet(const char *name) {
  const std::string value = variable(name);
  return !value.empty() && value != "0";
}

bool processorHasAvx2() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  // F16C from CPUID leaf 1, as runtime/isa.cpp reads it.
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C);
  return __builtin_cpu_supports("avx2") && f16c;
#else
  return false;
#endif
}

void printChecks() {
  const std::string list = variable("LANEWISE_CHECK");
  const EnabledChecks enabled = enabledChecks(list);
  std::string checks = enabled.checks.empty() ? "none" : joined(enabled.checks);
  checks += list.empty() ? " (LANEWISE_CHECK is not set)" : " (LANEWISE_CHECK=" + list + ")";
  field("Checks", checks, 0);
  if (!enabled.unknownChecks.empty())
    field("Unknown checks", joined(enabled.unknownChecks));
  const std::string reportFile = variable("LANEWISE_CHECK_FILE");
  field("Report file", reportFile.empty() ? "standard error" : reportFile);
  const std::string jsonFile = variable("LANEWISE_CHECK_JSON");
  field("JSON findings file", jsonFile.empty() ? "none" : jsonFile);
  field("Abort on a finding", yesNo(flagSet("LANEWISE_CHECK_ABORT")));
  field("Deterministic", yesNo(flagSet("LANEWISE_DETERMINISTIC")), 0);
  // As the library chooses its handlers (runtime/isa.h).
  const bool baseline = variable("LANEWISE_ISA") == "baseline";
  const bool avx2 = !baseline && processorHasAvx2();
  field("Vector instructions",
        std::string(avx2 ? "AVX2, F16C" : "baseline x86-64 (SSE2)") +
            (baseline ? " (LANEWISE_ISA=baseline)" : ""),
        0);
}

} // namespace

int infoCommand(std::span<char *const> arguments) {
  const CommandLine commandLine = parseCommandLine(arguments, infoOptions);
  if (hasOption(commandLine, "help"))
    return printHelp("info");
  if (!commandLine.operands.empty())
    throw UsageError("unexpected operand '" + commandLine.operands.front() + "'");

  const std::filesystem::path library = selectLanewiseOnly();
  const LanewiseDevice lanewise = findLanewiseDevice();
  field("Library", library.string(), 0);
  printPlatform(lanewise.platform);
  printDevice(lanewise.device);
  printChecks();
  return exitSuccess;
}

} // namespace lanewise::cli
