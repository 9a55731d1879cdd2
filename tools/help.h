// SPDX-License-Identifier: Apache-2.0
// The manual pages that --help prints: one for the tool, one per subcommand.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lanewise::cli {

// The page of "info", "exec", "run", "compile", or of the tool for "".
std::optional<std::string_view> helpPage(std::string_view command);

// The same page as man(7) source, for the installed manual pages
// (lanewise.1, lanewise-run.1, ...).
std::string manPage(std::string_view command);
int printManPage(std::string_view command);

// Prints the page to standard output; returns exit status 0.
int printHelp(std::string_view command);

} // namespace lanewise::cli
