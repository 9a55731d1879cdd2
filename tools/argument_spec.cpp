// SPDX-License-Identifier: Apache-2.0
#include "argument_spec.h"

#include "errors.h"
#include "text.h"

#include <cctype>
#include <cstring>
#include <limits>
#include <random>

namespace lanewise::cli {

namespace {

namespace fs = std::filesystem;

// The first `parts - 1` colon-separated fields, and the rest as the last one.
std::vector<std::string_view> splitFields(std::string_view text, size_t parts) {
  std::vector<std::string_view> fields;
  while (fields.size() + 1 < parts) {
    const size_t colon = text.find(':');
    if (colon == std::string_view::npos)
      break;
    fields.push_back(text.substr(0, colon));
    text.remove_prefix(colon + 1);
  }
  fields.push_back(text);
  return fields;
}

bool isIdentifier(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0])))
    return false;
  for (char c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
      return false;
  return true;
}

ValueType parseType(std::string_view name) {
  if (const auto type = parseValueType(trimmed(name)))
    return *type;
  throw UsageError("unknown type '" + std::string(name) +
                   "' (the types: char, uchar, short, ushort, int, uint, long, ulong, half, "
                   "float, double, and their vectors such as float4)");
}

size_t parseCount(std::string_view text, std::string_view what) {
  text = trimmed(text);
  size_t value = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c)) ||
        value > (std::numeric_limits<size_t>::max() - 9) / 10)
      throw UsageError(std::string(what) + " '" + std::string(text) +
                       "' is not a positive whole number");
    value = value * 10 + (c - '0');
  }
  if (text.empty() || value == 0)
    throw UsageError(std::string(what) + " '" + std::string(text) +
                     "' is not a positive whole number");
  return value;
}

void parseBufferInit(ArgumentSpec &spec, std::string_view init, const fs::path &baseFolder) {
  const size_t equals = init.find('=');
  const std::string_view keyword = trimmed(init.substr(0, equals));
  const std::string_view value = equals == std::string_view::npos ? "" : init.substr(equals + 1);
  if (equals == std::string_view::npos || trimmed(value).empty())
    throw UsageError("'" + std::string(init) +
                     "' is not fill=, range=, random=, values= or file= with a value");
  if (keyword == "file") {
    spec.init = BufferInit::File;
    spec.file = baseFolder / fs::path(std::string(trimmed(value)));
    return;
  }
  spec.operands = splitList(value);
  const size_t given = spec.operands.size();
  if (keyword == "fill") {
    spec.init = BufferInit::Fill;
    if (given != 1 && given != spec.type->components)
      throw UsageError("fill= takes one value or " + std::to_string(spec.type->components) +
                       " (one " + spec.type->name() + ")");
  } else if (keyword == "range") {
    spec.init = BufferInit::Range;
    if (given > 2)
      throw UsageError("range= takes START or START,STEP");
  } else if (keyword == "random") {
    spec.init = BufferInit::Random;
    if (given != 2)
      throw UsageError("random= takes LO,HI");
  } else if (keyword == "values") {
    spec.init = BufferInit::Values;
  } else {
    throw UsageError("unknown initializer '" + std::string(keyword) +
                     "=' (fill=, range=, random=, values= or file=)");
  }
}

void parseBuffer(ArgumentSpec &spec, std::string_view body, const fs::path &baseFolder) {
  const std::vector<std::string_view> fields = splitFields(body, 3);
  if (fields.size() < 2)
    throw UsageError("a buffer is buffer:TYPE:COUNT[:INIT]");
  spec.kind = ArgumentKind::Buffer;
  spec.type = parseType(fields[0]);
  if (trimmed(fields[1]) != "*")
    spec.count = parseCount(fields[1], "buffer count");
  if (fields.size() == 3)
    parseBufferInit(spec, fields[2], baseFolder);
  if (!spec.count && spec.init != BufferInit::Values && spec.init != BufferInit::File)
    throw UsageError("the count '*' needs values= or file= to count");
}

void parseLocal(ArgumentSpec &spec, std::string_view body) {
  spec.kind = ArgumentKind::Local;
  const std::vector<std::string_view> fields = splitFields(body, 2);
  if (fields.size() == 1) {
    spec.localBytes = parseCount(fields[0], "local size");
    return;
  }
  const ValueType type = parseType(fields[0]);
  const size_t count = parseCount(fields[1], "local count");
  if (count > std::numeric_limits<size_t>::max() / type.size())
    throw UsageError("local memory of " + std::to_string(count) + " " + type.name() +
                     " is too large");
  spec.localBytes = count * type.size();
}

// Each operand of a fill= or a value as numbers of the type: one per
// component, a single value standing for all of them.
std::vector<Number> componentNumbers(const std::vector<std::string> &operands,
                                     const ValueType &type) {
  if (operands.size() != 1 && operands.size() != type.components)
    throw UsageError(type.name() + " takes " +
                     (type.components == 1 ? std::string("one value")
                                           : "one value or " + std::to_string(type.components)) +
                     ", not " + std::to_string(operands.size()));
  std::vector<Number> numbers;
  for (unsigned component = 0; component < type.components; ++component)
    numbers.push_back(parseNumber(type.scalar, operands[operands.size() == 1 ? 0 : component]));
  return numbers;
}

