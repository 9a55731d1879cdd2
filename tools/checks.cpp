// SPDX-License-Identifier: Apache-2.0
#include "checks.h"

#include "errors.h"

#include <algorithm>
#include <array>
#include <cstdlib>

namespace lanewise::cli {

namespace {

constexpr std::array<std::string_view, 7> names{"bounds",    "uninit",    "races",   "barriers",
                                                "subgroups", "alignment", "division"};

constexpr std::array<OptionSpec, 10> options{{
    {"check", OptionValue::Optional},
    {"check-file", OptionValue::Required},
    {"check-json", OptionValue::Required},
    {"check-abort", OptionValue::None},
    {"check-optimize", OptionValue::None},
    {"check-exitcode", OptionValue::Required},
    {"deterministic", OptionValue::None},
    {"timeout", OptionValue::Required},
    {"stats", OptionValue::None},
    {"trace", OptionValue::Required},
}};

int parseExitCode(const std::string &text) {
  char *end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < 0 || value > 255)
    throw UsageError("--check-exitcode takes a status from 0 to 255, not '" + text + "'");
  return static_cast<int>(value);
}

std::vector<std::string> splitList(std::string_view list) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = std::min(list.find(',', start), list.size());
    items.emplace_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

bool isCheckName(std::string_view name) { return std::ranges::find(names, name) != names.end(); }

std::string knownNames() {
  std::string text = "all";
  for (std::string_view name : names)
    text += ", " + std::string(name);
  return text;
}

void setVariable(const char *name, const std::string &value) { ::setenv(name, value.c_str(), 1); }

} // namespace

std::string parseSeconds(const std::string &text) {
  char *end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(value >= 0) || value > 1e9)
    throw UsageError("--timeout takes a number of seconds (0 for none), not '" + text + "'");
  return text;
}

std::span<const std::string_view> checkNames() { return names; }

std::string validateCheckList(std::string_view list) {
  for (const std::string &item : splitList(list)) {
    if (item.empty())
      throw UsageError("empty check name in '" + std::string(list) + "'");
    if (item != "all" && !isCheckName(item))
      throw UsageError("unknown check '" + item + "' (the checks: " + knownNames() + ")");
  }
  return std::string(list);
}

void CheckSettings::applyToEnvironment() const {
  if (checks) {
    setVariable("LANEWISE_CHECK", *checks);
    // PyOpenCL keeps program binaries between runs and would hand back one
    // built without the checks (nor their debug information).
    ::setenv("PYOPENCL_NO_CACHE", "1", 0);
  }
  if (reportFile)
    setVariable("LANEWISE_CHECK_FILE", *reportFile);
  if (jsonFile)
    setVariable("LANEWISE_CHECK_JSON", *jsonFile);
  if (abortOnFinding)
    setVariable("LANEWISE_CHECK_ABORT", "1");
  if (keepOptimisation)
    setVariable("LANEWISE_CHECK_OPTIMIZE", "1");
  if (exitCode)
    setVariable("LANEWISE_CHECK_EXITCODE", std::to_string(*exitCode));
  else if (!std::getenv("LANEWISE_CHECK_EXITCODE"))
    setVariable("LANEWISE_CHECK_EXITCODE", std::to_string(defaultExitCode));
  if (deterministic)
    setVariable("LANEWISE_DETERMINISTIC", "1");
  if (timeout)
    setVariable("LANEWISE_TIMEOUT", *timeout);
  if (stats)
    setVariable("LANEWISE_STATS", "1");
  if (traceFile)
    setVariable("LANEWISE_TRACE", *traceFile);
}

std::span<const OptionSpec> checkOptions() { return options; }

bool applyCheckOption(const ParsedOption &option, CheckSettings &settings) {
  if (option.name == "check")
    settings.checks = validateCheckList(option.value.value_or("all"));
  else if (option.name == "check-file")
    settings.reportFile = *option.value;
  else if (option.name == "check-json")
    settings.jsonFile = *option.value;
  else if (option.name == "check-abort")
    settings.abortOnFinding = true;
  else if (option.name == "check-optimize")
    settings.keepOptimisation = true;
  else if (option.name == "check-exitcode")
    settings.exitCode = parseExitCode(*option.value);
  else if (option.name == "deterministic")
    settings.deterministic = true;
  else if (option.name == "timeout")
    settings.timeout = parseSeconds(*option.value);
  else if (option.name == "stats")
    settings.stats = true;
  else if (option.name == "trace")
    settings.traceFile = *option.value;
  else
    return false;
  return true;
}

EnabledChecks enabledChecks(std::string_view list) {
  EnabledChecks enabled;
  auto enable = [&](std::string_view name) {
    if (std::ranges::find(enabled.checks, name) == enabled.checks.end())
      enabled.checks.emplace_back(name);
  };
  for (const std::string &item : splitList(list)) {
    if (item.empty())
      continue;
    if (item == "all")
      std::ranges::for_each(names, enable);
    else if (isCheckName(item))
      enable(item);
    else
      enabled.unknownChecks.push_back(item);
  }
  // In the documented order, whatever the order of the list.
  std::ranges::sort(enabled.checks, {}, [](const std::string &name) {
    return std::ranges::find(names, name) - names.begin();
  });
  return enabled;
}

} // namespace lanewise::cli
