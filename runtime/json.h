// SPDX-License-Identifier: Apache-2.0
// JSON text for the reports (LANEWISE_CHECK_JSON) and the trace
// (LANEWISE_TRACE).
#pragma once

#include <string>
#include <string_view>

namespace lanewise::runtime {

// `text` as a JSON string, quotes included.
std::string jsonString(std::string_view text);

} // namespace lanewise::runtime
