// SPDX-License-Identifier: Apache-2.0
// lanewise run: builds one kernel from a file, sets its arguments from
// specs, runs it once and prints the buffers asked for.
#include "argument_spec.h"
#include "checks.h"
#include "command_line.h"
#include "commands.h"
#include "errors.h"
#include "help.h"
#include "library.h"
#include "opencl.h"
#include "run_description.h"
#include "text.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace lanewise::cli {

namespace {

namespace fs = std::filesystem;

// Seconds a launch of 'lanewise run' may take before the watchdog stops it.
constexpr int defaultRunTimeout = 60;

std::vector<OptionSpec> runOptions() {
  std::vector<OptionSpec> options{
      {"help", OptionValue::None},
      {"kernel", OptionValue::Required},
      {"global", OptionValue::Required},
      {"local", OptionValue::Required},
      {"build-options", OptionValue::Required},
      {"arg", OptionValue::Required},
      {"args-file", OptionValue::Required},
      {"print", OptionValue::Required},
      {"seed", OptionValue::Required},
  };
  options.insert(options.end(), checkOptions().begin(), checkOptions().end());
  return options;
}

RunDescription describeCommandLine(const CommandLine &commandLine) {
  RunDescription description;
  for (const ParsedOption &option : commandLine.options) {
    const std::string value = option.value.value_or("");
    if (option.name == "kernel")
      description.kernel = value;
    else if (option.name == "global")
      description.global = parseSizes(value, "global");
    else if (option.name == "local")
      description.local = parseSizes(value, "local");
    else if (option.name == "build-options")
      description.buildOptions = value;
    else if (option.name == "arg")
      description.arguments.push_back(parseArgumentSpec(value, ""));
    else if (option.name == "print")
      description.prints.push_back(value);
    else if (option.name == "seed")
      description.seed = parseSeed(value);
    else
      applyCheckOption(option, description.checks);
  }
  if (commandLine.operands.size() > 1)
    throw UsageError("unexpected operand '" + commandLine.operands[1] +
                     "' (one kernel file is run at a time)");
  if (!commandLine.operands.empty())
    description.program = commandLine.operands.front();
  return description;
}

// The run description files the command line names, in order, then the
// command line itself.
RunDescription describeRun(const CommandLine &commandLine) {
  RunDescription description;
  for (const ParsedOption &option : commandLine.options)
    if (option.name == "args-file")
      description = mergeRunDescriptions(std::move(description), readRunDescription(*option.value));
  return mergeRunDescriptions(std::move(description), describeCommandLine(commandLine));
}

void requireComplete(const RunDescription &description) {
  if (!description.program)
    throw UsageError("no kernel file: give FILE.cl or FILE.spv, or a 'program' line in the "
                     "run description");
  if (!description.kernel)
    throw UsageError("no kernel name: give --kernel NAME");
  if (!description.global)
    throw UsageError("no global size: give --global X[,Y[,Z]]");
  if (description.local && description.local->size() != description.global->size())
    throw UsageError("--local has " + std::to_string(description.local->size()) +
                     " dimensions and --global " + std::to_string(description.global->size()));
}

std::string sizesText(const std::vector<size_t> &sizes) {
  std::string text;
  for (size_t size : sizes)
    text += (text.empty() ? "" : ",") + std::to_string(size);
  return text;
}

// ---- The program ----------------------------------------------------------

// A .spv file, or any file that starts with the SPIR-V magic number, is
// SPIR-V; anything else is OpenCL C.
bool isSpirv(const fs::path &path, const std::string &contents) {
  constexpr uint32_t magic = 0x07230203;
  uint32_t first = 0;
  if (contents.size() >= sizeof first)
    std::memcpy(&first, contents.data(), sizeof first);
  return path.extension() == ".spv" || first == magic;
}

Program buildProgram(cl_context context, cl_device_id device, const RunDescription &description) {
  const fs::path &path = *description.program;
  const std::string contents = readWholeFile(path, "the kernel file ");
  const bool spirv = isSpirv(path, contents);
  cl_int status = CL_SUCCESS;
  Program program;
  if (spirv) {
    program.reset(clCreateProgramWithIL(context, contents.data(), contents.size(), &status));
  } else {
    const std::string named = namedSource(path.string(), contents);
    const char *source = named.c_str();
    const size_t length = named.size();
    program.reset(clCreateProgramWithSource(context, 1, &source, &length, &status));
  }
  check(status, "loading '" + path.string() + "'");

  // Source programs keep their argument names and types for
  // clGetKernelArgInfo, and their source lines for the reports (-g).
  std::string options =
      spirv ? "" : "-cl-kernel-arg-info -g " + includeFolderOption(path.string(), contents);
  if (description.buildOptions)
    options += " " + *description.buildOptions;
  if (!spirv)
    options += " " + languageOption(path.string(), options);
  status = clBuildProgram(program.get(), 1, &device, options.c_str(), nullptr, nullptr);
  if (status != CL_SUCCESS) {
    const std::string log = buildLog(program.get(), device);
    throw Failure("building '" + path.string() + "' failed: " + errorName(status) +
                  (log.empty() ? std::string() : "\n" + log));
  }
  return program;
}

std::string programText(cl_program program, cl_program_info param) {
  size_t size = 0;
  clGetProgramInfo(program, param, 0, nullptr, &size);
  std::string text(size, '\0');
  clGetProgramInfo(program, param, size, text.data(), nullptr);
  return text.c_str();
}

Kernel createKernel(cl_program program, const RunDescription &description) {
  cl_int status = CL_SUCCESS;
  Kernel kernel(clCreateKernel(program, description.kernel->c_str(), &status));
  if (status == CL_INVALID_KERNEL_NAME) {
    std::string names = programText(program, CL_PROGRAM_KERNEL_NAMES);
    std::ranges::replace(names, ';', ' ');
    throw UsageError("no kernel '" + *description.kernel + "' in '" +
                     description.program->string() +
                     "' (its kernels: " + (names.empty() ? "none" : names) + ")");
  }
  check(status, "clCreateKernel '" + *description.kernel + "'");
  return kernel;
}

// ---- The kernel's arguments ---------------------------------------------

struct ArgumentInfo {
  unsigned index = 0;
  std::optional<cl_kernel_arg_address_qualifier> address; // absent without arg info
  std::string typeName;                                   // "float*", "uint"; empty without
  std::string name;                                       // empty without

