//===- NarrowFloat.h - bf16 and f16 in f32 registers ------------*- C++ -*-===//
//
// The fused element-wise kernel computes bf16 and f16 values in f32
// registers: it widens what it reads, rounds each op's f32 result to the
// op's narrow type, as the op computed alone would, and narrows what it
// writes. These are those conversions, inline and free of branches and
// calls so that a tile's loop over them vectorizes; they agree bit for bit
// with base/Float16.h (round to nearest, ties to even; NaN stays a quiet
// NaN; f16 overflows to infinity and has subnormals).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_NARROWFLOAT_H
#define TESSEL_RUNTIME_EXECUTOR_NARROWFLOAT_H

#include <cstdint>
#include <cstring>

namespace tessel::runtime::narrow {

inline uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

inline float floatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

inline float fromBf16(uint16_t bits) { return floatOf(uint32_t(bits) << 16); }

inline uint16_t toBf16(float value) {
  uint32_t bits = bitsOf(value);
  bool isNaN = (bits & 0x7fffffffu) > 0x7f800000u;
  uint32_t rounded = (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16;
  return uint16_t(isNaN ? (bits >> 16) | 0x0040u : rounded);
}

/// The bf16 nearest to `value`, as an f32.
inline float roundToBf16(float value) { return fromBf16(toBf16(value)); }

inline float fromF16(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000u) << 16;
  uint32_t exponent = (bits >> 10) & 0x1fu;
  uint32_t mantissa = bits & 0x3ffu;
  // Subnormals (and zero) are whole multiples of 2^-24.
  float subnormal = float(mantissa) * 5.9604644775390625e-8f;
  uint32_t special = 0x7f800000u | (mantissa << 13);
  uint32_t normal = ((exponent + 112u) << 23) | (mantissa << 13);
  uint32_t magnitude = exponent == 0      ? bitsOf(subnormal)
                       : exponent == 0x1f ? special
                                          : normal;
  return floatOf(sign | magnitude);
}

/// The f16 nearest to `value`, as an f32: infinity from 65520 on, and
/// multiples of 2^-24 below 2^-14.
inline float roundToF16(float value) {
  uint32_t bits = bitsOf(value);
  uint32_t sign = bits & 0x80000000u;
  uint32_t magnitude = bits & 0x7fffffffu;
  // Normal: round to nearest even on the 13 mantissa bits f16 lacks.
  uint32_t normal = (magnitude + 0xfffu + ((magnitude >> 13) & 1u)) & ~0x1fffu;
  // Subnormal: adding 0.5 leaves 2^-24 as the last place, so the sum's
  // rounding is the one wanted; subtracting it back is exact (the project
  // builds without -ffast-math, which would fold the two away).
  float small = floatOf(magnitude);
  float subnormal = (small + 0.5f) - 0.5f;
  uint32_t rounded = magnitude > 0x7f800000u   ? magnitude | 0x00400000u
                     : magnitude >= 0x477ff000u ? 0x7f800000u
                     : magnitude >= 0x38800000u ? normal
                                                : bitsOf(subnormal);
  return floatOf(sign | rounded);
}

/// The bits of an f32 that roundToF16 returned (already an f16's value).
inline uint16_t encodeF16(float rounded) {
  uint32_t bits = bitsOf(rounded);
  uint32_t sign = (bits >> 16) & 0x8000u;
  uint32_t magnitude = bits & 0x7fffffffu;
  uint32_t normal = (magnitude - (112u << 23)) >> 13;
  uint32_t subnormal = uint32_t(floatOf(magnitude) * 16777216.0f);
  uint32_t encoded = magnitude > 0x7f800000u    ? 0x7e00u
                     : magnitude == 0x7f800000u ? 0x7c00u
                     : magnitude >= 0x38800000u ? normal
                                                : subnormal;
  return uint16_t(sign | encoded);
}

inline uint16_t toF16(float value) { return encodeF16(roundToF16(value)); }

} // namespace tessel::runtime::narrow

#endif // TESSEL_RUNTIME_EXECUTOR_NARROWFLOAT_H
