//===- PoolGradient.h - max pooling's gradient, 2 x 2 windows --*- C++ -*-===//
//
// Max pooling's gradient over one image plane in 2 x 2 windows of stride 2
// (the CNN's), rows contiguous: each window's gradient to its first maximum
// in row-major window order (a NaN counts as the maximum, as in the
// reference), written with the window's three other elements' zeros, so
// that the covered part of the plane needs no clearing first. With
// AVX-512, 16 windows at a time; FastPooling.cpp's loop does every other
// window shape.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_POOLGRADIENT_H
#define TESSEL_RUNTIME_EXECUTOR_POOLGRADIENT_H

#include <cstdint>

namespace tessel::runtime {

/// `x` and `dx` are the plane's input and gradient (rows `xRow` floats
/// apart), `dy` its result's gradient (rows `yRow` apart), `rows` x
/// `columns` windows from the top left corner. Compiled for AVX-512F
/// (where the build targets x86-64): call it only on a CPU that has it.
void maxPoolGradient2x2Avx512(const float *x, int64_t xRow, const float *dy,
                              int64_t yRow, float *dx, int64_t rows,
                              int64_t columns);

using MaxPoolGradient2x2Kernel = decltype(&maxPoolGradient2x2Avx512);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_POOLGRADIENT_H
