# Runs the kernel test binary with checks on (LANEWISE_CHECK from the test's
# environment) and fails if it fails or if the checked mode reports anything.
file(REMOVE ${REPORT})
set(ENV{LANEWISE_CHECK_FILE} ${REPORT})
execute_process(COMMAND ${TESTS} --gtest_brief=1 RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the kernel tests failed under LANEWISE_CHECK=$ENV{LANEWISE_CHECK}")
endif()
if(EXISTS ${REPORT})
  file(READ ${REPORT} findings)
  message(FATAL_ERROR "the checked mode reported findings on correct kernels:\n${findings}")
endif()
