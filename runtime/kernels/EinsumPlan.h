//===- EinsumPlan.h - An einsum as one batched matmul -----------*- C++ -*-===//
//
// Classifies the labelled dims of an einsum's operands and result as batch,
// M, N or K, and says in which order to visit each tensor's dims so that
// the operands become [batch, M, K] and [batch, K, N] and the product
// [batch, M, N]. Plain C++, no oneDNN, so it can be tested on its own.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_KERNELS_EINSUMPLAN_H
#define TESSEL_RUNTIME_KERNELS_EINSUMPLAN_H

#include "tessel/runtime/types.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessel::runtime {

struct EinsumPlan {
  /// Dim indices of each tensor in matmul order: lhs as [batch, M, K], rhs
  /// as [batch, K, N], result as [batch, M, N]. Batch, M and N dims keep the
  /// result's order, K dims the lhs's.
  std::vector<unsigned> lhsOrder, rhsOrder, resultOrder;
  /// The products of the sizes of each class (1 for none).
  int64_t batch = 1, m = 1, n = 1, k = 1;
  /// How many dims each class has (their places in the orders above).
  size_t batchDims = 0, mDims = 0, nDims = 0, kDims = 0;
  /// The sizes of the batch dims other than 1, in the result's order: a
  /// matmul may keep them as dims of their own where they do not lie
  /// evenly in memory as one.
  std::vector<int64_t> batchSizes;
};

/// Plans an einsum, or fails with INVALID_ARGUMENT naming the label at
/// fault.
tessel_status_t planEinsum(const std::vector<int64_t> &lhsShape,
                           const std::vector<int32_t> &lhsLabels,
                           const std::vector<int64_t> &rhsShape,
                           const std::vector<int32_t> &rhsLabels,
                           const std::vector<int64_t> &resultShape,
                           const std::vector<int32_t> &resultLabels,
                           EinsumPlan &plan);

/// Whether `order` visits the dims in their own order (no permutation).
bool isIdentity(const std::vector<unsigned> &order);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_KERNELS_EINSUMPLAN_H
