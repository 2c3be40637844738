//===- OneRankContext.h - The context of tests of model-level ops -*- C++
//-*-===//
//
// The tests of model-level ops (the fused elementwise kernel, the widened
// 16-bit ops) run each op on one rank: no communicator, a mesh of one rank.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_TESTS_ONERANKCONTEXT_H
#define TESSEL_RUNTIME_TESTS_ONERANKCONTEXT_H

#include "executor/Context.h"

#include <gtest/gtest.h>

#include <string>

namespace tessel::runtime::test {

/// A context for model-level ops: no communicator, a mesh of one rank.
/// Made on first use and shared by every test of the program; a failure to
/// make it fails the test that first asked.
inline tessel_context_t *oneRankContext() {
  static ContextPtr shared = [] {
    std::string error;
    ContextPtr made = createContext(nullptr, layout::Mesh(), error);
    EXPECT_TRUE(made) << error;
    return made;
  }();
  return shared.get();
}

} // namespace tessel::runtime::test

#endif // TESSEL_RUNTIME_TESTS_ONERANKCONTEXT_H
