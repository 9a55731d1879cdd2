# SPDX-License-Identifier: Apache-2.0
# Runs one data-driven case of 'lanewise run' and compares what it did with
# what the case expects.
#
#   cmake -DLANEWISE=path/to/lanewise -DCASE=cases/NAME.run -DWORK_DIR=dir
#         [-DSPIRV_AS=path/to/spirv-as] -P run_case.cmake
#
# The kernel is cases/NAME.cl, else cases/NAME.spvasm (assembled here into
# WORK_DIR/NAME.spv, as SPIR-V 1.N when a line "; Version: 1.N" says so,
# else 1.2), else whatever the run description's 'program' line
# names. The run description (see 'lanewise run --help') may hold:
#
#   expect NAME = {...}       the line 'print NAME' must print; every printed
#                             buffer needs one (whitespace does not count)
#   expect-exit N             the exit status (default 0)
#   expect-stderr TEXT        text that standard error must contain
#   expect-finding KIND LINE [X[,Y[,Z]]]
#                             a finding of the checked mode: the run writes
#                             its findings as JSON lines ({"kind": ...,
#                             "line": ..., "global_id": [x, y, z], ...}) to
#                             LANEWISE_CHECK_JSON, and the distinct (kind,
#                             line) pairs there must be exactly the expected
#                             ones. KIND is the finding's "kind"
#                             (out-of-bounds, misaligned, division-by-zero,
#                             ...). With X[,Y[,Z]] (missing ids are 0), the
#                             first finding of that kind and line must be
#                             that work-item's. A case without expect-finding
#                             lines must have no finding.
cmake_minimum_required(VERSION 3.25)

foreach(variable LANEWISE CASE WORK_DIR)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "run_case.cmake needs -D${variable}=...")
  endif()
endforeach()

get_filename_component(case_name ${CASE} NAME_WE)
get_filename_component(case_dir ${CASE} DIRECTORY)
file(MAKE_DIRECTORY ${WORK_DIR})

# The details go out as they are (FATAL_ERROR would rewrap them).
function(fail message)
  message(NOTICE "case ${case_name}: ${message}")
  message(FATAL_ERROR "case ${case_name} failed")
endfunction()

# ---- The expectations --------------------------------------------------------
file(STRINGS ${CASE} case_lines)
set(expected_exit 0)
set(expected_names)
set(expected_stderr)
set(expected_findings)
set(expected_work_items)
foreach(line IN LISTS case_lines)
  # Comments as 'lanewise run' reads them: from a '#' at the start or after a blank.
  string(REGEX REPLACE "(^|[ \t])#.*$" "" line "${line}")
  if(line MATCHES "^[ \t]*expect[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*=(.*)$")
    set(name ${CMAKE_MATCH_1})
    string(REGEX REPLACE "[ \t]" "" value "${CMAKE_MATCH_2}")
    list(APPEND expected_names ${name})
    set(expected_value_${name} "${value}")
  elseif(line MATCHES "^[ \t]*expect-exit[ \t]+([0-9]+)[ \t]*$")
    set(expected_exit ${CMAKE_MATCH_1})
  elseif(line MATCHES "^[ \t]*expect-stderr[ \t]+(.*[^ \t])[ \t]*$")
    list(APPEND expected_stderr "${CMAKE_MATCH_1}")
  elseif(line MATCHES
         "^[ \t]*expect-finding[ \t]+([A-Za-z_-]+)[ \t]+([0-9]+)([ \t]+([0-9]+(,[0-9]+)?(,[0-9]+)?))?[ \t]*$")
    set(finding "${CMAKE_MATCH_1}:${CMAKE_MATCH_2}")
    list(APPEND expected_findings "${finding}")
    if(NOT "${CMAKE_MATCH_4}" STREQUAL "")
      # The work-item as x,y,z, the missing ids 0.
      string(REPLACE "," ";" ids "${CMAKE_MATCH_4}")
      list(LENGTH ids count)
      while(count LESS 3)
        list(APPEND ids 0)
        math(EXPR count "${count} + 1")
      endwhile()
      list(JOIN ids "," ids)
      list(APPEND expected_work_items "${finding}")
      string(MAKE_C_IDENTIFIER "${finding}" key)
      set(expected_work_item_${key} "${ids}")
    endif()
  elseif(line MATCHES "^[ \t]*expect")
    set(forms "expect NAME = {...}, expect-exit N, expect-stderr TEXT, ")
    string(APPEND forms "expect-finding KIND LINE [X[,Y[,Z]]]")
    fail("cannot read '${line}' (${forms})")
  endif()
endforeach()

# ---- The kernel file -----------------------------------------------------------
set(program)
if(EXISTS ${case_dir}/${case_name}.cl)
  set(program ${case_dir}/${case_name}.cl)
