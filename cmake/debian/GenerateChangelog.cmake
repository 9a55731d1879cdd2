# SPDX-License-Identifier: Apache-2.0
# Writes the package's Debian changelog (debian/changelog format, gzip -9n):
# one entry for VERSION, pointing to CHANGELOG.md for the changes. The entry
# is dated with the release date CHANGELOG.md gives the version, as in
# "## 0.2.0 — 2026-11-25", so that the same sources make the same package; a
# version not dated there yet takes SOURCE_DATE_EPOCH, else the build's time.
#
#   cmake -DVERSION=0.2.0 -DMAINTAINER="Name <address>" -DCHANGELOG=CHANGELOG.md
#         -DOUTPUT=changelog.gz -P GenerateChangelog.cmake
foreach(variable IN ITEMS VERSION MAINTAINER CHANGELOG OUTPUT)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "GenerateChangelog.cmake needs -D${variable}=...")
  endif()
endforeach()

file(READ "${CHANGELOG}" history)
string(REPLACE "." "\\." version_pattern "${VERSION}")
if(history MATCHES "\n## ${version_pattern} [^\n]*([0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9])")
  # RFC 5322 dates, as debian/changelog wants them, in English whatever the locale.
  execute_process(COMMAND date -u -R -d "${CMAKE_MATCH_1}" OUTPUT_VARIABLE date
                  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
else()
  string(TIMESTAMP date "%a, %d %b %Y %H:%M:%S +0000" UTC)
endif()

get_filename_component(folder "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${folder}")
set(text "${OUTPUT}.txt")
file(WRITE "${text}" "lanewise (${VERSION}) unstable; urgency=medium

  * Lanewise ${VERSION}. What changed in each version is in CHANGELOG.md,
    in the same folder.

 -- ${MAINTAINER}  ${date}
")
execute_process(COMMAND gzip -9n -c INPUT_FILE "${text}" OUTPUT_FILE "${OUTPUT}"
                COMMAND_ERROR_IS_FATAL ANY)
file(REMOVE "${text}")
