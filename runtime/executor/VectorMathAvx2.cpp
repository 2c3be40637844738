//===- VectorMathAvx2.cpp - SLEEF's functions, 8 floats at a time ---------===//

#include "executor/VectorMathIsa.h"

#include <immintrin.h>
#include <sleef.h>

#include <algorithm>

namespace tessel::runtime {

namespace {

template <auto Function> void apply(const float *x, float *y, int64_t count) {
  int64_t i = 0;
  for (; i + 8 <= count; i += 8)
    _mm256_storeu_ps(y + i, Function(_mm256_loadu_ps(x + i)));
  if (i < count) {
    // The tail through a padded copy: no element past the end is touched.
    alignas(32) float tail[8] = {};
    std::copy(x + i, x + count, tail);
    _mm256_store_ps(tail, Function(_mm256_load_ps(tail)));
    std::copy(tail, tail + (count - i), y + i);
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
  }
}

} // namespace tessel::runtime
