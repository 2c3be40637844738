//===- F16Blocks.cpp - f16 conversions of whole runs ----------------------===//

#include "executor/F16Blocks.h"

#include "base/Float16.h"

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define TESSEL_F16_BLOCKS_AVX512 1
#endif

namespace tessel::runtime {

namespace {

constexpr int64_t kLanes = 16;

#ifdef TESSEL_F16_BLOCKS_AVX512
// The project builds for plain x86-64; these are compiled for AVX-512 and
// called only where the CPU has it.
__attribute__((target("avx512f"))) int64_t widenVector(const uint16_t *from,
                                                        float *to,
                                                        int64_t count) {
  int64_t k = 0;
  for (; k + kLanes <= count; k += kLanes)
    _mm512_storeu_ps(to + k, _mm512_cvtph_ps(_mm256_loadu_si256(
                                 reinterpret_cast<const __m256i *>(from + k))));
  return k;
}

__attribute__((target("avx512f"))) int64_t narrowVector(const float *from,
                                                         uint16_t *to,
                                                         int64_t count) {
  int64_t k = 0;
  for (; k + kLanes <= count; k += kLanes)
    _mm256_storeu_si256(
        reinterpret_cast<__m256i *>(to + k),
        _mm512_cvtps_ph(_mm512_loadu_ps(from + k),
                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  return k;
}

__attribute__((target("avx512f"))) int64_t roundVector(float *values,
                                                        int64_t count) {
  int64_t k = 0;
  for (; k + kLanes <= count; k += kLanes)
    _mm512_storeu_ps(
        values + k,
        _mm512_cvtph_ps(_mm512_cvtps_ph(
            _mm512_loadu_ps(values + k),
            _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)));
  return k;
}

bool hasAvx512() {
  static const bool has = __builtin_cpu_supports("avx512f");
  return has;
}
#else
int64_t widenVector(const uint16_t *, float *, int64_t) { return 0; }
int64_t narrowVector(const float *, uint16_t *, int64_t) { return 0; }
int64_t roundVector(float *, int64_t) { return 0; }
bool hasAvx512() { return false; }
#endif

} // namespace

void widenF16(const uint16_t *from, float *to, int64_t count) {
  int64_t k = hasAvx512() ? widenVector(from, to, count) : 0;
  for (; k < count; ++k)
    to[k] = f16ToFloat(from[k]);
}

void narrowToF16(const float *from, uint16_t *to, int64_t count) {
  int64_t k = hasAvx512() ? narrowVector(from, to, count) : 0;
  for (; k < count; ++k)
    to[k] = floatToF16(from[k]);
}

void roundToF16InPlace(float *values, int64_t count) {
  int64_t k = hasAvx512() ? roundVector(values, count) : 0;
  for (; k < count; ++k)
    values[k] = roundToF16(values[k]);
}

} // namespace tessel::runtime
