// SPDX-License-Identifier: Apache-2.0
// The folder of Lanewise's disk caches: the compiler driver's SPIR-V
// results (spirv/compiler.h) and the native tier's code (runtime/native.h).
#pragma once

#include <filesystem>
#include <optional>

namespace lanewise::runtime {

// $LANEWISE_CACHE_DIR, else $XDG_CACHE_HOME/lanewise, else
// ~/.cache/lanewise; none when LANEWISE_CACHE=0 turns the caches off (or
// no folder is known). The folder may not exist yet.
std::optional<std::filesystem::path> cacheDirectory();

} // namespace lanewise::runtime
