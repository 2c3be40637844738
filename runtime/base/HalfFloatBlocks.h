//===- HalfFloatBlocks.h - f16 and bf16 conversions of runs -----*- C++ -*-===//
//
// f16 and bf16 to f32 and back over a run of elements, sixteen elements an
// instruction where the CPU has AVX-512 (f16 on its conversion instructions
// vcvtph2ps and vcvtps2ph; bf16 by shifts and the same integer rounding as
// base/Float16.h, which needs only AVX-512F), on base/Float16.h's portable
// loops elsewhere and for the tail. All round to nearest even, with f16's
// subnormals and infinities; a NaN stays a NaN (f16's instructions keep its
// payload where the portable loop writes the canonical quiet NaN; bf16's
// blocks quiet it as base/Float16.h does). The fused kernel's f16 and bf16
// operands, roundings and results, the widened ops' conversions
// (executor/WidenedOps.h) and the collectives' reductions in f32
// (ElementType.h) go through these: without the vector loops the
// conversions cost more than the ops they surround (a bf16 gradient's
// all-reduce spent more time narrowing than in MPI).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_BASE_HALFFLOATBLOCKS_H
#define TESSEL_RUNTIME_BASE_HALFFLOATBLOCKS_H

#include <cstdint>

namespace tessel::runtime {

/// to[k] = the f32 value of f16 from[k], for k < count.
void widenF16(const uint16_t *from, float *to, int64_t count);

/// to[k] = from[k] rounded to f16, for k < count.
void narrowToF16(const float *from, uint16_t *to, int64_t count);

/// values[k] = values[k] rounded to f16 (as an f32), for k < count.
void roundToF16InPlace(float *values, int64_t count);

/// to[k] = the f32 value of bf16 from[k], for k < count.
void widenBf16(const uint16_t *from, float *to, int64_t count);

/// to[k] = from[k] rounded to bf16, for k < count.
void narrowToBf16(const float *from, uint16_t *to, int64_t count);

/// values[k] = values[k] rounded to bf16 (as an f32), for k < count.
void roundToBf16InPlace(float *values, int64_t count);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_BASE_HALFFLOATBLOCKS_H
