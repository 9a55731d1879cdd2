# SPDX-License-Identifier: Apache-2.0
# Writes OUTPUT, a C++ fragment with one table of {value, name} per enum of
# SPIRV-Headers' spirv.json (INPUT) that diagnostics name. Run in script mode:
#   cmake -DINPUT=.../spirv.json -DOUTPUT=.../spirv_enum_names.inc -P GenerateEnumNames.cmake
cmake_minimum_required(VERSION 3.25)

set(kinds SourceLanguage ExecutionModel AddressingModel MemoryModel ExecutionMode StorageClass
          Decoration BuiltIn Capability)

file(READ "${INPUT}" grammar)
string(JSON enum_count LENGTH "${grammar}" spv enum)
math(EXPR last_enum "${enum_count} - 1")
set(out "// Generated from spirv.json by GenerateEnumNames.cmake. Do not edit.\n")
foreach(i RANGE ${last_enum})
  string(JSON enum GET "${grammar}" spv enum ${i})
  string(JSON kind GET "${enum}" Name)
  if(NOT kind IN_LIST kinds)
    continue()
  endif()
  string(JSON values GET "${enum}" Values)
  string(JSON value_count LENGTH "${values}")
  math(EXPR last_value "${value_count} - 1")
  string(APPEND out "constexpr EnumerantName k${kind}Names[] = {\n")
  foreach(j RANGE ${last_value})
    string(JSON enumerant MEMBER "${values}" ${j})
    string(JSON value GET "${values}" ${enumerant})
    string(APPEND out "    {${value}u, \"${enumerant}\"},\n")
  endforeach()
  string(APPEND out "};\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "${out}")
# Keep the timestamp when nothing changed, so that dependants do not rebuild.
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
