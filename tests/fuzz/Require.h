//===- Require.h - A fuzz target's check of a reader's promises -----------===//
//
// Every fuzz target checks what the reader it feeds promises of an input
// it accepts (or of its refusal); a broken promise must end the run the way
// a crash does, so that libFuzzer keeps the input.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TESTS_FUZZ_REQUIRE_H
#define TESSEL_TESTS_FUZZ_REQUIRE_H

#include <cstdio>
#include <cstdlib>

namespace tessel::fuzz {

/// Aborts, printing "`fuzzer`: `what`", when `condition` is false: the
/// reader broke the promise `what`, and libFuzzer keeps the input as a
/// crash.
inline void requireOrAbort(bool condition, const char *fuzzer,
                           const char *what) {
  if (condition)
    return;
  std::fprintf(stderr, "%s: %s\n", fuzzer, what);
  std::abort();
}

} // namespace tessel::fuzz

#endif // TESSEL_TESTS_FUZZ_REQUIRE_H
