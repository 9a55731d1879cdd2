// SPDX-License-Identifier: Apache-2.0
// Text helpers shared by the parsers of specs and run descriptions.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace lanewise::cli {

// Without the blanks at either end.
std::string_view trimmed(std::string_view text);

// The comma-separated items of a list, each trimmed.
std::vector<std::string> splitList(std::string_view list);

// The bytes of the file. Throws UsageError "cannot read WHAT'PATH'" (WHAT:
// "the kernel file ", or empty) when it cannot be read.
std::string readWholeFile(const std::filesystem::path &path, const std::string &what);

} // namespace lanewise::cli
