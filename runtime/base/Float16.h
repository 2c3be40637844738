//===- Float16.h - bf16 and f16 conversions ---------------------*- C++ -*-===//
//
// The runtime stores bf16 and f16 tensors as their 16-bit patterns. MPI has
// no arithmetic on them, so reductions widen to f32, reduce there and narrow
// once; these are the conversions, rounding to nearest with ties to even
// like the hardware conversions do.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_BASE_FLOAT16_H
#define TESSEL_RUNTIME_BASE_FLOAT16_H

#include <cstdint>

namespace tessel::runtime {

float bf16ToFloat(uint16_t bits);
uint16_t floatToBf16(float value);

float f16ToFloat(uint16_t bits);
/// Values beyond the largest f16 (65504, after rounding) become infinities.
uint16_t floatToF16(float value);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_BASE_FLOAT16_H
