# SPDX-License-Identifier: Apache-2.0
# Runs a test binary (TESTS) with the checks CHECKS on, over the
# tests FILTER selects, and fails if a test fails or if the checked mode
# reports anything (REPORT receives the text report).
file(REMOVE ${REPORT})
set(ENV{LANEWISE_CHECK} ${CHECKS})
set(ENV{LANEWISE_CHECK_FILE} ${REPORT})
execute_process(COMMAND ${TESTS} --gtest_brief=1 --gtest_filter=${FILTER} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the tests failed under LANEWISE_CHECK=${CHECKS}")
endif()
if(EXISTS ${REPORT})
  file(READ ${REPORT} findings)
  message(FATAL_ERROR "the checked mode reported findings on correct kernels:\n${findings}")
endif()
