//===- Kernels.h - All reference kernels ------------------------*- C++ -*-===//
//
// Convenience header for clients, such as the evaluator, that dispatch over
// every op; each included header documents its own kernels.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_EVALUATOR_KERNELS_KERNELS_H
#define TESSEL_EVALUATOR_KERNELS_KERNELS_H

#include "evaluator/kernels/Collectives.h"
#include "evaluator/kernels/Contraction.h"
#include "evaluator/kernels/Convolution.h"
#include "evaluator/kernels/Elementwise.h"
#include "evaluator/kernels/Initializers.h"
#include "evaluator/kernels/ParameterInit.h"
#include "evaluator/kernels/Reductions.h"
#include "evaluator/kernels/Shape.h"
#include "evaluator/kernels/Tensor.h"

#endif // TESSEL_EVALUATOR_KERNELS_KERNELS_H
