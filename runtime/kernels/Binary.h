//===- Binary.h - Broadcasting binary ops on oneDNN -------------*- C++ -*-===//
//
// dst = src0 OP src1, where src0 has dst's dims and src1 has each of them
// or size 1 along it (broadcast), every tensor in any strides; arithmetic
// and comparisons.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_KERNELS_BINARY_H
#define TESSEL_RUNTIME_KERNELS_BINARY_H

#include "kernels/PreparedKernel.h"

#include <memory>

namespace tessel::runtime {

enum class BinaryAlgorithm { Add, Subtract, Multiply, Divide, Max, Min };

/// inputs {src0, src1}, output dst. Null where oneDNN has no kernel.
std::unique_ptr<PreparedKernel> prepareBinary(BinaryAlgorithm algorithm,
                                              const StridedTensor &src0,
                                              const StridedTensor &src1,
                                              const StridedTensor &dst);

enum class ComparisonAlgorithm {
  Equal,
  NotEqual,
  Less,
  LessEqual,
  Greater,
  GreaterEqual
};

/// dst = src0 CMP src1 as one byte per element, 1 where it holds and 0
/// where not (every comparison with NaN fails but NotEqual); `dst.type` is
/// ignored. inputs {src0, src1}, output dst. Null where oneDNN has no
/// kernel.
std::unique_ptr<PreparedKernel> prepareComparison(ComparisonAlgorithm algorithm,
                                                  const StridedTensor &src0,
                                                  const StridedTensor &src1,
                                                  const StridedTensor &dst);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_KERNELS_BINARY_H
