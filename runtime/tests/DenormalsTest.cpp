//===- DenormalsTest.cpp - Subnormal floats flushed to zero ---------------===//
//
// The compiled programs flush subnormal floats to zero unless
// TESSEL_KEEP_DENORMALS asks for IEEE arithmetic (runtime/driver/Denormals).
// Each case runs on a thread of its own, since the mode is a thread's.
//
//===----------------------------------------------------------------------===//

#include "driver/Denormals.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <thread>

using namespace tessel::driver;

namespace {

/// Half of the smallest normal float: a subnormal under IEEE arithmetic,
/// 0 when results are flushed.
float halfOfSmallestNormal() {
  volatile float smallest = std::numeric_limits<float>::min();
  volatile float half = 0.5f;
  return smallest * half;
}

/// What `flushDenormalsUnlessKept` returns on a fresh thread, and then
/// half of the smallest normal float there.
std::pair<bool, float> onAFreshThread() {
  std::pair<bool, float> result;
  std::thread([&] {
    result.first = flushDenormalsUnlessKept();
    result.second = halfOfSmallestNormal();
  }).join();
  return result;
}

#if defined(__x86_64__)
TEST(Denormals, SubnormalResultsAreFlushedToZero) {
  unsetenv("TESSEL_KEEP_DENORMALS");
  auto [flushed, half] = onAFreshThread();
  EXPECT_TRUE(flushed);
  EXPECT_EQ(half, 0.0f);
}

TEST(Denormals, KeptWhenTheEnvironmentAsks) {
  setenv("TESSEL_KEEP_DENORMALS", "1", 1);
  auto [flushed, half] = onAFreshThread();
  unsetenv("TESSEL_KEEP_DENORMALS");
  EXPECT_FALSE(flushed);
  EXPECT_GT(half, 0.0f);
  EXPECT_LT(half, std::numeric_limits<float>::min());
}

TEST(Denormals, ZeroInTheEnvironmentStillFlushes) {
  setenv("TESSEL_KEEP_DENORMALS", "0", 1);
  auto [flushed, half] = onAFreshThread();
  unsetenv("TESSEL_KEEP_DENORMALS");
  EXPECT_TRUE(flushed);
  EXPECT_EQ(half, 0.0f);
}
#endif

} // namespace
