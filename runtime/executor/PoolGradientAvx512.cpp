//===- PoolGradientAvx512.cpp - max pooling's gradient, 16 windows at once ===//
//
// Compiled with -mavx512f and called only on a CPU that has it
// (FastPooling.cpp). Each step reads 32 floats of each of a window row
// pair, splits them into the windows' four corners (even and odd columns
// of the two rows), finds each window's first maximum with masks, and
// writes the gradient and the zeros back interleaved.
//
//===----------------------------------------------------------------------===//

#include "executor/PoolGradient.h"

#include <immintrin.h>

#include <algorithm>

namespace tessel::runtime {

void maxPoolGradient2x2Avx512(const float *x, int64_t xRow, const float *dy,
                              int64_t yRow, float *dx, int64_t rows,
                              int64_t columns) {
  const __m512i evens = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18,
                                          20, 22, 24, 26, 28, 30);
  const __m512i odds = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19,
                                         21, 23, 25, 27, 29, 31);
  const __m512i lowHalves = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4,
                                              20, 5, 21, 6, 22, 7, 23);
  const __m512i highHalves = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27,
                                               12, 28, 13, 29, 14, 30, 15, 31);
  for (int64_t oh = 0; oh < rows; ++oh) {
    const float *top = x + 2 * oh * xRow, *bottom = top + xRow;
    float *dxTop = dx + 2 * oh * xRow, *dxBottom = dxTop + xRow;
    const float *gradients = dy + oh * yRow;
    // 16 windows a step; the last step's fewer under masks, which keep
    // the loads and stores inside the rows.
    for (int64_t ow = 0; ow < columns; ow += 16) {
      int64_t windows = std::min<int64_t>(16, columns - ow);
      auto lanes = [](int64_t count) {
        return static_cast<__mmask16>(count <= 0    ? 0
                                      : count >= 16 ? 0xFFFF
                                                    : (1u << count) - 1);
      };
      __mmask16 low = lanes(2 * windows), high = lanes(2 * windows - 16);
      __mmask16 gradientLanes = lanes(windows);
      __m512 top0 = _mm512_maskz_loadu_ps(low, top + 2 * ow);
      __m512 top1 = _mm512_maskz_loadu_ps(high, top + 2 * ow + 16);
      __m512 bottom0 = _mm512_maskz_loadu_ps(low, bottom + 2 * ow);
      __m512 bottom1 = _mm512_maskz_loadu_ps(high, bottom + 2 * ow + 16);
      __m512 corners[4] = {_mm512_permutex2var_ps(top0, evens, top1),
                           _mm512_permutex2var_ps(top0, odds, top1),
                           _mm512_permutex2var_ps(bottom0, evens, bottom1),
                           _mm512_permutex2var_ps(bottom0, odds, bottom1)};
      // wins[k]: the windows whose first maximum so far is corner k.
      __m512 maximum = corners[0];
      __mmask16 wins[4] = {0xFFFF, 0, 0, 0};
      for (int k = 1; k < 4; ++k) {
        __mmask16 takes =
            _mm512_cmp_ps_mask(maximum, maximum, _CMP_ORD_Q) &
            (_mm512_cmp_ps_mask(corners[k], maximum, _CMP_GT_OQ) |
             _mm512_cmp_ps_mask(corners[k], corners[k], _CMP_UNORD_Q));
        maximum = _mm512_mask_mov_ps(maximum, takes, corners[k]);
        for (int earlier = 0; earlier < k; ++earlier)
          wins[earlier] = static_cast<__mmask16>(wins[earlier] & ~takes);
        wins[k] = takes;
      }
      __m512 gradient = _mm512_maskz_loadu_ps(gradientLanes, gradients + ow);
      __m512 out[4];
      for (int k = 0; k < 4; ++k)
        out[k] = _mm512_maskz_mov_ps(wins[k], gradient);
      _mm512_mask_storeu_ps(dxTop + 2 * ow, low,
                            _mm512_permutex2var_ps(out[0], lowHalves, out[1]));
      _mm512_mask_storeu_ps(dxTop + 2 * ow + 16, high,
                            _mm512_permutex2var_ps(out[0], highHalves, out[1]));
      _mm512_mask_storeu_ps(dxBottom + 2 * ow, low,
                            _mm512_permutex2var_ps(out[2], lowHalves, out[3]));
      _mm512_mask_storeu_ps(
          dxBottom + 2 * ow + 16, high,
          _mm512_permutex2var_ps(out[2], highHalves, out[3]));
    }
  }
}

} // namespace tessel::runtime
