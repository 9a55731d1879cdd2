// SPDX-License-Identifier: Apache-2.0
// Happens-before edges that ThreadSanitizer cannot see for itself.
//
// Work-groups are handed to oneTBB's workers and back through TBB's own
// synchronisation. Debian's libtbb is not instrumented, so under
// ThreadSanitizer (LANEWISE_SANITIZE=thread) the hand-over looks like no
// synchronisation at all, and every read of the launch's plan by a worker
// would be reported as a race with its set-up. These calls state the edges
// TBB guarantees: what a thread did before publish(x) happens before what
// another thread does after receive(x). Without ThreadSanitizer they are
// nothing.
#pragma once

#if defined(__SANITIZE_THREAD__)
#define LANEWISE_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LANEWISE_THREAD_SANITIZER 1
#endif
#endif

#ifdef LANEWISE_THREAD_SANITIZER
#include <sanitizer/tsan_interface.h>
#endif

namespace lanewise::runtime::threadSanitizer {

inline void publish([[maybe_unused]] const void *object) {
#ifdef LANEWISE_THREAD_SANITIZER
  __tsan_release(const_cast<void *>(object));
#endif
}

inline void receive([[maybe_unused]] const void *object) {
#ifdef LANEWISE_THREAD_SANITIZER
  __tsan_acquire(const_cast<void *>(object));
#endif
}

} // namespace lanewise::runtime::threadSanitizer
