# SPDX-License-Identifier: Apache-2.0
# Sanitizer builds: -DLANEWISE_SANITIZE=address,undefined or -DLANEWISE_SANITIZE=thread
# instruments everything this project compiles (the library, the translator, the
# command line and the tests). scripts/sanitize.sh builds and runs the suite
# under each.
#
# Tests that run programs this project does not build (python3, clinfo, cmake,
# the shell) preload the sanitizer's runtime into them, so that the library
# they load finds it: lanewise_sanitize_uninstrumented_test(NAME...) sets that
# up. Their own leaks are not ours, so leak detection is off in them.
#
# Sets LANEWISE_SANITIZER_ENV, the sanitizer options as environment
# variables, for the tests whose command is not a program built here.

set(LANEWISE_SANITIZE "" CACHE STRING
    "Sanitizers to instrument with: address,undefined or thread (empty: none)")
set(LANEWISE_SANITIZER_ENV "")
set(LANEWISE_SANITIZER_UNINSTRUMENTED_ENV "")
set(LANEWISE_SANITIZER_SCRIPT_ENV "")

if(LANEWISE_SANITIZE)
  string(REPLACE "," ";" sanitizers "${LANEWISE_SANITIZE}")
  foreach(sanitizer IN LISTS sanitizers)
    if(NOT sanitizer MATCHES "^(address|undefined|thread)$")
      message(FATAL_ERROR "LANEWISE_SANITIZE: unknown sanitizer '${sanitizer}' "
                          "(address, undefined or thread)")
    endif()
  endforeach()
  if("thread" IN_LIST sanitizers AND "address" IN_LIST sanitizers)
    message(FATAL_ERROR "LANEWISE_SANITIZE: thread and address cannot be combined")
  endif()

  # Every undefined-behaviour report fails the test that caused it.
  add_compile_options(-fsanitize=${LANEWISE_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${LANEWISE_SANITIZE})
  # clang links its runtimes statically into programs and not at all into
  # shared libraries; liblanewise.so (-Wl,--no-undefined) and the programs
  # that load it must share one runtime: the shared one, found through the
  # programs' run path. GCC links its shared runtimes already.
  # LANEWISE_SANITIZER_RUNTIME_FOLDER: where clang's shared runtimes are.
  set(LANEWISE_SANITIZER_RUNTIME_FOLDER "")
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    add_link_options(-shared-libsan)
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} --print-runtime-dir
                    OUTPUT_VARIABLE LANEWISE_SANITIZER_RUNTIME_FOLDER OUTPUT_STRIP_TRAILING_WHITESPACE)
    add_link_options(-Wl,-rpath,${LANEWISE_SANITIZER_RUNTIME_FOLDER})
  endif()

  set(suppressions ${PROJECT_SOURCE_DIR}/tests/sanitizers)
  set(preload)
  if("address" IN_LIST sanitizers)
    list(APPEND preload asan)
    set(asan_options
        "check_initialization_order=1:strict_init_order=1:suppressions=${suppressions}/asan.supp")
    list(APPEND LANEWISE_SANITIZER_ENV "ASAN_OPTIONS=${asan_options}"
         "LSAN_OPTIONS=suppressions=${suppressions}/lsan.supp:print_suppressions=0")
    list(APPEND LANEWISE_SANITIZER_UNINSTRUMENTED_ENV "ASAN_OPTIONS=${asan_options}:detect_leaks=0")
  endif()
  # clang's address runtime holds the undefined-behaviour one.
  if("undefined" IN_LIST sanitizers AND NOT (LANEWISE_SANITIZER_RUNTIME_FOLDER AND "address" IN_LIST sanitizers))
    list(APPEND preload ubsan)
    list(APPEND LANEWISE_SANITIZER_ENV "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
  endif()
  if("thread" IN_LIST sanitizers)
    list(APPEND preload tsan)
    list(APPEND LANEWISE_SANITIZER_ENV
         "TSAN_OPTIONS=suppressions=${suppressions}/tsan.supp:halt_on_error=1:second_deadlock_stack=1")
  endif()

  set(preload_paths)
  foreach(runtime IN LISTS preload)
    if(LANEWISE_SANITIZER_RUNTIME_FOLDER)
      if(runtime STREQUAL "ubsan")
        set(runtime "ubsan_standalone")
      endif()
      set(path "${LANEWISE_SANITIZER_RUNTIME_FOLDER}/libclang_rt.${runtime}.so")
      if(NOT EXISTS "${path}")
        set(path "${LANEWISE_SANITIZER_RUNTIME_FOLDER}/libclang_rt.${runtime}-x86_64.so")
      endif()
    else()
      execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=lib${runtime}.so
                      OUTPUT_VARIABLE path OUTPUT_STRIP_TRAILING_WHITESPACE)
    endif()
    get_filename_component(path "${path}" REALPATH)
    if(NOT EXISTS "${path}")
      message(FATAL_ERROR "LANEWISE_SANITIZE: the ${runtime} runtime of ${CMAKE_CXX_COMPILER} "
                          "was not found")
    endif()
    list(APPEND preload_paths "${path}")
  endforeach()
  string(REPLACE ";" ":" preload_paths "${preload_paths}")
  # A test script preloads the runtimes into the uninstrumented programs it
  # runs that load Lanewise (clinfo, python3), named by
  # LANEWISE_SANITIZER_PRELOAD. The script's own shell is preloaded too,
  # except under ThreadSanitizer, whose runtime crashes bash.
  set(LANEWISE_SANITIZER_SCRIPT_ENV ${LANEWISE_SANITIZER_UNINSTRUMENTED_ENV}
      "LANEWISE_SANITIZER_PRELOAD=${preload_paths}")
  if(NOT "thread" IN_LIST sanitizers)
    list(APPEND LANEWISE_SANITIZER_SCRIPT_ENV "LD_PRELOAD=${preload_paths}")
  endif()
  list(APPEND LANEWISE_SANITIZER_UNINSTRUMENTED_ENV "LD_PRELOAD=${preload_paths}")
  message(STATUS "Sanitizers: ${LANEWISE_SANITIZE}")