class BufferWriter {
public:
  BufferWriter(const ValueType &type, size_t count)
      : type_(type), bytes_(checkedSize(type, count)) {}

  size_t scalarCount() const { return bytes_.size() / type_.size() * type_.components; }

  // Scalar `index` of the buffer, counting the components of vectors one by
  // one (a 3-component vector's padding is skipped).
  void store(size_t index, const Number &number) {
    const size_t element = index / type_.components;
    const size_t component = index % type_.components;
    storeNumber(type_.scalar, number,
                bytes_.data() + element * type_.size() + component * type_.scalarSize());
  }

  std::vector<std::byte> take() { return std::move(bytes_); }

private:
  static size_t checkedSize(const ValueType &type, size_t count) {
    if (count > std::numeric_limits<size_t>::max() / type.size())
      throw UsageError("a buffer of " + std::to_string(count) + " " + type.name() +
                       " is too large");
    return count * type.size();
  }

  ValueType type_;
  std::vector<std::byte> bytes_;
};

std::vector<std::byte> readFile(const fs::path &path) {
  const std::string text = readWholeFile(path, "");
  std::vector<std::byte> bytes(text.size());
  std::memcpy(bytes.data(), text.data(), text.size());
  return bytes;
}

size_t valuesCount(const ArgumentSpec &spec) {
  const size_t components = spec.type->components;
  const size_t given = spec.operands.size();
  if (given % components != 0)
    throw UsageError(std::to_string(given) + " values do not make whole " + spec.type->name() +
                     " elements");
  if (spec.count && given != *spec.count * components)
    throw UsageError("values= gives " + std::to_string(given) + " values for " +
                     std::to_string(*spec.count) + " " + spec.type->name() +
                     (components > 1 ? " (" + std::to_string(*spec.count * components) + " values)"
                                     : std::string()));
  return given / components;
}

// Uniform draws that depend only on the 64-bit outputs of mt19937_64, which
// the C++ standard fixes, so a seed gives the same buffers everywhere.
Number randomNumber(std::mt19937_64 &generator, ScalarKind kind, const Number &low,
                    const Number &high) {
  const uint64_t bits = generator();
  Number number;
  if (isReal(kind)) {
    number.real = low.real + (high.real - low.real) * (static_cast<double>(bits >> 11) * 0x1p-53);
  } else {
    const unsigned __int128 span = static_cast<unsigned __int128>(high.integer - low.integer) + 1;
    number.integer = low.integer + static_cast<__int128>(bits % span);
  }
  return number;
}

struct Range {
  Number start;
  Number step;
};

Range rangeOperands(const ArgumentSpec &spec) {
  const ScalarKind kind = spec.type->scalar;
  Range range{parseNumber(kind, spec.operands[0]), {}};
  range.step.integer = 1;
  range.step.real = 1;
  if (spec.operands.size() == 2)
    range.step = parseNumber(kind, spec.operands[1]);
  return range;
}

Number rangeNumber(ScalarKind kind, const Range &range, size_t index) {
  const Number &start = range.start;
  const Number &step = range.step;
  Number number;
  if (isReal(kind))
    number.real = start.real + static_cast<double>(index) * step.real;
  else
    number.integer = start.integer + static_cast<__int128>(index) * step.integer;
  return number;
}

void fillBuffer(BufferWriter &writer, const ArgumentSpec &spec, uint64_t seed,
                unsigned argumentIndex) {
  const ScalarKind kind = spec.type->scalar;
  const size_t components = spec.type->components;
  switch (spec.init) {
  case BufferInit::Zero:
  case BufferInit::File:
    return;
  case BufferInit::Fill: {
    const std::vector<Number> element = componentNumbers(spec.operands, *spec.type);
    for (size_t index = 0; index < writer.scalarCount(); ++index)
      writer.store(index, element[index % components]);
    return;
  }
  case BufferInit::Values:
    for (size_t index = 0; index < writer.scalarCount(); ++index)
      writer.store(index, parseNumber(kind, spec.operands[index]));
    return;
  case BufferInit::Range: {
    const Range range = rangeOperands(spec);
    for (size_t index = 0; index < writer.scalarCount(); ++index)
      writer.store(index, rangeNumber(kind, range, index));
    return;
  }
  case BufferInit::Random: {
    const Number low = parseNumber(kind, spec.operands[0]);
    const Number high = parseNumber(kind, spec.operands[1]);
    std::seed_seq sequence{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                           argumentIndex};
    std::mt19937_64 generator(sequence);
    for (size_t index = 0; index < writer.scalarCount(); ++index)
      writer.store(index, randomNumber(generator, kind, low, high));
    return;
  }
  }
}