elseif(EXISTS ${case_dir}/${case_name}.spvasm)
  if(NOT SPIRV_AS)
    fail("spirv-as is needed to assemble ${case_name}.spvasm")
  endif()
  set(program ${WORK_DIR}/${case_name}.spv)
  # The module's version is its "; Version: 1.N" header line, else 1.2.
  set(target_env spv1.2)
  file(STRINGS ${case_dir}/${case_name}.spvasm version_line LIMIT_COUNT 1
       REGEX "^; Version: 1\\.[0-9]$")
  if(version_line MATCHES "1\\.([0-9])$")
    set(target_env spv1.${CMAKE_MATCH_1})
  endif()
  execute_process(
    COMMAND ${SPIRV_AS} --target-env ${target_env} -o ${program} ${case_dir}/${case_name}.spvasm
    RESULT_VARIABLE status ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    fail("spirv-as failed on ${case_name}.spvasm:\n${errors}")
  endif()
endif()

# ---- The run -------------------------------------------------------------------
set(findings_file ${WORK_DIR}/${case_name}.findings.jsonl)
file(REMOVE ${findings_file})
set(ENV{LANEWISE_CHECK_JSON} ${findings_file})
execute_process(
  COMMAND ${LANEWISE} run ${program} --args-file ${CASE}
  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
set(report "exit status ${status}\n--- standard output:\n${output}--- standard error:\n${errors}")

if(NOT status STREQUAL expected_exit)
  fail("exit status ${status}, expected ${expected_exit}\n${report}")
endif()

foreach(text IN LISTS expected_stderr)
  string(FIND "${errors}" "${text}" position)
  if(position EQUAL -1)
    fail("standard error does not contain '${text}'\n${report}")
  endif()
endforeach()

# Printed buffers: "NAME = {...}" lines.
string(REPLACE "\n" ";" output_lines "${output}")
set(printed_names)
foreach(line IN LISTS output_lines)
  if(line MATCHES "^([A-Za-z_][A-Za-z0-9_]*) = (.*)$")
    set(name ${CMAKE_MATCH_1})
    string(REGEX REPLACE "[ \t]" "" value "${CMAKE_MATCH_2}")
    list(APPEND printed_names ${name})
    if(NOT name IN_LIST expected_names)
      fail("'${name}' is printed but the case expects nothing for it\n${report}")
    endif()
    if(NOT value STREQUAL expected_value_${name})
      fail("${name} = ${value}, expected ${expected_value_${name}}\n${report}")
    endif()
  endif()
endforeach()
foreach(name IN LISTS expected_names)
  if(NOT name IN_LIST printed_names)
    fail("'${name}' is expected but not printed (is there a 'print ${name}' line?)\n${report}")
  endif()
endforeach()

# ---- Findings of the checked mode ------------------------------------------------
set(found_findings)
if(EXISTS ${findings_file})
  file(STRINGS ${findings_file} finding_lines)
  foreach(line IN LISTS finding_lines)
    if(line MATCHES "^[ \t]*$")
      continue()
    endif()
    string(JSON kind ERROR_VARIABLE json_error GET "${line}" kind)
    string(JSON source_line ERROR_VARIABLE json_error_line GET "${line}" line)
    if(json_error OR json_error_line)
      fail("cannot read finding '${line}' of ${findings_file}: ${json_error} ${json_error_line}")
    endif()
    set(finding "${kind}:${source_line}")
    list(APPEND found_findings "${finding}")
    # The work-item of the first finding of each (kind, line).
    string(MAKE_C_IDENTIFIER "${finding}" key)
    if(NOT DEFINED found_work_item_${key})
      set(ids)
      foreach(index 0 1 2)
        string(JSON id ERROR_VARIABLE json_error_id GET "${line}" global_id ${index})
        if(json_error_id)
          set(id "?")
        endif()
        list(APPEND ids ${id})
      endforeach()
      list(JOIN ids "," ids)
      set(found_work_item_${key} "${ids}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES found_findings)
elseif(expected_findings)
  list(JOIN expected_findings ", " expected_text)
  fail("no findings file ${findings_file} was written (expected: ${expected_text})\n${report}")
endif()
list(SORT found_findings)
list(SORT expected_findings)
if(NOT "${found_findings}" STREQUAL "${expected_findings}")
  list(JOIN found_findings ", " found_text)
  list(JOIN expected_findings ", " expected_text)
  fail("findings (KIND:LINE): ${found_text}, expected: ${expected_text}.\n${report}")
endif()
foreach(finding IN LISTS expected_work_items)
  string(MAKE_C_IDENTIFIER "${finding}" key)
  if(NOT "${found_work_item_${key}}" STREQUAL "${expected_work_item_${key}}")
    set(ids "(${found_work_item_${key}}), expected (${expected_work_item_${key}})")
    fail("finding ${finding} is first reported for global id ${ids}.\n${report}")
  endif()
endforeach()

message(STATUS "case ${case_name}: passed")
