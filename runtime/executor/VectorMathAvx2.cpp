//===- VectorMathAvx2.cpp - SLEEF's functions, 8 floats at a time ---------===//

#include "executor/VectorMathIsa.h"

#include <immintrin.h>
#include <sleef.h>

namespace tessel::runtime {

namespace {

template <auto Function> void apply(const float *x, float *y, int64_t count) {
  int64_t i = 0;
  for (; i + 8 <= count; i += 8)
    _mm256_storeu_ps(y + i, Function(_mm256_loadu_ps(x + i)));
  if (i < count) {
    // The tail through a padded copy: no element past the end is touched.
    // (Plain loops: a library template instantiated in this file, which is
    // compiled for AVX2, could be the one the whole program links.)
    alignas(32) float tail[8] = {};
    for (int64_t j = i; j < count; ++j)
      tail[j - i] = x[j];
    _mm256_store_ps(tail, Function(_mm256_load_ps(tail)));
    for (int64_t j = i; j < count; ++j)
      y[j] = tail[j - i];
  }
}

} // namespace

void applyVectorFunctionAvx2(VectorFunction function, const float *x, float *y,
                             int64_t count) {
  switch (function) {
  case VectorFunction::Exp:
    return apply<Sleef_expf8_u10avx2>(x, y, count);
  case VectorFunction::Log:
    return apply<Sleef_logf8_u10avx2>(x, y, count);
  case VectorFunction::Erf:
    return apply<Sleef_erff8_u10avx2>(x, y, count);
  case VectorFunction::Erfc:
    return apply<Sleef_erfcf8_u15avx2>(x, y, count);
  case VectorFunction::Tanh:
    return apply<Sleef_tanhf8_u10avx2>(x, y, count);
  case VectorFunction::Sin:
    return apply<Sleef_sinf8_u10avx2>(x, y, count);
  case VectorFunction::Cos:
    return apply<Sleef_cosf8_u10avx2>(x, y, count);
  }
}

} // namespace tessel::runtime