// Checks what a buffer's contents need without making them: the values fit
// the type (a range's first and last do, so all between do), the counts
// agree, the file is there.
void validateBuffer(const ArgumentSpec &spec) {
  const ValueType &type = *spec.type;
  std::vector<std::byte> scratch(type.size());
  auto fits = [&](const Number &number) { storeNumber(type.scalar, number, scratch.data()); };
  switch (spec.init) {
  case BufferInit::Zero:
    break;
  case BufferInit::Fill:
    for (const Number &number : componentNumbers(spec.operands, type))
      fits(number);
    break;
  case BufferInit::Values:
    valuesCount(spec);
    for (const std::string &value : spec.operands)
      fits(parseNumber(type.scalar, value));
    return;
  case BufferInit::Range: {
    const Range range = rangeOperands(spec);
    fits(range.start);
    fits(rangeNumber(type.scalar, range, *spec.count * type.components - 1));
    break;
  }
  case BufferInit::Random: {
    const Number low = parseNumber(type.scalar, spec.operands[0]);
    const Number high = parseNumber(type.scalar, spec.operands[1]);
    fits(low);
    fits(high);
    if (isReal(type.scalar) ? !(low.real <= high.real) : low.integer > high.integer)
      throw UsageError("random=" + spec.operands[0] + "," + spec.operands[1] + ": LO is above HI");
    break;
  }
  case BufferInit::File: {
    std::error_code error;
    const auto size = fs::file_size(spec.file, error);
    if (error)
      throw UsageError("cannot read '" + spec.file.string() + "': " + error.message());
    const size_t elementSize = type.size();
    const std::string file = "'" + spec.file.string() + "'";
    if (size == 0 || size % elementSize != 0)
      throw UsageError(file + " holds " + std::to_string(size) + " bytes, not a whole number of " +
                       type.name() + " (" + std::to_string(elementSize) + " bytes each)");
    if (spec.count && size != *spec.count * elementSize)
      throw UsageError(file + " holds " + std::to_string(size / elementSize) + " " + type.name() +
                       ", not " + std::to_string(*spec.count) +
                       " (write '*' as the count to take them all)");
    return;
  }
  }
  if (*spec.count > std::numeric_limits<size_t>::max() / type.size())
    throw UsageError("a buffer of " + std::to_string(*spec.count) + " " + type.name() +
                     " is too large");
}

std::vector<std::byte> encodeValue(const ArgumentSpec &spec, const ValueType &type) {
  BufferWriter writer(type, 1);
  const std::vector<Number> numbers = componentNumbers(spec.operands, type);
  for (size_t component = 0; component < numbers.size(); ++component)
    writer.store(component, numbers[component]);
  return writer.take();
}

std::string argumentText(const ArgumentSpec &spec) {
  return "argument '" + (spec.name.empty() ? "" : spec.name + "=") + spec.text + "': ";
}

} // namespace

ArgumentSpec parseArgumentSpec(std::string_view text, const fs::path &baseFolder) {
  ArgumentSpec spec;
  text = trimmed(text);
  const size_t equals = text.find('=');
  const size_t colon = text.find(':');
  if (equals != std::string_view::npos && equals < colon &&
      isIdentifier(trimmed(text.substr(0, equals)))) {
    spec.name = trimmed(text.substr(0, equals));
    text = trimmed(text.substr(equals + 1));
  }
  spec.text = text;
  try {
    if (text.empty())
      throw UsageError("empty specification");
    const std::vector<std::string_view> fields = splitFields(text, 2);
    const std::string_view head = trimmed(fields[0]);
    if (fields.size() == 1) {
      spec.operands = splitList(text); // a value of the kernel's type
    } else if (head == "buffer") {
      parseBuffer(spec, fields[1], baseFolder);
      validateBuffer(spec);
    } else if (head == "local") {
      parseLocal(spec, fields[1]);
    } else {
      spec.type = parseType(head);
      spec.operands = splitList(fields[1]);
      encodeValue(spec, *spec.type); // the values are known: check them now
    }
  } catch (const UsageError &error) {
    throw UsageError(argumentText(spec) + error.what());
  }
  return spec;
}

std::vector<std::byte> bufferContents(const ArgumentSpec &spec, uint64_t seed,
                                      unsigned argumentIndex) {
  try {
    validateBuffer(spec);
    if (spec.init == BufferInit::File)
      return readFile(spec.file);
    const size_t count = spec.init == BufferInit::Values ? valuesCount(spec) : *spec.count;
    BufferWriter writer(*spec.type, count);
    fillBuffer(writer, spec, seed, argumentIndex);
    return writer.take();
  } catch (const UsageError &error) {
    throw UsageError(argumentText(spec) + error.what());
  }
}

std::vector<std::byte> valueBytes(const ArgumentSpec &spec, const ValueType &type) {
  try {
    return encodeValue(spec, type);
  } catch (const UsageError &error) {
    throw UsageError(argumentText(spec) + error.what());
  }
}

} // namespace lanewise::cli
