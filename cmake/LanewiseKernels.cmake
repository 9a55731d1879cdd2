# SPDX-License-Identifier: Apache-2.0
# Build-time SPIR-V for tests: OpenCL C compiled the way Lanewise compiles it
# (clang-14 -cc1 for spir64, then llvm-spirv-14), and SPIR-V assembly.
#
#   lanewise_compile_cl(<output variable> SOURCE x.cl
#                       [OUTPUT name.spv]
#                       [OPTIONS -O0|-O1|-O2|-O3 -g -cl-std=CL3.0 -DNAME=1 ...]
#                       [TRANSLATOR_OPTIONS --spirv-max-version=1.1 ...]
#                       [TRANSLATOR <target>]
#                       [NO_KERNEL_ARG_TYPE_STRINGS])
#   lanewise_assemble_spvasm(<output variable> SOURCE x.spvasm
#                            [OUTPUT name.spv] [TARGET_ENV spv1.4])
#
# Each sets <output variable> to the .spv it produces under
# ${CMAKE_CURRENT_BINARY_DIR}/kernels; a target that needs the files depends
# on a custom target listing them (add_custom_target(... DEPENDS ...)).
#
# OPTIONS: -O<n> and -cl-std= replace the defaults (-O2, -cl-std=CL2.0); -g
# becomes the debug flags the clang driver passes to -cc1; anything else goes
# to clang -cc1 as is. TRANSLATOR_OPTIONS go to llvm-spirv after the
# defaults (--spirv-max-version=1.4 --spirv-ext=+all, the kernel argument
# type strings, and --spirv-allow-extra-diexpressions, without which
# llvm-spirv-14 aborts on -O2 -g input). TRANSLATOR names an executable
# target that takes llvm-spirv's command line (lanewise-llvm-spirv, the
# translation of clCreateProgramWithSource's builds) to use instead of
# llvm-spirv-14 itself.
include_guard(GLOBAL)

find_program(LANEWISE_CLANG NAMES clang-14 DOC "clang 14, the OpenCL C front end")
find_program(LANEWISE_LLVM_SPIRV NAMES llvm-spirv-14 DOC "the LLVM to SPIR-V translator, version 14")
find_program(LANEWISE_SPIRV_AS NAMES spirv-as DOC "the SPIRV-Tools assembler")

# The extensions of a Lanewise device that change what the OpenCL C headers
# declare. cl_intel_subgroups is not known to clang-14's -cl-ext: its builtins
# are declared when the macro is defined.
set(LANEWISE_CL_EXTENSIONS
    +cl_khr_fp64,+cl_khr_fp16,+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics,+cl_khr_subgroups,+cl_khr_subgroup_extended_types,+cl_khr_subgroup_non_uniform_vote,+cl_khr_subgroup_ballot,+cl_khr_subgroup_non_uniform_arithmetic,+cl_khr_subgroup_shuffle,+cl_khr_subgroup_shuffle_relative,+cl_khr_subgroup_clustered_reduce,+cl_khr_3d_image_writes,+__opencl_c_3d_image_writes
    CACHE INTERNAL "OpenCL C extensions of test kernels")

# The test kernels (tests/kernels/cl/NAME.cl) that llvm-spirv-14 alone
# cannot translate: Lanewise's translator does (as for a program built
# from source), so they need TRANSLATOR lanewise-llvm-spirv.
set(LANEWISE_TRANSLATED_TEST_KERNELS llvm_intrinsics
    CACHE INTERNAL "test kernels that need Lanewise's translator")

function(_lanewise_require_program variable purpose)
  if(NOT ${variable})
    message(FATAL_ERROR "${purpose} is needed to build test kernels (${variable} not found)")
  endif()
endfunction()

