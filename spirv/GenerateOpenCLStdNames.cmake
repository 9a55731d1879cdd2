# SPDX-License-Identifier: Apache-2.0
# Writes OUTPUT, a C++ fragment with the {opcode, name} table of the OpenCL.std
# extended instruction set, from SPIRV-Headers' grammar (INPUT). Script mode:
#   cmake -DINPUT=.../extinst.opencl.std.100.grammar.json -DOUTPUT=... -P GenerateOpenCLStdNames.cmake
cmake_minimum_required(VERSION 3.25)

file(READ "${INPUT}" grammar)
string(JSON count LENGTH "${grammar}" instructions)
math(EXPR last "${count} - 1")
set(out "// Generated from the OpenCL.std grammar by GenerateOpenCLStdNames.cmake. Do not edit.\n")
string(APPEND out "constexpr EnumerantName kOpenCLStdNames[] = {\n")
foreach(i RANGE ${last})
  string(JSON name GET "${grammar}" instructions ${i} opname)
  string(JSON opcode GET "${grammar}" instructions ${i} opcode)
  string(APPEND out "    {${opcode}u, \"${name}\"},\n")
endforeach()
string(APPEND out "};\n")
file(WRITE "${OUTPUT}.tmp" "${out}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
