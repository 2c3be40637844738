//===- Einsum.cpp - Einsum as one strided batched cuBLAS GEMM -------------===//
//
// The same plan as the oneDNN path (kernels/EinsumPlan.h): the operands'
// dims classified as batch, M, N and K, each operand permuted into
// [batch, M, K] and [batch, K, N] when it is not already in that order,
// one cublasGemmStridedBatchedEx, and the [batch, M, N] product permuted
// into the result's order when needed. cuBLAS is column-major, so the
// row-major C = A B is computed as the column-major C^T = B^T A^T, which
// is the same bytes.
//
// f32 computes in f32 (CUBLAS_COMPUTE_32F, no TF32, so results stay close
// to the reference's); bf16 and f16 use tensor-op math with f32
// accumulation; f64 computes in f64.
//
//===----------------------------------------------------------------------===//

#include "gpu/CudaStatus.h"
#include "gpu/DeviceState.h"
#include "gpu/Ops.h"
#include "gpu/Views.h"

#include "executor/Buffers.h"
#include "kernels/EinsumPlan.h"

#include <algorithm>
#include <climits>
#include <map>

namespace tessel::runtime::gpu {

namespace {

bool hasUniqueDims(const TensorType &type) {
  std::vector<std::string> sorted = type.dims;
  std::sort(sorted.begin(), sorted.end());
  return std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
}

/// The CUDA data type and the cuBLAS compute type of a float element type.
bool gemmTypes(ref::ElementType type, cudaDataType &data,
               cublasComputeType_t &compute) {
  switch (type) {
  case ref::ElementType::F32:
    data = CUDA_R_32F;
    compute = CUBLAS_COMPUTE_32F;
    return true;
  case ref::ElementType::F64:
    data = CUDA_R_64F;
    compute = CUBLAS_COMPUTE_64F;
    return true;
  case ref::ElementType::F16:
    data = CUDA_R_16F;
    compute = CUBLAS_COMPUTE_32F;
    return true;
  case ref::ElementType::BF16:
    data = CUDA_R_16BF;
    compute = CUBLAS_COMPUTE_32F;
    return true;
  default:
    return false;
  }
}

/// `type` with its dims in the plan's order.
TensorType inOrder(const TensorType &type, const std::vector<unsigned> &order) {
  std::vector<std::string> dims;
  for (unsigned i : order)
    dims.push_back(type.dims[i]);
  return reordered(type, dims);
}

struct GemmCall {
  EinsumPlan plan;
  Permute lhs, rhs, result; // into matmul order, and out of it
  cudaDataType data;
  cublasComputeType_t compute;
  size_t lhsBytes, rhsBytes, productBytes;
  /// Whether the operands are multiplied as (rhs, lhs): the plan keeps the
  /// result's dim order for M and N, so [N, M] results need no permute then.
  bool swapped = false;
};

/// Plans `first` x `second` into `result`; false when it is no GEMM.
bool planGemm(const TensorType &first, const TensorType &second,
              const TensorType &result, GemmCall &call) {
  std::map<std::string, int32_t> labelOf;
  auto labels = [&](const TensorType &type) {
    std::vector<int32_t> result;
    for (const std::string &dim : type.dims)
      result.push_back(
          labelOf.emplace(dim, static_cast<int32_t>(labelOf.size()))
              .first->second);
    return result;
  };
  std::vector<int32_t> firstLabels = labels(first),
                       secondLabels = labels(second),
                       resultLabels = labels(result);
  if (planEinsum(first.shape, firstLabels, second.shape, secondLabels,
                 result.shape, resultLabels, call.plan) != TESSEL_STATUS_OK)
    return false;
  for (int64_t size : {call.plan.m, call.plan.n, call.plan.k, call.plan.batch})
    if (size > INT_MAX)
      return false;
  TensorType firstOrdered = inOrder(first, call.plan.lhsOrder);
  TensorType secondOrdered = inOrder(second, call.plan.rhsOrder);
  TensorType product = inOrder(result, call.plan.resultOrder);
  if (!call.lhs.plan(first, firstOrdered) ||
      !call.rhs.plan(second, secondOrdered) ||
      !call.result.plan(product, result))
    return false;
  call.lhsBytes = static_cast<size_t>(first.numBytes());
  call.rhsBytes = static_cast<size_t>(second.numBytes());
  call.productBytes = static_cast<size_t>(result.numBytes());
  return true;
}

} // namespace

std::optional<Kernel> buildCublasEinsum(const OpDescriptor &desc) {
  if (desc.operands.size() != 2)
    return std::nullopt;
  const TensorType &lhs = desc.operands[0], &rhs = desc.operands[1];
  const TensorType &result = desc.result;
  auto call = std::make_shared<GemmCall>();
  if (!gemmTypes(result.type, call->data, call->compute) ||
      lhs.type != result.type || rhs.type != result.type)
    return std::nullopt;
  for (const TensorType *type : {&lhs, &rhs, &result})
    if (!hasUniqueDims(*type) || type->numElements() == 0)
      return std::nullopt;
  if (!planGemm(lhs, rhs, result, *call))
    return std::nullopt;
  if (!call->result.identity()) {
    // A gradient such as [batch, classes] x [batch, hidden] -> [hidden,
    // classes] is [N, M] as written; swapped, it needs no permute.
    auto swapped = std::make_shared<GemmCall>(*call);
    if (planGemm(rhs, lhs, result, *swapped) && swapped->result.identity()) {
      swapped->swapped = true;
      call = swapped;
    }
  }

  return Kernel([call](tessel_context_t &context, void *const *operands,
                       void *out) {
    DeviceState &device = deviceOf(context);
    cudaStream_t stream = device.stream;
    const EinsumPlan &plan = call->plan;
    // Operands already in matmul order are used in place.
    std::optional<DeviceBuffer> lhsBuffer, rhsBuffer, productBuffer;
    const void *a = operands[call->swapped ? 1 : 0];
    const void *b = operands[call->swapped ? 0 : 1];
    void *c = out;
    if (!call->lhs.identity()) {
      lhsBuffer.emplace(stream, call->lhsBytes);
      call->lhs.run(stream, a, lhsBuffer->get());
      a = lhsBuffer->get();
    }
    if (!call->rhs.identity()) {
      rhsBuffer.emplace(stream, call->rhsBytes);
      call->rhs.run(stream, b, rhsBuffer->get());
      b = rhsBuffer->get();
    }
    if (!call->result.identity()) {
      productBuffer.emplace(stream, call->productBytes);
      c = productBuffer->get();
    }
    checkCuda(cudaGetLastError(), "the permute kernel");
    float alpha32 = 1, beta32 = 0;
    double alpha64 = 1, beta64 = 0;
    bool wide = call->compute == CUBLAS_COMPUTE_64F;
    const void *alpha = wide ? static_cast<const void *>(&alpha64) : &alpha32;
    const void *beta = wide ? static_cast<const void *>(&beta64) : &beta32;
    auto m = static_cast<long long>(plan.m), n = static_cast<long long>(plan.n),
         k = static_cast<long long>(plan.k);
    // Column-major C^T (n x m) = B^T (n x k) * A^T (k x m).
    checkCublas(
        cublasGemmStridedBatchedEx(
            device.cublas, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(n),
            static_cast<int>(m), static_cast<int>(k), alpha, b, call->data,
            static_cast<int>(n), k * n, a, call->data, static_cast<int>(k),
            m * k, beta, c, call->data, static_cast<int>(n), m * n,
            static_cast<int>(plan.batch), call->compute, CUBLAS_GEMM_DEFAULT),
        "cublasGemmStridedBatchedEx");
    if (!call->result.identity()) {
      call->result.run(stream, c, out);
      checkCuda(cudaGetLastError(), "the permute kernel");
    }
  });
}

} // namespace tessel::runtime::gpu