  bool isPointer() const { return !typeName.empty() && typeName.back() == '*'; }

  // The type a pointer points to, or the type of a value; empty when it is
  // not a type that specs can write (a struct, an image).
  std::optional<ValueType> valueType() const {
    std::string text = typeName;
    if (isPointer())
      text.pop_back();
    while (!text.empty() && text.back() == ' ')
      text.pop_back();
    for (std::string_view qualifier : {"const ", "volatile ", "restrict "})
      if (text.starts_with(qualifier))
        text.erase(0, qualifier.size());
    return parseValueType(text);
  }

  std::string label() const { return name.empty() ? "arg" + std::to_string(index) : name; }

  std::string description() const {
    std::string text = "argument " + std::to_string(index);
    if (!name.empty())
      text += " '" + name + "'";
    if (!typeName.empty()) {
      std::string space;
      if (address == CL_KERNEL_ARG_ADDRESS_GLOBAL)
        space = "global ";
      else if (address == CL_KERNEL_ARG_ADDRESS_CONSTANT)
        space = "constant ";
      else if (address == CL_KERNEL_ARG_ADDRESS_LOCAL)
        space = "local ";
      text += " (" + space + typeName + ")";
    }
    return text;
  }
};

std::string argumentInfoText(cl_kernel kernel, unsigned index, cl_kernel_arg_info param) {
  size_t size = 0;
  if (clGetKernelArgInfo(kernel, index, param, 0, nullptr, &size) != CL_SUCCESS)
    return {};
  std::string text(size, '\0');
  if (clGetKernelArgInfo(kernel, index, param, size, text.data(), nullptr) != CL_SUCCESS)
    return {};
  return text.c_str();
}

std::vector<ArgumentInfo> kernelArguments(cl_kernel kernel) {
  cl_uint count = 0;
  check(clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof count, &count, nullptr),
        "clGetKernelInfo(CL_KERNEL_NUM_ARGS)");
  std::vector<ArgumentInfo> arguments(count);
  for (unsigned index = 0; index < count; ++index) {
    ArgumentInfo &argument = arguments[index];
    argument.index = index;
    cl_kernel_arg_address_qualifier address = 0;
    if (clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address, &address,
                           nullptr) == CL_SUCCESS)
      argument.address = address;
    argument.typeName = argumentInfoText(kernel, index, CL_KERNEL_ARG_TYPE_NAME);
    argument.name = argumentInfoText(kernel, index, CL_KERNEL_ARG_NAME);
  }
  return arguments;
}