function(lanewise_compile_cl output_variable)
  cmake_parse_arguments(PARSE_ARGV 1 arg "NO_KERNEL_ARG_TYPE_STRINGS" "SOURCE;OUTPUT;TRANSLATOR"
                        "OPTIONS;TRANSLATOR_OPTIONS")
  _lanewise_require_program(LANEWISE_CLANG "clang-14")
  _lanewise_require_program(LANEWISE_LLVM_SPIRV "llvm-spirv-14")
  if(NOT arg_SOURCE)
    message(FATAL_ERROR "lanewise_compile_cl: SOURCE is required")
  endif()
  get_filename_component(source ${arg_SOURCE} ABSOLUTE)

  set(optimization -O2)
  set(standard -cl-std=CL2.0)
  set(extra_options)
  foreach(option IN LISTS arg_OPTIONS)
    if(option MATCHES "^-O[0-3s]?$")
      set(optimization ${option})
    elseif(option MATCHES "^-cl-std=")
      set(standard ${option})
    elseif(option STREQUAL "-g")
      list(APPEND extra_options -debug-info-kind=constructor -dwarf-version=5)
    else()
      list(APPEND extra_options ${option})
    endif()
  endforeach()

  if(arg_OUTPUT)
    set(output ${CMAKE_CURRENT_BINARY_DIR}/kernels/${arg_OUTPUT})
  else()
    get_filename_component(name ${source} NAME_WE)
    set(output ${CMAKE_CURRENT_BINARY_DIR}/kernels/${name}${optimization}.spv)
  endif()
  set(bitcode ${output}.bc)

  set(translator_options --spirv-max-version=1.4 --spirv-ext=+all --spirv-allow-extra-diexpressions)
  if(NOT arg_NO_KERNEL_ARG_TYPE_STRINGS)
    list(APPEND translator_options --preserve-ocl-kernel-arg-type-metadata-through-string)
  endif()

  set(translator ${LANEWISE_LLVM_SPIRV})
  set(translator_target)
  if(arg_TRANSLATOR)
    set(translator $<TARGET_FILE:${arg_TRANSLATOR}>)
    set(translator_target ${arg_TRANSLATOR})
  endif()

  get_filename_component(output_directory ${output} DIRECTORY)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${output_directory}
    COMMAND ${LANEWISE_CLANG} -cc1 -triple spir64 -emit-llvm-bc ${optimization} ${standard}
            -finclude-default-header -cl-ext=${LANEWISE_CL_EXTENSIONS} -Dcl_intel_subgroups
            ${extra_options} ${source} -o ${bitcode}
    COMMAND ${translator} ${translator_options} ${arg_TRANSLATOR_OPTIONS} ${bitcode}
            -o ${output}
    DEPENDS ${source} ${translator_target}
    COMMENT "Compiling ${arg_SOURCE} to SPIR-V (${optimization} ${arg_OPTIONS})"
    VERBATIM)
  set(${output_variable} ${output} PARENT_SCOPE)
endfunction()

function(lanewise_assemble_spvasm output_variable)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SOURCE;OUTPUT;TARGET_ENV" "")
  _lanewise_require_program(LANEWISE_SPIRV_AS "spirv-as")
  if(NOT arg_SOURCE)
    message(FATAL_ERROR "lanewise_assemble_spvasm: SOURCE is required")
  endif()
  get_filename_component(source ${arg_SOURCE} ABSOLUTE)
  if(arg_OUTPUT)
    set(output ${CMAKE_CURRENT_BINARY_DIR}/kernels/${arg_OUTPUT})
  else()
    get_filename_component(name ${source} NAME_WE)
    set(output ${CMAKE_CURRENT_BINARY_DIR}/kernels/${name}.spv)
  endif()
  set(target_env)
  if(arg_TARGET_ENV)
    set(target_env --target-env ${arg_TARGET_ENV})
  endif()
  get_filename_component(output_directory ${output} DIRECTORY)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${output_directory}
    COMMAND ${LANEWISE_SPIRV_AS} ${target_env} ${source} -o ${output}
    DEPENDS ${source}
    COMMENT "Assembling ${arg_SOURCE}"
    VERBATIM)
  set(${output_variable} ${output} PARENT_SCOPE)
endfunction()

# The test kernels' SPIR-V assembly: NAME.spvasm -> NAME.spv, for SPIR-V 1.2,
# or 1.4 when NAME ends in _spv14 (it uses SPIR-V 1.4 instructions). Appends
# the outputs to <output list variable>.
function(lanewise_assemble_test_kernels output_list)
  set(outputs ${${output_list}})
  foreach(source IN LISTS ARGN)
    get_filename_component(name ${source} NAME_WE)
    set(environment spv1.2)
    if(name MATCHES "_spv14$")
      set(environment spv1.4)
    endif()
    lanewise_assemble_spvasm(spv SOURCE ${source} TARGET_ENV ${environment} OUTPUT ${name}.spv)
    list(APPEND outputs ${spv})
  endforeach()
  set(${output_list} ${outputs} PARENT_SCOPE)
endfunction()
