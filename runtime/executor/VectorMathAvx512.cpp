//===- VectorMathAvx512.cpp - SLEEF's functions, 16 floats at a time ------===//

#include "executor/VectorMathIsa.h"

#include <immintrin.h>
#include <sleef.h>

namespace tessel::runtime {

namespace {

template <auto Function> void apply(const float *x, float *y, int64_t count) {
  int64_t i = 0;
  for (; i + 16 <= count; i += 16)
    _mm512_storeu_ps(y + i, Function(_mm512_loadu_ps(x + i)));
  if (i < count) {
    // The tail through a mask: no element past the end is read or written.
    auto mask = static_cast<__mmask16>((1u << (count - i)) - 1);
    _mm512_mask_storeu_ps(y + i, mask,
                          Function(_mm512_maskz_loadu_ps(mask, x + i)));
  }
}

} // namespace

void applyVectorFunctionAvx512(VectorFunction function, const float *x,
                               float *y, int64_t count) {
  switch (function) {
  case VectorFunction::Exp:
    return apply<Sleef_expf16_u10>(x, y, count);
  case VectorFunction::Log:
    return apply<Sleef_logf16_u10>(x, y, count);
  case VectorFunction::Erf:
    return apply<Sleef_erff16_u10>(x, y, count);
  case VectorFunction::Erfc:
    return apply<Sleef_erfcf16_u15>(x, y, count);
  case VectorFunction::Tanh:
    return apply<Sleef_tanhf16_u10>(x, y, count);
  case VectorFunction::Sin:
    return apply<Sleef_sinf16_u10>(x, y, count);
  case VectorFunction::Cos:
    return apply<Sleef_cosf16_u10>(x, y, count);
  }
}

} // namespace tessel::runtime