std::string argumentList(const std::vector<ArgumentInfo> &arguments) {
  std::string text;
  for (const ArgumentInfo &argument : arguments) {
    if (!text.empty())
      text += ", ";
    text += argument.label();
  }
  return text;
}

// As in a C initializer with designators: a named spec goes to the argument
// of that name, one without a name to the argument after the previous
// spec's (argument 0 for the first). Every argument is given exactly once.
std::vector<const ArgumentSpec *> assignSpecs(const std::vector<ArgumentInfo> &arguments,
                                              const RunDescription &description) {
  const std::string kernel = "kernel '" + *description.kernel + "'";
  std::vector<const ArgumentSpec *> assigned(arguments.size(), nullptr);
  size_t nextPosition = 0;
  for (const ArgumentSpec &spec : description.arguments) {
    size_t index = nextPosition;
    if (spec.name.empty()) {
      if (index >= arguments.size())
        throw UsageError(kernel + " takes " + std::to_string(arguments.size()) + " arguments (" +
                         argumentList(arguments) + "); '" + spec.text + "' would be argument " +
                         std::to_string(index));
    } else {
      const auto found = std::ranges::find(arguments, spec.name, &ArgumentInfo::name);
      if (found == arguments.end())
        throw UsageError(kernel + " has no argument named '" + spec.name +
                         "' (its arguments: " + argumentList(arguments) + ")" +
                         (arguments.empty() || !arguments[0].name.empty()
                              ? ""
                              : "; argument names are not available, give the arguments in order"));
      index = found - arguments.begin();
    }
    if (assigned[index])
      throw UsageError(arguments[index].description() + " is given twice: '" +
                       assigned[index]->text + "' and '" + spec.text + "'");
    assigned[index] = &spec;
    nextPosition = index + 1;
  }
  for (size_t index = 0; index < arguments.size(); ++index)
    if (!assigned[index])
      throw UsageError(arguments[index].description() + " of " + kernel + " is not given");
  return assigned;
}

// Refuses a spec that does not fit the argument, when the kernel says what
// the argument is. Signedness is not compared: SPIR-V does not record it.
void checkSpecFits(const ArgumentSpec &spec, const ArgumentInfo &argument) {
  const std::string what = argument.description();
  const std::optional<ValueType> type = argument.valueType();
  const std::string typeName = type ? type->name() : std::string("TYPE");
  if (!argument.address || argument.typeName.empty()) {
    if (spec.kind == ArgumentKind::Value && !spec.type)
      throw UsageError(what + ": the kernel does not say its type; write TYPE:" + spec.text);
    return;
  }
  const bool isLocal = *argument.address == CL_KERNEL_ARG_ADDRESS_LOCAL;
  const bool isBuffer = argument.isPointer() && !isLocal;
  switch (spec.kind) {
  case ArgumentKind::Buffer:
    if (!isBuffer)
      throw UsageError(what + " is not a global or constant pointer; '" + spec.text +
                       "' is a buffer");
    if (type && !sameButSignedness(*type, *spec.type))
      throw UsageError(what + " points to " + type->name() + ", the buffer holds " +
                       spec.type->name());
    return;
  case ArgumentKind::Local:
    if (!isLocal)
      throw UsageError(what + " is not a local pointer; '" + spec.text + "' is local memory");
    return;
  case ArgumentKind::Value:
    if (isBuffer)
      throw UsageError(what + " is a pointer; give it a buffer such as buffer:" + typeName +
                       ":COUNT");
    if (isLocal)
      throw UsageError(what + " is a local pointer; give it local:BYTES");
    if (!spec.type && !type)
      throw UsageError(what + " is not a type a value can be written for");
    if (spec.type && type && !sameButSignedness(*type, *spec.type))
      throw UsageError(what + " is " + type->name() + ", the value is given as " +
                       spec.type->name());
    return;
  }
}

