// SPDX-License-Identifier: Apache-2.0
// The sanitizer options of the test programs in a sanitizer build
// (cmake/Sanitizers.cmake): the runtimes ask the program for them at start,
// so they hold however a test is started. The environment's
// ASAN_OPTIONS, UBSAN_OPTIONS and TSAN_OPTIONS still add to them.
#ifndef LANEWISE_SANITIZER_SUPPRESSIONS
#error "LANEWISE_SANITIZER_SUPPRESSIONS: the folder of the suppression files"
#endif

// Exported: the runtime, a shared library, looks them up in the program.
#define LANEWISE_EXPORTED __attribute__((visibility("default")))

extern "C" {

LANEWISE_EXPORTED const char *__asan_default_options() {
  return "check_initialization_order=1:strict_init_order=1:"
         "suppressions=" LANEWISE_SANITIZER_SUPPRESSIONS "/asan.supp";
}

LANEWISE_EXPORTED const char *__lsan_default_options() {
  return "suppressions=" LANEWISE_SANITIZER_SUPPRESSIONS "/lsan.supp:print_suppressions=0";
}

LANEWISE_EXPORTED const char *__ubsan_default_options() { return "print_stacktrace=1:halt_on_error=1"; }

LANEWISE_EXPORTED const char *__tsan_default_options() {
  return "halt_on_error=1:second_deadlock_stack=1:"
         "suppressions=" LANEWISE_SANITIZER_SUPPRESSIONS "/tsan.supp";
}

} // extern "C"
