//===- F16Blocks.h - f16 conversions of whole runs --------------*- C++ -*-===//
//
// f16 to f32 and back over a run of elements, on the CPU's conversion
// instructions (AVX-512's vcvtph2ps and vcvtps2ph, sixteen elements an
// instruction) where it has them, on base/Float16.h's portable loops
// elsewhere and for the tail. Both round to nearest even with f16's
// subnormals and infinities; a NaN stays a NaN (the instructions keep its
// payload where the portable loop writes the canonical quiet NaN). The
// fused kernel's f16 operands, roundings and results, and the widened f16
// ops' conversions (WidenedOps.h), go through these: without the
// instructions f16 conversions cost more than the ops they surround.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_F16BLOCKS_H
#define TESSEL_RUNTIME_EXECUTOR_F16BLOCKS_H

#include <cstdint>

namespace tessel::runtime {

/// to[k] = the f32 value of f16 from[k], for k < count.
void widenF16(const uint16_t *from, float *to, int64_t count);

/// to[k] = from[k] rounded to f16, for k < count.
void narrowToF16(const float *from, uint16_t *to, int64_t count);

/// values[k] = values[k] rounded to f16 (as an f32), for k < count.
void roundToF16InPlace(float *values, int64_t count);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_F16BLOCKS_H
