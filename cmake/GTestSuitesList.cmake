# SPDX-License-Identifier: Apache-2.0
# Writes OUTPUT: an add_test per GoogleTest suite of EXECUTABLE (selected by
# FILTER when given), named PREFIX and the suite, with the properties in
# PROPERTIES_FILE. Run after each build by lanewise_gtest_suites
# (GTestSuites.cmake).
set(arguments --gtest_list_tests)
if(FILTER)
  list(APPEND arguments "--gtest_filter=${FILTER}")
endif()
execute_process(COMMAND "${EXECUTABLE}" ${arguments}
                OUTPUT_VARIABLE listing RESULT_VARIABLE status TIMEOUT 60)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cannot list the tests of ${EXECUTABLE}: ${status}\n${listing}")
endif()
file(READ "${PROPERTIES_FILE}" properties)
set(script "")
string(REPLACE "\n" ";" lines "${listing}")
foreach(line IN LISTS lines)
  # A suite's line has no indent: "Suite." or "Suite.  # TypeParam = int".
  if(line MATCHES "^([^ #][^ ]*)\\.( .*)?$")
    set(suite "${CMAKE_MATCH_1}")
    if(suite MATCHES "^DISABLED_")
      continue()
    endif()
    set(test "${PREFIX}${suite}")
    string(APPEND script
           "add_test([=[${test}]=] \"${EXECUTABLE}\" [=[--gtest_filter=${suite}.*]=])\n")
    if(properties)
      string(APPEND script "set_tests_properties([=[${test}]=] PROPERTIES${properties})\n")
    endif()
  endif()
endforeach()
file(WRITE "${OUTPUT}" "${script}")
