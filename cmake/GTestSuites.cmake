# SPDX-License-Identifier: Apache-2.0
# lanewise_gtest_suites(TARGET [PREFIX text] [FILTER gtest-filter]
#                       [ENVIRONMENT VAR=value ...] [LABELS label ...] [TIMEOUT seconds])
#
# Registers one CTest test per GoogleTest test suite of TARGET (its tests
# run in one process with --gtest_filter=SUITE.*), named PREFIX and the
# suite's name ("ArithOps/int", "baseline.ArithOps/int"). The suites are
# listed after each build of TARGET, as gtest_discover_tests lists tests.
# FILTER, a --gtest_filter pattern that selects whole suites, keeps only
# those. ENVIRONMENT, LABELS and TIMEOUT are every test's properties
# (generator expressions allowed).
#
# A suite per process, rather than gtest_discover_tests' test per process:
# a kernel test spends most of its time loading and lowering its program,
# which the tests of a suite share, and CTest's own cost per test adds up
# over thousands. The suite's output names each test that failed;
# `TARGET --gtest_filter=...` runs one test alone.
set(LANEWISE_GTEST_SUITES_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/GTestSuitesList.cmake)

function(lanewise_gtest_suites target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "PREFIX;FILTER;TIMEOUT" "ENVIRONMENT;LABELS")
  string(MAKE_C_IDENTIFIER "${target}_${arg_PREFIX}" name)
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${name}_suites.cmake")
  set(list_file "${CMAKE_CURRENT_BINARY_DIR}/${name}_suites_list.cmake")
  # The properties as CMake code that the listing script pastes in: each
  # value one quoted argument, a list's items separated by ";".
  set(properties "")
  foreach(property ENVIRONMENT LABELS TIMEOUT)
    if(DEFINED arg_${property})
      string(REPLACE "\"" "\\\"" value "${arg_${property}}")
      string(APPEND properties " ${property} \"${value}\"")
    endif()
  endforeach()
  file(GENERATE OUTPUT "${include_file}.properties" CONTENT "${properties}")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -D EXECUTABLE=$<TARGET_FILE:${target}> -D "PREFIX=${arg_PREFIX}"
            -D "FILTER=${arg_FILTER}" -D PROPERTIES_FILE=${include_file}.properties
            -D OUTPUT=${list_file} -P ${LANEWISE_GTEST_SUITES_SCRIPT}
    BYPRODUCTS ${list_file}
    VERBATIM)
  # CTest reads the list when it exists: an unbuilt TARGET has no tests.
  file(WRITE "${include_file}" "if(EXISTS \"${list_file}\")\n  include(\"${list_file}\")\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()