// ---- Running ---------------------------------------------------------------

struct PreparedArgument {
  const ArgumentSpec *spec = nullptr;
  ValueType type;
  Buffer buffer;
  size_t bufferSize = 0;
};

PreparedArgument prepareArgument(cl_context context, cl_kernel kernel, const ArgumentSpec &spec,
                                 const ArgumentInfo &argument, uint64_t seed) {
  checkSpecFits(spec, argument);
  PreparedArgument prepared;
  prepared.spec = &spec;
  const std::string what = "setting " + argument.description() + " to '" + spec.text + "'";
  cl_int status = CL_SUCCESS;
  switch (spec.kind) {
  case ArgumentKind::Buffer: {
    prepared.type = *spec.type;
    std::vector<std::byte> contents = bufferContents(spec, seed, argument.index);
    prepared.bufferSize = contents.size();
    prepared.buffer.reset(clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                         contents.size(), contents.data(), &status));
    check(status, "clCreateBuffer of " + std::to_string(contents.size()) + " bytes for " +
                      argument.description());
    cl_mem memory = prepared.buffer.get();
    status = clSetKernelArg(kernel, argument.index, sizeof memory, &memory);
    break;
  }
  case ArgumentKind::Local:
    status = clSetKernelArg(kernel, argument.index, spec.localBytes, nullptr);
    break;
  case ArgumentKind::Value: {
    prepared.type = spec.type ? *spec.type : *argument.valueType();
    const std::vector<std::byte> bytes = valueBytes(spec, prepared.type);
    status = clSetKernelArg(kernel, argument.index, bytes.size(), bytes.data());
    break;
  }
  }
  check(status, what);
  return prepared;
}

// The indices of the buffers to print, in the order asked.
std::vector<size_t> printedArguments(const std::vector<ArgumentInfo> &arguments,
                                     const std::vector<const ArgumentSpec *> &specs,
                                     const std::vector<std::string> &prints) {
  std::vector<size_t> indices;
  for (const std::string &print : prints) {
    size_t index = 0;
    const bool isNumber =
        !print.empty() && std::ranges::all_of(print, [](char c) { return c >= '0' && c <= '9'; });
    if (isNumber) {
      index = std::stoul(print);
      if (index >= arguments.size())
        throw UsageError("cannot print argument " + print + ": the kernel has " +
                         std::to_string(arguments.size()) + " arguments");
    } else {
      const auto found = std::ranges::find(arguments, print, &ArgumentInfo::name);
      if (found == arguments.end())
        throw UsageError("cannot print '" + print +
                         "': no argument has that name (the "
                         "arguments: " +
                         argumentList(arguments) + ")");
      index = found - arguments.begin();
    }
    if (specs[index]->kind != ArgumentKind::Buffer)
      throw UsageError("cannot print " + arguments[index].description() +
                       ": only buffers can be printed");
    indices.push_back(index);
  }
  return indices;
}

