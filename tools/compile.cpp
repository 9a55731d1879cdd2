// SPDX-License-Identifier: Apache-2.0
// lanewise compile: OpenCL C to SPIR-V on the command line, through the
// library's own compiler driver (clang, the translator's fix-ups, the disk
// cache), validated and built for the Lanewise device. It also speaks the
// OpenCL-CTS offline-compiler interface (test_common/harness/
// cl_offline_compiler-interface.txt): --source, --output, --mode,
// --cl-device-info, and the build options after "--".
#include "command_line.h"
#include "commands.h"
#include "errors.h"
#include "help.h"
#include "library.h"
#include "opencl.h"
#include "text.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lanewise::cli {

namespace {

namespace fs = std::filesystem;

std::vector<OptionSpec> compileOptions() {
  return {
      {"help", OptionValue::None},
      {"output", OptionValue::Required, 'o'},
      {"build-options", OptionValue::Required},
      {"source", OptionValue::Required},
      {"mode", OptionValue::Required},
      {"cl-device-info", OptionValue::Required},
  };
}

struct CompileRequest {
  std::string source; // a path, or "-" for standard input
  std::optional<std::string> output;
  std::string buildOptions;
  std::optional<std::string> deviceInfo;
};

// A CTS device info file: KEY=VALUE lines, values possibly in double
// quotes, '#' comments.
std::map<std::string, std::string> readDeviceInfo(const std::string &path) {
  std::ifstream stream(path);
  if (!stream)
    throw UsageError("cannot read the device info file '" + path + "'");
  std::map<std::string, std::string> values;
  std::string line;
  while (std::getline(stream, line)) {
    const std::string_view text = trimmed(line);
    if (text.empty() || text.front() == '#')
      continue;
    const size_t equals = text.find('=');
    if (equals == std::string_view::npos)
      throw UsageError("device info file '" + path + "': '" + std::string(text) +
                       "' is not KEY=VALUE");
    std::string_view value = trimmed(text.substr(equals + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
      value = value.substr(1, value.size() - 2);
    values[std::string(trimmed(text.substr(0, equals)))] = std::string(value);
  }
  return values;
}

// The device the CTS describes must be one Lanewise's SPIR-V suits: 64-bit
// addresses (the only kind Lanewise's device has). A different device name
// is worth a warning: the module is built and validated for Lanewise.
void checkDeviceInfo(const std::string &path, cl_device_id device) {
  const auto values = readDeviceInfo(path);
  const auto bits = values.find("CL_DEVICE_ADDRESS_BITS");
  const std::string deviceBits = std::to_string(deviceValue<cl_uint>(device, CL_DEVICE_ADDRESS_BITS));
  if (bits != values.end() && bits->second != deviceBits)
    throw Failure("device info file '" + path + "' asks for " + bits->second +
                  "-bit addresses; the Lanewise device has " + deviceBits + "-bit addresses");
  const auto name = values.find("CL_DEVICE_NAME");
  const std::string deviceName = deviceText(device, CL_DEVICE_NAME);
  if (name != values.end() && name->second != deviceName)
    std::fprintf(stderr,
                 "lanewise compile: warning: device info file '%s' describes '%s'; the "
                 "module is compiled for '%s'\n",
                 path.c_str(), name->second.c_str(), deviceName.c_str());
}

CompileRequest describeCompile(const CommandLine &commandLine) {
  CompileRequest request;
  std::vector<std::string> sources;
  for (const ParsedOption &option : commandLine.options) {
    const std::string value = option.value.value_or("");
    if (option.name == "output")
      request.output = value;
    else if (option.name == "build-options")
      request.buildOptions += (request.buildOptions.empty() ? "" : " ") + value;
    else if (option.name == "source")
      sources.push_back(value);
    else if (option.name == "cl-device-info")
      request.deviceInfo = value;
    else if (option.name == "mode" && value != "spir-v" && value != "binary")
      throw UsageError("unknown mode '" + value + "' (spir-v or binary)");
  }
  // The first operand is the source unless --source gave it; the others
  // (after "--", where the CTS passes them) are build options.
  std::vector<std::string> operands = commandLine.operands;
  if (sources.empty() && !operands.empty()) {
    sources.push_back(operands.front());
    operands.erase(operands.begin());
  }
  if (sources.empty())
    throw UsageError("no source file: give FILE.cl, or - for standard input");
  if (sources.size() > 1)
    throw UsageError("more than one source file (one program is compiled at a time)");
  request.source = sources.front();
  for (const std::string &option : operands)
    request.buildOptions += (request.buildOptions.empty() ? "" : " ") + option;
  if (!request.output) {
    if (request.source == "-")
      throw UsageError("no output file for standard input: give -o FILE (- for standard output)");
    request.output = fs::path(request.source).replace_extension(".spv").string();
  }
  return request;
}

std::string readSource(const std::string &path) {
  if (path == "-")
    return {std::istreambuf_iterator<char>(std::cin), {}};
  return readWholeFile(path, "the source file ");
}

std::vector<unsigned char> programBinary(cl_program program) {
  size_t size = 0;
  check(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
        "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)");
  std::vector<unsigned char> binary(size);
  unsigned char *pointers[] = {binary.data()};
  check(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof pointers, pointers, nullptr),
        "clGetProgramInfo(CL_PROGRAM_BINARIES)");
  return binary;
}

// The binary without what the library keeps for checked rebuilds (the
// OpSourceExtension notes "Lanewise: source ..." and "Lanewise: build
// options ..."): the module written is the program's SPIR-V alone, the same
// whether the source came from a file or from standard input.
std::vector<unsigned char> withoutKeptSource(const std::vector<unsigned char> &binary) {
  constexpr uint32_t sourceExtension = 4; // OpSourceExtension
  constexpr size_t header = 5;            // words
  if (binary.size() % 4 || binary.size() < header * 4)
    return binary;
  std::vector<uint32_t> words(binary.size() / 4);
  std::memcpy(words.data(), binary.data(), binary.size());
  std::vector<uint32_t> kept(words.begin(), words.begin() + header);
  for (size_t at = header; at < words.size();) {
    const uint32_t count = words[at] >> 16;
    if (count == 0 || at + count > words.size()) { // malformed: left as it is
      kept.insert(kept.end(), words.begin() + std::ptrdiff_t(at), words.end());
      break;
    }
    std::string text;
    if ((words[at] & 0xffff) == sourceExtension)
      text.assign(reinterpret_cast<const char *>(&words[at + 1]), (count - 1) * 4);
    if (!text.starts_with("Lanewise: source ") && !text.starts_with("Lanewise: build options "))
      kept.insert(kept.end(), words.begin() + std::ptrdiff_t(at),
                  words.begin() + std::ptrdiff_t(at + count));
    at += count;
  }
  std::vector<unsigned char> out(kept.size() * 4);
  std::memcpy(out.data(), kept.data(), out.size());
  return out;
}

// Writes through a temporary file beside the output, so that a failed
// write never leaves a partial module where a reader expects a whole one.
void writeOutput(const std::string &path, const std::vector<unsigned char> &bytes) {
  if (path == "-") {
    if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size() ||
        std::fflush(stdout) != 0)
      throw Failure("cannot write the module to standard output");
    return;
  }
  const std::string temporary = path + ".tmp";
  {
    std::ofstream stream(temporary, std::ios::binary | std::ios::trunc);
    stream.write(reinterpret_cast<const char *>(bytes.data()),
                 static_cast<std::streamsize>(bytes.size()));
    if (!stream.flush())
      throw Failure("cannot write '" + temporary + "'");
  }
  std::error_code error;
  fs::rename(temporary, path, error);
  if (error)
    throw Failure("cannot write '" + path + "': " + error.message());
}

int compile(const CompileRequest &request) {
  const std::string source = readSource(request.source);
  selectLanewiseOnly();
  const LanewiseDevice lanewise = findLanewiseDevice();
  if (request.deviceInfo)
    checkDeviceInfo(*request.deviceInfo, lanewise.device);

  cl_int status = CL_SUCCESS;
  const Context context(clCreateContext(nullptr, 1, &lanewise.device, nullptr, nullptr, &status));
  check(status, "clCreateContext");
  const std::string named =
      request.source == "-" ? source : namedSource(request.source, source);
  const char *text = named.c_str();
  const size_t length = named.size();
  const Program program(clCreateProgramWithSource(context.get(), 1, &text, &length, &status));
  check(status, "clCreateProgramWithSource");

  // A build, not only a compilation: the module must be one Lanewise can
  // execute, every kernel lowered, before it is written.
  const std::string options = request.source == "-"
                                  ? request.buildOptions
                                  : includeFolderOption(request.source, source) + " " +
                                        request.buildOptions + " " +
                                        languageOption(request.source, request.buildOptions);
  status = clBuildProgram(program.get(), 1, &lanewise.device, options.c_str(), nullptr, nullptr);
  const std::string log = buildLog(program.get(), lanewise.device);
  const std::string name = request.source == "-" ? "standard input" : "'" + request.source + "'";
  if (status != CL_SUCCESS)
    throw Failure("compiling " + name + " failed: " + errorName(status) +
                  (log.empty() ? std::string() : "\n" + log));
  if (!log.empty())
    std::fprintf(stderr, "%s\n", log.c_str());
  writeOutput(*request.output, withoutKeptSource(programBinary(program.get())));
  return exitSuccess;
}

} // namespace

int compileCommand(std::span<char *const> arguments) {
  const CommandLine commandLine = parseCommandLine(arguments, compileOptions());
  if (hasOption(commandLine, "help"))
    return printHelp("compile");
  return compile(describeCompile(commandLine));
}

} // namespace lanewise::cli
