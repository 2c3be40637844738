//===- Float16Test.cpp - bf16 and f16 conversions -------------------------===//
//
// base/Float16.h against bit patterns written out by hand: zeros, f32
// subnormals, the subnormals of each narrow type, the largest finite
// values, overflow to infinity, NaNs (payloads and quiet bits), and
// rounding ties that go to even; then every 16-bit pattern survives a round
// trip through f32. Inputs and results are bit patterns so that a NaN's
// payload and a zero's sign are compared too.
//
//===----------------------------------------------------------------------===//

#include "base/Float16.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tessel::runtime;

namespace {

/// An f32 bit pattern, the 16-bit pattern it narrows to, and what it tests.
struct Narrowing {
  uint32_t input;
  uint16_t expected;
  const char *what;
};

/// A 16-bit pattern and the f32 bit pattern it widens to.
struct Widening {
  uint16_t input;
  uint32_t expected;
  const char *what;
};

/// An f32 bit pattern and the f32 bit pattern of the narrow value nearest
/// to it.
struct Rounding {
  uint32_t input;
  uint32_t expected;
  const char *what;
};

TEST(Float16, Bf16Narrowing) {
  const Narrowing cases[] = {
      {0x00000000, 0x0000, "+0"},
      {0x80000000, 0x8000, "-0"},
      {0x3f800000, 0x3f80, "1"},
      {0xc0000000, 0xc000, "-2"},
      {0x3eaaaaab, 0x3eab, "1/3: the dropped 0xaaab is above half"},
      {0x3f807fff, 0x3f80, "just below a tie"},
      {0x3f808000, 0x3f80, "1 + 2^-8: a tie, to the even 1"},
      {0x3f808001, 0x3f81, "just above a tie"},
      {0x3f818000, 0x3f82, "1 + 3 * 2^-8: a tie, to the even 1 + 2^-6"},
      {0xbf818000, 0xbf82, "a negative tie"},
      // f32 subnormals round like any other value.
      {0x00000001, 0x0000, "the smallest f32 subnormal"},
      {0x00008000, 0x0000, "an f32 subnormal tie, to the even 0"},
      {0x00008001, 0x0001, "above that tie"},
      {0x00018000, 0x0002, "an f32 subnormal tie, to the even 2"},
      {0x00010000, 0x0001, "the smallest bf16 subnormal, exact"},
      {0x007f0000, 0x007f, "the largest bf16 subnormal, exact"},
      {0x007fffff, 0x0080, "the largest f32 subnormal, up to 2^-126"},
      {0x807fffff, 0x8080, "its negative"},
      // The largest finite bf16, 0x1.fep127, and overflow past it.
      {0x7f7f0000, 0x7f7f, "the largest finite bf16"},
      {0x7f7f7fff, 0x7f7f, "just below the tie above it"},
      {0x7f7f8000, 0x7f80, "the tie above it, to the even infinity"},
      {0x7f7fffff, 0x7f80, "the largest f32"},
      {0xff7fffff, 0xff80, "the lowest f32"},
      {0x7f800000, 0x7f80, "+infinity"},
      {0xff800000, 0xff80, "-infinity"},
      // NaNs keep their sign and top payload bits and come out quiet,
      // never rounded into an infinity.
      {0x7fc00000, 0x7fc0, "the quiet NaN"},
      {0xffc00000, 0xffc0, "the negative quiet NaN"},
      {0x7f800001, 0x7fc0, "a signaling NaN whose payload is dropped"},
      {0x7fa00000, 0x7fe0, "a signaling NaN with a kept payload"},
      {0x7fbfffff, 0x7fff, "a payload that would round into the exponent"},
      {0xff812345, 0xffc1, "a negative signaling NaN"},
      {0xffffffff, 0xffff, "all ones"},
  };
  for (const Narrowing &c : cases)
    EXPECT_EQ(floatToBf16(float32FromBits(c.input)), c.expected)
        << std::hex << c.input << ": " << c.what;
}

TEST(Float16, Bf16Widening) {
  const Widening cases[] = {
      {0x0000, 0x00000000, "+0"},
      {0x8000, 0x80000000, "-0"},
      {0x3f80, 0x3f800000, "1"},
      {0xc040, 0xc0400000, "-3"},
      {0x0001, 0x00010000, "the smallest subnormal"},
      {0x807f, 0x807f0000, "a negative subnormal"},
      {0x7f7f, 0x7f7f0000, "the largest finite"},
      {0xff80, 0xff800000, "-infinity"},
      {0x7fc1, 0x7fc10000, "a quiet NaN's payload"},
      {0x7f81, 0x7f810000, "a signaling NaN, as it is"},
  };
  for (const Widening &c : cases)
    EXPECT_EQ(float32Bits(bf16ToFloat(c.input)), c.expected)
        << std::hex << c.input << ": " << c.what;
}

TEST(Float16, F16Narrowing) {
  const Narrowing cases[] = {
      {0x00000000, 0x0000, "+0"},
      {0x80000000, 0x8000, "-0"},
      {0x3f800000, 0x3c00, "1"},
      {0xc0000000, 0xc000, "-2"},
      {0x3eaaaaab, 0x3555, "1/3"},
      {0x3f801000, 0x3c00, "1 + 2^-11: a tie, to the even 1"},
      {0x3f801001, 0x3c01, "just above that tie"},
      {0x3f803000, 0x3c02, "1 + 3 * 2^-11: a tie, to the even 1 + 2^-9"},
      // f32 subnormals are far below f16's smallest subnormal.
      {0x00000001, 0x0000, "the smallest f32 subnormal"},
      {0x807fffff, 0x8000, "the largest negative f32 subnormal"},
      {0x2edbe6ff, 0x0000, "1e-10"},
      // f16 subnormals: multiples of 2^-24.
      {0x33800000, 0x0001, "2^-24, the smallest f16 subnormal"},
      {0x33000000, 0x0000, "2^-25: a tie, to the even 0"},
      {0x33000001, 0x0001, "just above 2^-25"},
      {0x33c00000, 0x0002, "3 * 2^-25: a tie, to the even 2 * 2^-24"},
      {0x34200000, 0x0002, "5 * 2^-25: a tie, to the even 2 * 2^-24"},
      {0xb5800000, 0x8010, "-2^-20"},
      {0x387fc000, 0x03ff, "1023 * 2^-24, the largest subnormal"},
      {0x387fe000, 0x0400, "1023.5 * 2^-24: a tie, up to the smallest normal"},
      {0x38800000, 0x0400, "2^-14, the smallest normal"},
      // The largest finite f16, 65504, and overflow from 65520 on.
      {0x477fe000, 0x7bff, "65504, the largest finite"},
      {0xc77fe000, 0xfbff, "-65504"},
      {0x477fef00, 0x7bff, "65519"},
      {0x477fefff, 0x7bff, "just below 65520"},
      {0x477ff000, 0x7c00, "65520: the tie, to the even infinity"},
      {0xc77ff000, 0xfc00, "-65520"},
      {0x501502f9, 0x7c00, "1e10"},
      {0x7f7fffff, 0x7c00, "the largest f32"},
      {0x7f800000, 0x7c00, "+infinity"},
      {0xff800000, 0xfc00, "-infinity"},
      // Every NaN becomes the quiet NaN with its sign; payloads are dropped.
      {0x7fc00000, 0x7e00, "the quiet NaN"},
      {0xffc00000, 0xfe00, "the negative quiet NaN"},
      {0x7f800001, 0x7e00, "a signaling NaN"},
      {0x7fffffff, 0x7e00, "a NaN with every payload bit"},
      {0xff812345, 0xfe00, "a negative signaling NaN"},
  };
  for (const Narrowing &c : cases)
    EXPECT_EQ(floatToF16(float32FromBits(c.input)), c.expected)
        << std::hex << c.input << ": " << c.what;
}

TEST(Float16, F16Widening) {
  const Widening cases[] = {
      {0x0000, 0x00000000, "+0"},
      {0x8000, 0x80000000, "-0"},
      {0x3c00, 0x3f800000, "1"},
      {0x0001, 0x33800000, "2^-24, the smallest subnormal"},
      {0x8001, 0xb3800000, "-2^-24"},
      {0x0200, 0x38000000, "2^-15, a subnormal"},
      {0x03ff, 0x387fc000, "the largest subnormal"},
      {0x0400, 0x38800000, "the smallest normal"},
      {0x7bff, 0x477fe000, "65504, the largest finite"},
      {0xfbff, 0xc77fe000, "-65504"},
      {0x7c00, 0x7f800000, "+infinity"},
      {0xfc00, 0xff800000, "-infinity"},
      {0x7e00, 0x7fc00000, "the quiet NaN"},
      {0xfe01, 0xffc02000, "a negative quiet NaN's payload"},
      {0x7c01, 0x7f802000, "a signaling NaN, as it is"},
  };
  for (const Widening &c : cases)
    EXPECT_EQ(float32Bits(f16ToFloat(c.input)), c.expected)
        << std::hex << c.input << ": " << c.what;
}

// Rounding in f32 registers, as the fused kernel does after each op: the
// narrow value as an f32, NaNs made quiet with their payload kept.
TEST(Float16, RoundingInF32) {
  const Rounding bf16Cases[] = {
      {0x3f808000, 0x3f800000, "1 + 2^-8: a tie, to the even 1"},
      {0x3f818000, 0x3f820000, "1 + 3 * 2^-8: a tie, up"},
      {0x007fffff, 0x00800000, "the largest f32 subnormal"},
      {0x7f7fffff, 0x7f800000, "the largest f32, to infinity"},
      {0x80000000, 0x80000000, "-0"},
      {0x7fc00000, 0x7fc00000, "the quiet NaN"},
      {0x7fa00000, 0x7fe00000, "a signaling NaN, made quiet"},
  };
  for (const Rounding &c : bf16Cases)
    EXPECT_EQ(float32Bits(roundToBf16(float32FromBits(c.input))), c.expected)
        << std::hex << c.input << ": " << c.what;
  const Rounding f16Cases[] = {
      {0x3f801000, 0x3f800000, "1 + 2^-11: a tie, to the even 1"},
      {0x3f803000, 0x3f804000, "1 + 3 * 2^-11: a tie, up"},
      {0x33000000, 0x00000000, "2^-25: a tie, to the even 0"},
      {0xb3000000, 0x80000000, "-2^-25: to -0"},
      {0x33c00000, 0x34000000, "3 * 2^-25: a tie, to 2^-23"},
      {0x387fe000, 0x38800000, "1023.5 * 2^-24: up to 2^-14"},
      {0x00000001, 0x00000000, "the smallest f32 subnormal"},
      {0x477fefff, 0x477fe000, "just below 65520: 65504"},
      {0x477ff000, 0x7f800000, "65520: infinity"},
      {0xff800000, 0xff800000, "-infinity"},
      {0x7f800001, 0x7fc00001, "a signaling NaN, made quiet"},
      {0xff812345, 0xffc12345, "a negative signaling NaN, made quiet"},
  };
  for (const Rounding &c : f16Cases)
    EXPECT_EQ(float32Bits(roundToF16(float32FromBits(c.input))), c.expected)
        << std::hex << c.input << ": " << c.what;
}

TEST(Float16, EveryPatternRoundTrips) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    uint16_t pattern = static_cast<uint16_t>(bits);
    float bf16 = bf16ToFloat(pattern);
    if (!std::isnan(bf16)) {
      EXPECT_EQ(floatToBf16(bf16), pattern) << std::hex << bits;
      EXPECT_EQ(float32Bits(roundToBf16(bf16)), float32Bits(bf16))
          << std::hex << bits;
    }
    float f16 = f16ToFloat(pattern);
    if (!std::isnan(f16)) {
      EXPECT_EQ(floatToF16(f16), pattern) << std::hex << bits;
      EXPECT_EQ(float32Bits(roundToF16(f16)), float32Bits(f16))
          << std::hex << bits;
    }
  }
}

} // namespace
