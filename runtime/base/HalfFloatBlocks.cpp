//===- HalfFloatBlocks.cpp - f16 and bf16 conversions of runs -------------===//

#include "base/HalfFloatBlocks.h"

#include "base/Float16.h"

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define TESSEL_HALF_FLOAT_BLOCKS_AVX512 1
#endif

namespace tessel::runtime {

namespace {

constexpr int64_t kLanes = 16;

#ifdef TESSEL_HALF_FLOAT_BLOCKS_AVX512
// The project builds for plain x86-64; these are compiled for AVX-512 and
// called only where the CPU has it.
__attribute__((target("avx512f"))) int64_t
widenF16Vector(const uint16_t *from, float *to, int64_t count) {
  int64_t k = 0;
  for (; k + kLanes <= count; k += kLanes)
    _mm512_storeu_ps(to + k, _mm512_cvtph_ps(_mm256_loadu_si256(
                                 reinterpret_cast<const __m256i *>(from + k))));
  return k;
}

__attribute__((target("avx512f"))) int64_t
narrowF16Vector(const float *from, uint16_t *to, int64_t count) {
  int64_t k = 0;
  for (; k + kLanes <= count; k += kLanes)
    _mm256_storeu_si256(
        reinterpret_cast<__m256i *>(to + k),
        _mm512_cvtps_ph(_mm512_loadu_ps(from + k),
                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  return k;
}

__attribute__((target("avx512f"))) int64_t roundF16Vector(float *values,
                                                          int64_t count) {
  int64_t k = 0;
  for (; k + kLanes <= count; k += kLanes)
    _mm512_storeu_ps(values + k,
                     _mm512_cvtph_ps(_mm512_cvtps_ph(
                         _mm512_loadu_ps(values + k),
                         _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)));
  return k;
}

/// base/Float16.h's floatToBf16 on sixteen lanes: round to nearest even
/// on the sixteen bits dropped; a NaN keeps its top bits and is quieted.
__attribute__((target("avx512f"))) __m512i bf16BitsInLanes(__m512 values) {
  __m512i bits = _mm512_castps_si512(values);
  __m512i lowestKept =
      _mm512_and_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(1));
  __m512i rounded = _mm512_srli_epi32(
      _mm512_add_epi32(_mm512_add_epi32(bits, _mm512_set1_epi32(0x7fff)),
                       lowestKept),
      16);
  __m512i quietNaN =
      _mm512_or_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(0x0040));
  __mmask16 isNaN = _mm512_cmpgt_epu32_mask(
      _mm512_and_si512(bits, _mm512_set1_epi32(0x7fffffff)),
      _mm512_set1_epi32(0x7f800000));
  return _mm512_mask_mov_epi32(rounded, isNaN, quietNaN);
}

__attribute__((target("avx512f"))) int64_t
widenBf16Vector(const uint16_t *from, float *to, int64_t count) {
  int64_t k = 0;
  for (; k + kLanes <= count; k += kLanes)
    _mm512_storeu_si512(
        to + k,
        _mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256(
                              reinterpret_cast<const __m256i *>(from + k))),
                          16));
  return k;
}

__attribute__((target("avx512f"))) int64_t
narrowBf16Vector(const float *from, uint16_t *to, int64_t count) {
  int64_t k = 0;
  for (; k + kLanes <= count; k += kLanes)
    _mm256_storeu_si256(
        reinterpret_cast<__m256i *>(to + k),
        _mm512_cvtepi32_epi16(bf16BitsInLanes(_mm512_loadu_ps(from + k))));
  return k;
}

__attribute__((target("avx512f"))) int64_t roundBf16Vector(float *values,
                                                           int64_t count) {
  int64_t k = 0;
  for (; k + kLanes <= count; k += kLanes)
    _mm512_storeu_ps(values + k,
                     _mm512_castsi512_ps(_mm512_slli_epi32(
                         bf16BitsInLanes(_mm512_loadu_ps(values + k)), 16)));
  return k;
}

bool hasAvx512() {
  static const bool has = __builtin_cpu_supports("avx512f");
  return has;
}
#else
int64_t widenF16Vector(const uint16_t *, float *, int64_t) { return 0; }
int64_t narrowF16Vector(const float *, uint16_t *, int64_t) { return 0; }
int64_t roundF16Vector(float *, int64_t) { return 0; }
int64_t widenBf16Vector(const uint16_t *, float *, int64_t) { return 0; }
int64_t narrowBf16Vector(const float *, uint16_t *, int64_t) { return 0; }
int64_t roundBf16Vector(float *, int64_t) { return 0; }
bool hasAvx512() { return false; }
#endif

/// to[k] = convert(from[k]) for k < count: the first elements, in blocks
/// of sixteen, by `vector` (which says how many it did) where the CPU has
/// AVX-512, the rest one by one. `to` may be `from`.
template <typename From, typename To, typename Vector, typename Convert>
void convertRun(const From *from, To *to, int64_t count, Vector vector,
                Convert convert) {
  int64_t k = hasAvx512() ? vector(from, to, count) : 0;
  for (; k < count; ++k)
    to[k] = convert(from[k]);
}

/// The in-place roundings as runs from the values into themselves.
template <int64_t (*Round)(float *, int64_t)>
int64_t roundInPlace(const float *, float *values, int64_t count) {
  return Round(values, count);
}

} // namespace

void widenF16(const uint16_t *from, float *to, int64_t count) {
  convertRun(from, to, count, widenF16Vector, f16ToFloat);
}

void narrowToF16(const float *from, uint16_t *to, int64_t count) {
  convertRun(from, to, count, narrowF16Vector, floatToF16);
}

void roundToF16InPlace(float *values, int64_t count) {
  convertRun(values, values, count, roundInPlace<roundF16Vector>, roundToF16);
}

void widenBf16(const uint16_t *from, float *to, int64_t count) {
  convertRun(from, to, count, widenBf16Vector, bf16ToFloat);
}

void narrowToBf16(const float *from, uint16_t *to, int64_t count) {
  convertRun(from, to, count, narrowBf16Vector, floatToBf16);
}

void roundToBf16InPlace(float *values, int64_t count) {
  convertRun(values, values, count, roundInPlace<roundBf16Vector>, roundToBf16);
}

} // namespace tessel::runtime
