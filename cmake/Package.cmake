# SPDX-License-Identifier: Apache-2.0
# The Debian package. In a build folder:
#
#   cpack -G DEB      # lanewise_<version>_amd64.deb
#
# It installs into /usr: the library and its compiler helpers (the compile
# server and the translator) in the multiarch library folder, the ICD
# loader's entry in /etc/OpenCL/vendors, the lanewise command, its manual
# pages and the documentation with the copyright file and the Debian
# changelog. Its dependencies come from dpkg-shlibdeps (oneTBB, LLVM 14,
# clang 14's library, LLVMSPIRVLib, the C++ runtime, and the ICD loader,
# which the lanewise command links). tests/package/package_check.sh makes
# it and runs lintian on it.
include(GNUInstallDirs)

# The package's maintainer. The project has no mail domain of its own:
# lanewise.invalid is a placeholder that can never be a real host (RFC 2606).
set(lanewise_maintainer "Lanewise developers <dev@lanewise.invalid>")

set(lanewise_doc_dir ${CMAKE_INSTALL_DATAROOTDIR}/doc/lanewise)
install(FILES README.md CHANGELOG.md DESTINATION ${lanewise_doc_dir})
install(DIRECTORY docs/ DESTINATION ${lanewise_doc_dir} FILES_MATCHING PATTERN "*.md")
# The licence in Debian's machine-readable copyright format.
install(FILES cmake/debian/copyright DESTINATION ${lanewise_doc_dir})
# The Debian changelog. The package's version has no Debian revision, which
# makes it a native package, and Debian policy (12.7) names a native
# package's Debian changelog changelog.gz, not changelog.Debian.gz.
set(lanewise_debian_changelog ${PROJECT_BINARY_DIR}/debian/changelog.gz)
add_custom_command(
  OUTPUT ${lanewise_debian_changelog}
  COMMAND ${CMAKE_COMMAND} -DVERSION=${PROJECT_VERSION} -DMAINTAINER=${lanewise_maintainer}
          -DCHANGELOG=${PROJECT_SOURCE_DIR}/CHANGELOG.md -DOUTPUT=${lanewise_debian_changelog}
          -P ${PROJECT_SOURCE_DIR}/cmake/debian/GenerateChangelog.cmake
  DEPENDS ${PROJECT_SOURCE_DIR}/CHANGELOG.md ${PROJECT_SOURCE_DIR}/cmake/debian/GenerateChangelog.cmake
  COMMENT "Generating the Debian changelog"
  VERBATIM)
add_custom_target(lanewise_debian_changelog ALL DEPENDS ${lanewise_debian_changelog})
install(FILES ${lanewise_debian_changelog} DESTINATION ${lanewise_doc_dir})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME lanewise)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR Lanewise)
set(CPACK_PACKAGE_CONTACT ${lanewise_maintainer})
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${lanewise_maintainer})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "OpenCL 3.0 platform for CPUs, with a checked mode")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Lanewise is an OpenCL ICD that runs OpenCL kernels on the CPU. It takes
SPIR-V and OpenCL C (through clang-14), lowers each kernel to a lane-vector
bytecode and runs the work-items of a work-group in lockstep as SIMD lanes,
with sub-groups as slices of those lanes.

Its checked mode reports out-of-bounds accesses, races, uninitialised
reads, barrier divergence and sub-group misuse with their source lines.
The lanewise command runs programs and kernels on it and compiles OpenCL C
to SPIR-V, also as the OpenCL-CTS offline compiler.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
# clang-14 compiles OpenCL C source programs; SPIR-V programs need nothing.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-14")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "clinfo")
# The virtual package of OpenCL drivers, as Debian's own ICDs provide it.
set(CPACK_DEBIAN_PACKAGE_PROVIDES "opencl-icd")
# The ICD entry is a configuration file; the triggers file has ldconfig run
# once dpkg has installed or removed the package's shared library.
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_LIST_DIR}/debian/conffiles
                                       ${CMAKE_CURRENT_LIST_DIR}/debian/triggers)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