endif()

# Test programs built here carry the options themselves
# (tests/sanitizers/default_options.cpp): the ENVIRONMENT of a GoogleTest
# suite's test holds the loader's settings.
function(lanewise_sanitize_test_programs)
  if(NOT LANEWISE_SANITIZE)
    return()
  endif()
  foreach(target IN LISTS ARGN)
    if(TARGET ${target})
      target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/tests/sanitizers/default_options.cpp)
      target_compile_definitions(${target} PRIVATE
        LANEWISE_SANITIZER_SUPPRESSIONS="${PROJECT_SOURCE_DIR}/tests/sanitizers")
    endif()
  endforeach()
endfunction()

# Gives `tests` the sanitizer options and the environment `extra` (a list
# variable's name).
function(lanewise_sanitize_tests_with extra)
  if(NOT LANEWISE_SANITIZE)
    return()
  endif()
  foreach(test IN LISTS ARGN)
    # A later assignment wins: ASAN_OPTIONS without leak detection.
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT ${LANEWISE_SANITIZER_ENV} ${${extra}})
  endforeach()
endfunction()

# Tests whose command is a shell or cmake script (see
# LANEWISE_SANITIZER_SCRIPT_ENV above).
function(lanewise_sanitize_script_test)
  lanewise_sanitize_tests_with(LANEWISE_SANITIZER_SCRIPT_ENV ${ARGN})
endfunction()

# Tests whose command is a program this project does not build.
function(lanewise_sanitize_uninstrumented_test)
  lanewise_sanitize_tests_with(LANEWISE_SANITIZER_UNINSTRUMENTED_ENV ${ARGN})
endfunction()
