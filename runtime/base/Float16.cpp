//===- Float16.cpp - bf16 and f16 conversions -----------------------------===//

#include "base/Float16.h"

#include <cmath>
#include <cstring>

namespace tessel::runtime {

static uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

static float floatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

float bf16ToFloat(uint16_t bits) { return floatOf(uint32_t(bits) << 16); }

uint16_t floatToBf16(float value) {
  uint32_t bits = bitsOf(value);
  // Rounding could carry a NaN's payload into the exponent and make it an
  // infinity; keep it a (quiet) NaN instead.
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((bits >> 16) | 0x0040u);
  // Round to nearest even on the 16 bits that are dropped.
  uint32_t lsb = (bits >> 16) & 1u;
  return uint16_t((bits + 0x7fffu + lsb) >> 16);
}

float f16ToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000u) << 16;
  uint32_t exponent = (bits >> 10) & 0x1fu;
  uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0x1f) // Infinity or NaN.
    return floatOf(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) { // Zero or subnormal: mantissa units of 2^-24.
    float magnitude = std::ldexp(float(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  // Normal: rebias the exponent from 15 to 127.
  return floatOf(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

uint16_t floatToF16(float value) {
  uint32_t bits = bitsOf(value);
  uint16_t sign = uint16_t((bits >> 16) & 0x8000u);
  uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) // Infinity, or NaN kept quiet.
    return sign | (magnitude > 0x7f800000u ? 0x7e00u : 0x7c00u);
  // 65520 and above round to infinity (65504 is the largest f16, and the tie
  // at 65520 goes to the even infinity).
  if (magnitude >= 0x477ff000u)
    return sign | 0x7c00u;
  if (magnitude < 0x38800000u) {
    // Below the smallest normal f16 (2^-14): a subnormal in units of 2^-24.
    // The float's value is m * 2^(e - 150) with the implicit bit in m, so in
    // those units it is m >> (126 - e), rounded to nearest even.
    uint32_t exponent = magnitude >> 23;
    uint32_t shift = 126u - exponent;
    if (exponent == 0 || shift > 24)
      return sign; // Rounds to zero.
    uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;
    uint32_t quotient = mantissa >> shift;
    uint32_t remainder = mantissa & ((1u << shift) - 1u);
    uint32_t half = 1u << (shift - 1);
    if (remainder > half || (remainder == half && (quotient & 1u)))
      ++quotient;
    return sign | uint16_t(quotient);
  }
  // Normal: round to nearest even on the 13 dropped mantissa bits, then
  // rebias the exponent from 127 to 15; a carry out of the mantissa moves
  // into the exponent, which is the right result.
  uint32_t rounded = magnitude + 0xfffu + ((magnitude >> 13) & 1u);
  return sign | uint16_t((rounded - (112u << 23)) >> 13);
}

} // namespace tessel::runtime
