//===- Einsum.cpp - Einsum as one strided batched cuBLAS GEMM -------------===//
//
// The plan (GemmPlan.h) says which operands need a permute into matmul
// order and gives cublasGemmStridedBatchedEx's arguments; this runs it:
// the permutes into stream-ordered temporaries, one GEMM, the product's
// permute into the result when needed.
//
// f32 computes in f32 (CUBLAS_COMPUTE_32F, no TF32, so results stay close
// to the reference's); bf16 and f16 use tensor-op math with f32
// accumulation; f64 computes in f64.
//
//===----------------------------------------------------------------------===//

#include "gpu/CudaStatus.h"
#include "gpu/DeviceState.h"
#include "gpu/GemmPlan.h"
#include "gpu/Ops.h"

#include <memory>

namespace tessel::runtime::gpu {

namespace {

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

struct GemmCall {
  GemmPlan plan;
  cudaDataType data;
  cublasComputeType_t compute;
};

/// Permutes an operand into matmul order, or uses it in place.
const void *inMatmulOrder(cudaStream_t stream, const Permute &permute,
                          size_t bytes, const void *operand,
                          std::optional<DeviceBuffer> &buffer) {
  if (permute.identity())
    return operand;
  buffer.emplace(stream, bytes);
  permute.run(stream, operand, buffer->get());
  checkCuda(cudaGetLastError(), "the permute kernel");
  return buffer->get();
}

} // namespace

std::optional<Kernel> buildCublasEinsum(const OpDescriptor &desc) {
  if (desc.operands.size() != 2)
    return std::nullopt;
  const TensorType &lhs = desc.operands[0], &rhs = desc.operands[1];
  auto call = std::make_shared<GemmCall>();
  if (!gemmTypes(desc.result.type, call->data, call->compute) ||
      lhs.type != desc.result.type || rhs.type != desc.result.type)
    return std::nullopt;
  std::optional<GemmPlan> plan = planGemm(lhs, rhs, desc.result);
  if (!plan)
    return std::nullopt;
  call->plan = *plan;

  return Kernel([call](tessel_context_t &context, void *const *operands,
                       void *out) {
    DeviceState &device = deviceOf(context);
    cudaStream_t stream = device.stream;
    const GemmPlan &plan = call->plan;
    std::optional<DeviceBuffer> firstBuffer, secondBuffer, productBuffer;
    const void *first =
        inMatmulOrder(stream, plan.first, plan.firstBytes,
                      operands[plan.swapped ? 1 : 0], firstBuffer);
    const void *second =
        inMatmulOrder(stream, plan.second, plan.secondBytes,
                      operands[plan.swapped ? 0 : 1], secondBuffer);
    void *product = out;
    if (!plan.product.identity()) {
      productBuffer.emplace(stream, plan.productBytes);
      product = productBuffer->get();
    }
    float alpha32 = 1, beta32 = 0;
    double alpha64 = 1, beta64 = 0;
    bool wide = call->compute == CUBLAS_COMPUTE_64F;
    const void *alpha = wide ? static_cast<const void *>(&alpha64) : &alpha32;
    const void *beta = wide ? static_cast<const void *>(&beta64) : &beta32;
    // cuBLAS's A is our second operand and its B our first (GemmPlan.h).
    checkCublas(cublasGemmStridedBatchedEx(
                    device.cublas, CUBLAS_OP_N, CUBLAS_OP_N, plan.m, plan.n,
                    plan.k, alpha, second, call->data, plan.lda, plan.strideA,
                    first, call->data, plan.ldb, plan.strideB, beta, product,
                    call->data, plan.ldc, plan.strideC, plan.batch,
                    call->compute, CUBLAS_GEMM_DEFAULT),
                "cublasGemmStridedBatchedEx");
    if (!plan.product.identity()) {
      plan.product.run(stream, product, out);
      checkCuda(cudaGetLastError(), "the permute kernel");
    }
  });
}

} // namespace tessel::runtime::gpu
