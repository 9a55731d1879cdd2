// SPDX-License-Identifier: Apache-2.0
// The checked mode's tests' helpers (check_fixture.h): the JSON report read
// back, the BUG lines of cl/bugs.cl, and deterministic runs.
#include "check_fixture.h"

#include <fstream>
#include <iterator>

namespace lanewise::test {
namespace {

// Work-groups in order on one thread: the first finding is predictable.
const bool deterministic = [] { return setenv("LANEWISE_DETERMINISTIC", "1", 1) == 0; }();

std::string stringField(const std::string &json, const std::string &key) {
  const std::string marker = "\"" + key + "\":\"";
  const size_t at = json.find(marker);
  if (at == std::string::npos)
    return "";
  std::string value;
  for (size_t i = at + marker.size(); i < json.size() && json[i] != '"'; ++i)
    value += json[i] == '\\' ? json[++i] : json[i];
  return value;
}

long numberField(const std::string &json, const std::string &key) {
  const std::string marker = "\"" + key + "\":";
  const size_t at = json.find(marker);
  return at == std::string::npos ? -1 : std::strtol(json.c_str() + at + marker.size(), nullptr, 10);
}

std::vector<long> arrayField(const std::string &json, const std::string &key) {
  const std::string marker = "\"" + key + "\":[";
  const size_t at = json.find(marker);
  std::vector<long> values;
  if (at == std::string::npos)
    return values;
  const char *p = json.c_str() + at + marker.size();
  while (*p && *p != ']') {
    char *end;
    values.push_back(std::strtol(p, &end, 10));
    p = *end == ',' ? end + 1 : end;
  }
  return values;
}

} // namespace

std::vector<Finding> readFindings(const std::string &path) {
  std::vector<Finding> findings;
  std::ifstream file(path);
  for (std::string line; std::getline(file, line);) {
    Finding f;
    f.kind = stringField(line, "kind");
    f.addressSpace = stringField(line, "address_space");
    f.message = stringField(line, "message");
    f.kernel = stringField(line, "kernel");
    f.opcode = stringField(line, "opcode");
    f.file = stringField(line, "file");
    f.line = numberField(line, "line");
    f.globalId = arrayField(line, "global_id");
    findings.push_back(f);
  }
  return findings;
}

long markedLine(const std::string &name) {
  std::ifstream file(LANEWISE_CHECK_SOURCE);
  std::vector<std::string> lines;
  for (std::string line; std::getline(file, line);)
    lines.push_back(line);
  long kernelLine = -1;
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].find("kernel void " + name + "(") != std::string::npos)
      kernelLine = static_cast<long>(i);
  if (kernelLine < 0)
    return -1;
  // The nearest BUG marker after the kernel's start, else before it.
  for (size_t i = kernelLine; i < lines.size() && lines[i] != "}"; ++i)
    if (lines[i].find("// BUG") != std::string::npos)
      return static_cast<long>(i) + 1;
  for (long i = kernelLine; i >= 0; --i)
    if (lines[i].find("// BUG") != std::string::npos)
      return i + 1;
  return -1;
}

std::vector<char> readBinary(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

std::vector<int> iota(int n, int first) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = first + i;
  return v;
}

std::string buildName(const ::testing::TestParamInfo<const char *> &info) {
  const std::string name = info.param;
  return name == "bugs" ? std::string("O2") : name.substr(5);
}

} // namespace lanewise::test
