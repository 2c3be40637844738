//===- Float16Test.cpp - bf16 and f16 conversions -------------------------===//
//
// Known bit patterns, rounding to nearest even, subnormals, overflow and
// special values; every 16-bit pattern survives a round trip through f32.
//
//===----------------------------------------------------------------------===//

#include "base/Float16.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace tessel::runtime;

namespace {

TEST(Float16, Bf16KnownValues) {
  EXPECT_EQ(floatToBf16(1.0f), 0x3f80);
  EXPECT_EQ(floatToBf16(-2.0f), 0xc000);
  EXPECT_EQ(floatToBf16(0.0f), 0x0000);
  EXPECT_EQ(floatToBf16(-0.0f), 0x8000);
  // 1/3 = 0x3eaaaaab in f32; the dropped half 0xaaab is above a half ulp.
  EXPECT_EQ(floatToBf16(1.0f / 3.0f), 0x3eab);
  // Ties go to even: 1 + 2^-8 is half way between 1 and 1 + 2^-7.
  EXPECT_EQ(floatToBf16(1.0f + 0x1p-8f), 0x3f80);
  EXPECT_EQ(floatToBf16(1.0f + 3 * 0x1p-8f), 0x3f82);
  EXPECT_EQ(floatToBf16(std::numeric_limits<float>::infinity()), 0x7f80);
  uint16_t nan = floatToBf16(std::numeric_limits<float>::quiet_NaN());
  EXPECT_TRUE(std::isnan(bf16ToFloat(nan)));
  EXPECT_EQ(bf16ToFloat(0x3f80), 1.0f);
  EXPECT_EQ(bf16ToFloat(0xc040), -3.0f);
}

TEST(Float16, F16KnownValues) {
  EXPECT_EQ(floatToF16(1.0f), 0x3c00);
  EXPECT_EQ(floatToF16(-2.0f), 0xc000);
  EXPECT_EQ(floatToF16(65504.0f), 0x7bff);
  EXPECT_EQ(floatToF16(65519.0f), 0x7bff);
  EXPECT_EQ(floatToF16(65520.0f), 0x7c00); // The tie goes to infinity.
  EXPECT_EQ(floatToF16(1e10f), 0x7c00);
  EXPECT_EQ(floatToF16(1.0f / 3.0f), 0x3555);
  // Ties to even: 1 + 2^-11 is half way between 1 and 1 + 2^-10.
  EXPECT_EQ(floatToF16(1.0f + 0x1p-11f), 0x3c00);
  EXPECT_EQ(floatToF16(1.0f + 3 * 0x1p-11f), 0x3c02);
  // Subnormals: 2^-24 is the smallest, 2^-25 ties to zero, 3 * 2^-25 to 2.
  EXPECT_EQ(floatToF16(0x1p-24f), 0x0001);
  EXPECT_EQ(floatToF16(0x1p-25f), 0x0000);
  EXPECT_EQ(floatToF16(3 * 0x1p-25f), 0x0002);
  EXPECT_EQ(floatToF16(0x1p-14f), 0x0400);            // The smallest normal.
  EXPECT_EQ(floatToF16(0x1p-14f - 0x1p-25f), 0x0400); // Rounds up into it.
  EXPECT_EQ(floatToF16(-0x1p-20f), 0x8010);
  EXPECT_EQ(floatToF16(1e-10f), 0x0000);
  EXPECT_EQ(floatToF16(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_TRUE(std::isnan(
      f16ToFloat(floatToF16(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(f16ToFloat(0x0001), 0x1p-24f);
  EXPECT_EQ(f16ToFloat(0xfbff), -65504.0f);
}

TEST(Float16, EveryPatternRoundTrips) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    uint16_t pattern = static_cast<uint16_t>(bits);
    float bf16 = bf16ToFloat(pattern);
    if (!std::isnan(bf16)) {
      EXPECT_EQ(floatToBf16(bf16), pattern) << std::hex << bits;
    }
    float f16 = f16ToFloat(pattern);
    if (!std::isnan(f16)) {
      EXPECT_EQ(floatToF16(f16), pattern) << std::hex << bits;
    }
  }
}

} // namespace
