// SPDX-License-Identifier: Apache-2.0
// Problems the library reports about kernels: checked-mode findings and
// launches the watchdog stopped. They are counted for the process, so that
// it can end with a status that says so (LANEWISE_CHECK_EXITCODE=N, like the
// sanitizers' exitcode): a CI job that runs its tests on Lanewise then fails
// when a kernel misbehaved, even if the application itself did not notice.
#pragma once

#include <cstdint>

namespace lanewise::runtime {

// Counts one reported problem. The first one arranges, when
// LANEWISE_CHECK_EXITCODE is a number from 1 to 255, for the process to
// exit with that status when it ends normally (exit() or a return from
// main): standard streams are flushed, the status replaces the program's.
void countProblem();

// Problems reported so far in this process.
std::uint64_t problemCount();

} // namespace lanewise::runtime
