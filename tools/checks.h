// SPDX-License-Identifier: Apache-2.0
// The checked mode and deterministic execution, which the library reads from
// its environment (LANEWISE_CHECK and friends); the command line only sets
// the variables.
#pragma once

#include "command_line.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lanewise::cli {

// Every check the checked mode knows; "all" in a list names them all.
std::span<const std::string_view> checkNames();

// Throws UsageError naming an unknown check. Returns the list as given.
std::string validateCheckList(std::string_view list);
// The watchdog's seconds (0 for none), as --timeout takes them; throws
// UsageError for anything else. Returns the text as given.
std::string parseSeconds(const std::string &text);

struct CheckSettings {
  std::optional<std::string> checks;     // LANEWISE_CHECK
  std::optional<std::string> reportFile; // LANEWISE_CHECK_FILE
  std::optional<std::string> jsonFile;   // LANEWISE_CHECK_JSON
  bool abortOnFinding = false;           // LANEWISE_CHECK_ABORT=1
  bool keepOptimisation = false;         // LANEWISE_CHECK_OPTIMIZE=1
  std::optional<int> exitCode;           // LANEWISE_CHECK_EXITCODE
  bool deterministic = false;            // LANEWISE_DETERMINISTIC=1
  std::optional<std::string> timeout;    // LANEWISE_TIMEOUT, in seconds
  bool stats = false;                    // LANEWISE_STATS=1
  std::optional<std::string> traceFile;  // LANEWISE_TRACE

  // Sets the variables of the settings that are given; leaves the others as
  // the environment has them, except LANEWISE_CHECK_EXITCODE, which is
  // defaultExitCode unless the environment or --check-exitcode sets it.
  void applyToEnvironment() const;
};

// The exit status of 'run' and 'exec' when a kernel had a finding or was
// stopped by the watchdog.
constexpr int defaultExitCode = 3;

// The options that set CheckSettings, shared by 'exec' and 'run'.
std::span<const OptionSpec> checkOptions();

// Applies one option to the settings; false when it is not a check option.
bool applyCheckOption(const ParsedOption &option, CheckSettings &settings);

// What the environment enables, as 'lanewise info' reports it.
struct EnabledChecks {
  std::vector<std::string> checks;        // expanded: "all" becomes every name
  std::vector<std::string> unknownChecks; // names in LANEWISE_CHECK that are not checks
};
EnabledChecks enabledChecks(std::string_view list);

} // namespace lanewise::cli
