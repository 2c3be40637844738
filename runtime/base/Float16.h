//===- Float16.h - bf16 and f16 conversions ---------------------*- C++ -*-===//
//
// The runtime stores bf16 and f16 tensors as their 16-bit patterns and
// computes on them in f32: MPI reductions widen, reduce and narrow once;
// the fused element-wise kernel widens what it reads, rounds each op's f32
// result to the op's narrow type and narrows what it writes. These are the
// one definition of those conversions: round to nearest, ties to even, like
// the hardware conversions; a NaN stays a NaN and comes out quiet; f16 has
// subnormals and overflows to infinity from 65520 on.
//
// They are inline and free of branches and calls so that the executor's
// loops over a tile vectorize (each conversion computes every case and
// selects one), which is why they read unlike the textbook versions.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_BASE_FLOAT16_H
#define TESSEL_RUNTIME_BASE_FLOAT16_H

#include <cstdint>
#include <cstring>

namespace tessel::runtime {

/// The bit pattern of an f32, and the f32 of a bit pattern.
inline uint32_t float32Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

inline float float32FromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

inline float bf16ToFloat(uint16_t bits) {
  return float32FromBits(uint32_t(bits) << 16);
}

inline uint16_t floatToBf16(float value) {
  uint32_t bits = float32Bits(value);
  // Rounding could carry a NaN's payload into the exponent and make it an
  // infinity; a NaN keeps its top payload bits and is made quiet instead.
  bool isNaN = (bits & 0x7fffffffu) > 0x7f800000u;
  // Round to nearest even on the 16 bits that are dropped; a carry into the
  // exponent is the right result (up to infinity).
  uint32_t rounded = (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16;
  return uint16_t(isNaN ? (bits >> 16) | 0x0040u : rounded);
}

/// The bf16 nearest to `value`, as an f32.
inline float roundToBf16(float value) {
  return bf16ToFloat(floatToBf16(value));
}

inline float f16ToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000u) << 16;
  uint32_t exponent = (bits >> 10) & 0x1fu;
  uint32_t mantissa = bits & 0x3ffu;
  // Subnormals (and zero) are whole multiples of 2^-24.
  float subnormal = float(mantissa) * 5.9604644775390625e-8f;
  uint32_t special = 0x7f800000u | (mantissa << 13); // Infinity or NaN.
  // Normal: rebias the exponent from 15 to 127.
  uint32_t normal = ((exponent + 112u) << 23) | (mantissa << 13);
  uint32_t magnitude = exponent == 0      ? float32Bits(subnormal)
                       : exponent == 0x1f ? special
                                          : normal;
  return float32FromBits(sign | magnitude);
}

/// The f16 nearest to `value`, as an f32: infinity from 65520 on (65504 is
/// the largest f16, and the tie at 65520 goes to the even infinity), and
/// multiples of 2^-24 below 2^-14. A NaN stays a NaN, made quiet.
inline float roundToF16(float value) {
  uint32_t bits = float32Bits(value);
  uint32_t sign = bits & 0x80000000u;
  uint32_t magnitude = bits & 0x7fffffffu;
  // Normal: round to nearest even on the 13 mantissa bits f16 lacks; a
  // carry out of the mantissa moves into the exponent, which is right.
  uint32_t normal = (magnitude + 0xfffu + ((magnitude >> 13) & 1u)) & ~0x1fffu;
  // Subnormal: adding 0.5 leaves 2^-24 as the last place, so the sum's
  // rounding is the one wanted; subtracting it back is exact (the project
  // builds without -ffast-math, which would fold the two away).
  float small = float32FromBits(magnitude);
  float subnormal = (small + 0.5f) - 0.5f;
  uint32_t rounded = magnitude > 0x7f800000u    ? magnitude | 0x00400000u
                     : magnitude >= 0x477ff000u ? 0x7f800000u
                     : magnitude >= 0x38800000u ? normal
                                                : float32Bits(subnormal);
  return float32FromBits(sign | rounded);
}

/// The bits of an f32 that roundToF16 returned (already an f16's value).
inline uint16_t encodeRoundedF16(float rounded) {
  uint32_t bits = float32Bits(rounded);
  uint32_t sign = (bits >> 16) & 0x8000u;
  uint32_t magnitude = bits & 0x7fffffffu;
  // Normal: rebias the exponent from 127 to 15.
  uint32_t normal = (magnitude - (112u << 23)) >> 13;
  uint32_t subnormal = uint32_t(float32FromBits(magnitude) * 16777216.0f);
  uint32_t encoded = magnitude > 0x7f800000u    ? 0x7e00u
                     : magnitude == 0x7f800000u ? 0x7c00u
                     : magnitude >= 0x38800000u ? normal
                                                : subnormal;
  return uint16_t(sign | encoded);
}

/// Values beyond the largest f16 (65504, after rounding) become infinities;
/// every NaN becomes the quiet NaN 0x7e00 with the value's sign.
inline uint16_t floatToF16(float value) {
  return encodeRoundedF16(roundToF16(value));
}

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_BASE_FLOAT16_H
