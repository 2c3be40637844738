//===- GemmPlan.h - An einsum as one strided batched GEMM -------*- C++ -*-===//
//
// What Einsum.cpp hands to cublasGemmStridedBatchedEx, worked out once per
// call site: the operands' dims classified as batch, M, N and K
// (kernels/EinsumPlan.h, shared with the oneDNN path), the permutes that
// bring the operands into [batch, M, K] and [batch, K, N] and the
// [batch, M, N] product into the result's order, and the GEMM's arguments.
//
// cuBLAS is column-major: the row-major product C = A B (M x N) is
// computed as the column-major C^T = B^T A^T (N x M), which is the same
// bytes, so cuBLAS's "A" is the second operand and its "B" the first, with
// no transposes. Plain C++ (no CUDA calls), so tests can check it on the
// host.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_GPU_GEMMPLAN_H
#define TESSEL_RUNTIME_GPU_GEMMPLAN_H

#include "gpu/Views.h"

#include <optional>

namespace tessel::runtime::gpu {

struct GemmPlan {
  /// Whether the descriptor's operands are multiplied in the other order:
  /// the product keeps the result's order for M and N, so a result written
  /// [N, M] needs no permute once the operands are swapped.
  bool swapped = false;
  /// The (possibly swapped) operands into matmul order, and the product
  /// out of it; identity() where no copy is needed.
  Permute first, second, product;
  size_t firstBytes = 0, secondBytes = 0, productBytes = 0;
  /// cublasGemmStridedBatchedEx's sizes, leading dims and batch strides
  /// (column-major, CUBLAS_OP_N for both): C (m x n) = A (m x k) B (k x n).
  int m = 0, n = 0, k = 0, batch = 0;
  int lda = 0, ldb = 0, ldc = 0;
  long long strideA = 0, strideB = 0, strideC = 0;
};

/// The GEMM that computes `result` = einsum(lhs, rhs), or none when the
/// einsum is not a plain contraction (a dim on one operand that the result
/// lacks, a result dim on no operand, a repeated dim, an empty tensor,
/// sizes beyond int, more than kMaxDims dims).
std::optional<GemmPlan> planGemm(const TensorType &lhs, const TensorType &rhs,
                                 const TensorType &result);

} // namespace tessel::runtime::gpu

#endif // TESSEL_RUNTIME_GPU_GEMMPLAN_H
