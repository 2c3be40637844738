//===- Kernels.h - All reference kernels ------------------------*- C++ -*-===//
//
// Convenience header for clients, such as the evaluator, that dispatch over
// every op; each included header documents its own kernels.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_REFERENCE_KERNELS_H
#define TESSEL_REFERENCE_KERNELS_H

#include "reference/Collectives.h"
#include "reference/Contraction.h"
#include "reference/Convolution.h"
#include "reference/Elementwise.h"
#include "reference/Initializers.h"
#include "reference/ParameterInit.h"
#include "reference/Reductions.h"
#include "reference/Shape.h"
#include "reference/Tensor.h"

#endif // TESSEL_REFERENCE_KERNELS_H
