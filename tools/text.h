// Text helpers shared by the parsers of specs and run descriptions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lanewise::cli {

// Without the blanks at either end.
std::string_view trimmed(std::string_view text);

// The comma-separated items of a list, each trimmed.
std::vector<std::string> splitList(std::string_view list);

} // namespace lanewise::cli