void enqueueAndWait(cl_command_queue queue, cl_kernel kernel, const RunDescription &description) {
  const std::vector<size_t> &global = *description.global;
  const size_t *local = description.local ? description.local->data() : nullptr;
  cl_event event = nullptr;
  const cl_int status = clEnqueueNDRangeKernel(queue, kernel, static_cast<cl_uint>(global.size()),
                                               nullptr, global.data(), local, 0, nullptr, &event);
  std::string sizes = "global " + sizesText(global);
  if (description.local)
    sizes += ", local " + sizesText(*description.local);
  check(status, "clEnqueueNDRangeKernel (" + sizes + ")");
  const Event owned(event);
  // A command that failed makes clWaitForEvents answer
  // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST; its own status says why.
  const cl_int waited = clWaitForEvents(1, &event);
  cl_int executionStatus = CL_COMPLETE;
  check(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof executionStatus,
                       &executionStatus, nullptr),
        "clGetEventInfo");
  if (executionStatus < 0)
    throw Failure("kernel '" + *description.kernel + "' failed: " + errorName(executionStatus) +
                  " (the report above says why)");
  check(waited, "running kernel '" + *description.kernel + "'");
}

void printBuffer(cl_command_queue queue, const ArgumentInfo &argument,
                 const PreparedArgument &prepared) {
  std::vector<std::byte> contents(prepared.bufferSize);
  check(clEnqueueReadBuffer(queue, prepared.buffer.get(), CL_TRUE, 0, contents.size(),
                            contents.data(), 0, nullptr, nullptr),
        "reading " + argument.description());
  std::string line = argument.label() + " = {";
  const size_t elementSize = prepared.type.size();
  for (size_t offset = 0; offset < contents.size(); offset += elementSize) {
    if (offset)
      line += ", ";
    line += formatValue(prepared.type, contents.data() + offset);
  }
  line += "}\n";
  std::fputs(line.c_str(), stdout);
}

// The library's explanation of an API error (the context's pfn_notify),
// printed as it comes: the failure reported after it names only the code.
void CL_CALLBACK printNotification(const char *message, const void *, size_t, void *) {
  std::fprintf(stderr, "lanewise run: %s\n", message);
}

int run(const RunDescription &description) {
  // The watchdog is on unless the environment or --timeout says otherwise,
  // so that a kernel that never ends does not hang the command.
  CheckSettings settings = description.checks;
  if (!settings.timeout && !std::getenv("LANEWISE_TIMEOUT"))
    settings.timeout = std::to_string(defaultRunTimeout);
  settings.applyToEnvironment();
  selectLanewiseOnly();
  const LanewiseDevice lanewise = findLanewiseDevice();
  cl_int status = CL_SUCCESS;
  const Context context(
      clCreateContext(nullptr, 1, &lanewise.device, printNotification, nullptr, &status));
  check(status, "clCreateContext");
  const Queue queue(
      clCreateCommandQueueWithProperties(context.get(), lanewise.device, nullptr, &status));
  check(status, "clCreateCommandQueueWithProperties");

  const Program program = buildProgram(context.get(), lanewise.device, description);
  const Kernel kernel = createKernel(program.get(), description);
  const std::vector<ArgumentInfo> arguments = kernelArguments(kernel.get());
  const std::vector<const ArgumentSpec *> specs = assignSpecs(arguments, description);
  const std::vector<size_t> printed = printedArguments(arguments, specs, description.prints);

  std::vector<PreparedArgument> prepared;
  for (const ArgumentInfo &argument : arguments)
    prepared.push_back(prepareArgument(context.get(), kernel.get(), *specs[argument.index],
                                       argument, description.seed.value_or(1)));
  enqueueAndWait(queue.get(), kernel.get(), description);
  for (size_t index : printed)
    printBuffer(queue.get(), arguments[index], prepared[index]);
  return exitSuccess;
}

} // namespace

int runCommand(std::span<char *const> arguments) {
  const CommandLine commandLine = parseCommandLine(arguments, runOptions());
  if (hasOption(commandLine, "help"))
    return printHelp("run");
  const RunDescription description = describeRun(commandLine);
  requireComplete(description);
  return run(description);
}

} // namespace lanewise::cli
