// SPDX-License-Identifier: Apache-2.0
// Finding liblanewise.so and making it the only platform the OpenCL ICD
// loader offers.
#pragma once

#include <filesystem>

namespace lanewise::cli {

// $LANEWISE_LIBRARY if set; else the installed library next to the
// executable (../lib/<multiarch>/liblanewise.so or ../lib/liblanewise.so
// from its folder); else the build tree's library. Throws Failure, naming
// the places it looked, when none exists.
std::filesystem::path findLanewiseLibrary();

// Points OCL_ICD_VENDORS at the library: ocl-icd reads the variable at the
// first OpenCL call, so this must come before any. Returns the library.
std::filesystem::path selectLanewiseOnly();

} // namespace lanewise::cli
