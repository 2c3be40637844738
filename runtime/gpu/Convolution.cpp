//===- Convolution.cpp - conv2d, pooling and their gradients on cuDNN -----===//
//
// The plans (ConvPlan.h) put operands into cuDNN's NCHW / KCRS order and say
// what cuDNN is given; this makes the descriptors and runs the calls:
// cudnnConvolutionForward / BackwardData / BackwardFilter, and
// cudnnPoolingForward / Backward with C = 1 and every non-spatial dim in N.
//
// The legacy cuDNN API is deprecated in cuDNN 9 but still shipped; it is
// what the headers here offer without cudnn_frontend. Algorithms are chosen
// on the first call (cudnnGet*Algorithm_v7, the first deterministic one that
// succeeds, so a step computes the same numbers every time) and cached with
// the call site.
//
//===----------------------------------------------------------------------===//

#include "gpu/ConvPlan.h"
#include "gpu/CudaStatus.h"
#include "gpu/DeviceState.h"
#include "gpu/Ops.h"
#include "gpu/Views.h"

#include "executor/Buffers.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <climits>
#include <mutex>

namespace tessel::runtime::gpu {

namespace {

bool cudnnTypes(ref::ElementType type, cudnnDataType_t &data,
                cudnnDataType_t &compute, cudnnMathType_t &math) {
  math = CUDNN_FMA_MATH;
  switch (type) {
  case ref::ElementType::F32:
    data = compute = CUDNN_DATA_FLOAT;
    return true;
  case ref::ElementType::F64:
    data = compute = CUDNN_DATA_DOUBLE;
    return true;
  case ref::ElementType::F16:
    data = CUDNN_DATA_HALF;
    compute = CUDNN_DATA_FLOAT;
    math = CUDNN_TENSOR_OP_MATH;
    return true;
  case ref::ElementType::BF16:
    data = CUDNN_DATA_BFLOAT16;
    compute = CUDNN_DATA_FLOAT;
    math = CUDNN_TENSOR_OP_MATH;
    return true;
  default:
    return false;
  }
}

/// alpha = 1 and beta = 0 in the type cuDNN wants for `compute`.
struct Scales {
  float one32 = 1, zero32 = 0;
  double one64 = 1, zero64 = 0;
  bool wide;
  explicit Scales(cudnnDataType_t compute)
      : wide(compute == CUDNN_DATA_DOUBLE) {}
  const void *one() const {
    return wide ? static_cast<const void *>(&one64) : &one32;
  }
  const void *zero() const {
    return wide ? static_cast<const void *>(&zero64) : &zero32;
  }
};

class TensorDesc {
public:
  TensorDesc() {
    checkCudnn(cudnnCreateTensorDescriptor(&desc),
               "cudnnCreateTensorDescriptor");
  }
  ~TensorDesc() { cudnnDestroyTensorDescriptor(desc); }
  TensorDesc(const TensorDesc &) = delete;
  void set(cudnnDataType_t type, int64_t n, int64_t c, int64_t h, int64_t w) {
    checkCudnn(
        cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, type,
                                   static_cast<int>(n), static_cast<int>(c),
                                   static_cast<int>(h), static_cast<int>(w)),
        "cudnnSetTensor4dDescriptor");
  }
  cudnnTensorDescriptor_t desc = nullptr;
};

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

struct ConvCall {
  ConvPlan plan;
  cudnnDataType_t data, compute;
  TensorDesc xDesc, yDesc;
  cudnnFilterDescriptor_t wDesc = nullptr;
  cudnnConvolutionDescriptor_t convDesc = nullptr;
  std::once_flag chosen;
  cudnnConvolutionFwdAlgo_t forwardAlgo{};
  cudnnConvolutionBwdDataAlgo_t dataAlgo{};
  cudnnConvolutionBwdFilterAlgo_t filterAlgo{};
  size_t workspace = 0;

  ConvCall() {
    checkCudnn(cudnnCreateFilterDescriptor(&wDesc),
               "cudnnCreateFilterDescriptor");
    checkCudnn(cudnnCreateConvolutionDescriptor(&convDesc),
               "cudnnCreateConvolutionDescriptor");
  }
  ~ConvCall() {
    cudnnDestroyFilterDescriptor(wDesc);
    cudnnDestroyConvolutionDescriptor(convDesc);
  }

  void choose(cudnnHandle_t handle);
  void run(DeviceState &device, void *const *operands, void *result);
};

/// The first algorithm that succeeds, preferring deterministic ones.
template <typename Perf> const Perf *pick(const Perf *perfs, int count) {
  for (int i = 0; i < count; ++i)
    if (perfs[i].status == CUDNN_STATUS_SUCCESS &&
        perfs[i].determinism == CUDNN_DETERMINISTIC)
      return &perfs[i];
  for (int i = 0; i < count; ++i)
    if (perfs[i].status == CUDNN_STATUS_SUCCESS)
      return &perfs[i];
  throw OpError("cuDNN offers no algorithm for this convolution");
}

void ConvCall::choose(cudnnHandle_t handle) {
  constexpr int kMaxAlgorithms = 16;
  int count = 0;
  switch (plan.kind) {
  case ConvKind::Forward: {
    cudnnConvolutionFwdAlgoPerf_t perfs[kMaxAlgorithms];
    checkCudnn(cudnnGetConvolutionForwardAlgorithm_v7(
                   handle, xDesc.desc, wDesc, convDesc, yDesc.desc,
                   kMaxAlgorithms, &count, perfs),
               "cudnnGetConvolutionForwardAlgorithm_v7");
    const auto *best = pick(perfs, count);
    forwardAlgo = best->algo;
    checkCudnn(cudnnGetConvolutionForwardWorkspaceSize(
                   handle, xDesc.desc, wDesc, convDesc, yDesc.desc, forwardAlgo,
                   &workspace),
               "cudnnGetConvolutionForwardWorkspaceSize");
    break;
  }
  case ConvKind::BackwardInput: {
    cudnnConvolutionBwdDataAlgoPerf_t perfs[kMaxAlgorithms];
    checkCudnn(cudnnGetConvolutionBackwardDataAlgorithm_v7(
                   handle, wDesc, yDesc.desc, convDesc, xDesc.desc,
                   kMaxAlgorithms, &count, perfs),
               "cudnnGetConvolutionBackwardDataAlgorithm_v7");
    const auto *best = pick(perfs, count);
    dataAlgo = best->algo;
    checkCudnn(cudnnGetConvolutionBackwardDataWorkspaceSize(
                   handle, wDesc, yDesc.desc, convDesc, xDesc.desc, dataAlgo,
                   &workspace),
               "cudnnGetConvolutionBackwardDataWorkspaceSize");
    break;
  }
  case ConvKind::BackwardFilter: {
    cudnnConvolutionBwdFilterAlgoPerf_t perfs[kMaxAlgorithms];
    checkCudnn(cudnnGetConvolutionBackwardFilterAlgorithm_v7(
                   handle, xDesc.desc, yDesc.desc, convDesc, wDesc,
                   kMaxAlgorithms, &count, perfs),
               "cudnnGetConvolutionBackwardFilterAlgorithm_v7");
    const auto *best = pick(perfs, count);
    filterAlgo = best->algo;
    checkCudnn(cudnnGetConvolutionBackwardFilterWorkspaceSize(
                   handle, xDesc.desc, yDesc.desc, convDesc, wDesc, filterAlgo,
                   &workspace),
               "cudnnGetConvolutionBackwardFilterWorkspaceSize");
    break;
  }
  }
}

/// Permutes an operand into cuDNN's order, or uses it in place.
const void *packOperand(cudaStream_t stream, const Packed &packed,
                        const void *operand,
                        std::optional<DeviceBuffer> &buffer) {
  if (packed.permute.identity())
    return operand;
  buffer.emplace(stream, packed.bytes);
  packed.permute.run(stream, operand, buffer->get());
  checkCuda(cudaGetLastError(), "the permute kernel");
  return buffer->get();
}

void ConvCall::run(DeviceState &device, void *const *operands, void *result) {
  std::call_once(chosen, [&] { choose(device.cudnn); });
  cudaStream_t stream = device.stream;
  std::optional<DeviceBuffer> first, second, output;
  DeviceBuffer workspaceBuffer(stream, workspace);
  Scales scales(compute);
  // The result is computed in cuDNN's order into `out`, then permuted.
  const Packed &resultPacked = plan.result();
  void *out = result;
  if (!resultPacked.permute.identity()) {
    output.emplace(stream, resultPacked.bytes);
    out = output->get();
  }
  switch (plan.kind) {
  case ConvKind::Forward: {
    const void *xData = packOperand(stream, plan.x, operands[0], first);
    const void *wData = packOperand(stream, plan.w, operands[1], second);
    checkCudnn(cudnnConvolutionForward(
                   device.cudnn, scales.one(), xDesc.desc, xData, wDesc, wData,
                   convDesc, forwardAlgo, workspaceBuffer.get(), workspace,
                   scales.zero(), yDesc.desc, out),
               "cudnnConvolutionForward");
    break;
  }
  case ConvKind::BackwardInput: {
    const void *dyData = packOperand(stream, plan.y, operands[0], first);
    const void *wData = packOperand(stream, plan.w, operands[1], second);
    checkCudnn(cudnnConvolutionBackwardData(
                   device.cudnn, scales.one(), wDesc, wData, yDesc.desc, dyData,
                   convDesc, dataAlgo, workspaceBuffer.get(), workspace,
                   scales.zero(), xDesc.desc, out),
               "cudnnConvolutionBackwardData");
    break;
  }
  case ConvKind::BackwardFilter: {
    const void *xData = packOperand(stream, plan.x, operands[0], first);
    const void *dyData = packOperand(stream, plan.y, operands[1], second);
    checkCudnn(cudnnConvolutionBackwardFilter(
                   device.cudnn, scales.one(), xDesc.desc, xData, yDesc.desc,
                   dyData, convDesc, filterAlgo, workspaceBuffer.get(),
                   workspace, scales.zero(), wDesc, out),
               "cudnnConvolutionBackwardFilter");
    break;
  }
  }
  if (output) {
    resultPacked.permute.run(stream, out, result);
    checkCuda(cudaGetLastError(), "the permute kernel");
  }
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

struct PoolCall {
  PoolPlan plan;
  cudnnDataType_t data, compute;
  TensorDesc xDesc, yDesc;
  cudnnPoolingDescriptor_t poolDesc = nullptr;

  PoolCall() {
    checkCudnn(cudnnCreatePoolingDescriptor(&poolDesc),
               "cudnnCreatePoolingDescriptor");
  }
  ~PoolCall() { cudnnDestroyPoolingDescriptor(poolDesc); }

  void run(DeviceState &device, void *const *operands, void *result) {
    cudaStream_t stream = device.stream;
    Scales scales(compute);
    std::optional<DeviceBuffer> xBuffer, dyBuffer, yBuffer, outBuffer;
    const void *xData = packOperand(stream, plan.x, operands[0], xBuffer);
    if (!plan.backward) {
      void *out = result;
      if (!plan.y.permute.identity()) {
        outBuffer.emplace(stream, plan.y.bytes);
        out = outBuffer->get();
      }
      checkCudnn(cudnnPoolingForward(device.cudnn, poolDesc, scales.one(),
                                     xDesc.desc, xData, scales.zero(),
                                     yDesc.desc, out),
                 "cudnnPoolingForward");
      if (outBuffer)
        plan.y.permute.run(stream, out, result);
      checkCuda(cudaGetLastError(), "the permute kernel");
      return;
    }
    // cuDNN's backward pass wants the forward result too.
    const void *dyData = packOperand(stream, plan.dy, operands[1], dyBuffer);
    yBuffer.emplace(stream, plan.dy.bytes);
    checkCudnn(cudnnPoolingForward(device.cudnn, poolDesc, scales.one(),
                                   xDesc.desc, xData, scales.zero(), yDesc.desc,
                                   yBuffer->get()),
               "cudnnPoolingForward");
    void *out = result;
    if (!plan.unpack.identity()) {
      outBuffer.emplace(stream, plan.x.bytes);
      out = outBuffer->get();
    }
    checkCudnn(cudnnPoolingBackward(device.cudnn, poolDesc, scales.one(),
                                    yDesc.desc, yBuffer->get(), yDesc.desc,
                                    dyData, xDesc.desc, xData, scales.zero(),
                                    xDesc.desc, out),
               "cudnnPoolingBackward");
    if (outBuffer) {
      plan.unpack.run(stream, out, result);
      checkCuda(cudaGetLastError(), "the permute kernel");
    }
  }
};

} // namespace

std::optional<Kernel> buildCudnnConvolution(const OpDescriptor &desc) {
  std::optional<ConvPlan> plan = planConvolution(desc);
  auto call = std::make_shared<ConvCall>();
  cudnnMathType_t math;
  if (!plan || !cudnnTypes(desc.result.type, call->data, call->compute, math))
    return std::nullopt;
  call->plan = *plan;
  call->xDesc.set(call->data, plan->n, plan->c, plan->h, plan->width);
  call->yDesc.set(call->data, plan->n, plan->f, plan->p, plan->q);
  checkCudnn(cudnnSetFilter4dDescriptor(
                 call->wDesc, call->data, CUDNN_TENSOR_NCHW,
                 static_cast<int>(plan->f), static_cast<int>(plan->c),
                 static_cast<int>(plan->kh), static_cast<int>(plan->kw)),
             "cudnnSetFilter4dDescriptor");
  checkCudnn(cudnnSetConvolution2dDescriptor(
                 call->convDesc, static_cast<int>(plan->padding[0]),
                 static_cast<int>(plan->padding[1]),
                 static_cast<int>(plan->strides[0]),
                 static_cast<int>(plan->strides[1]),
                 static_cast<int>(plan->dilations[0]),
                 static_cast<int>(plan->dilations[1]), CUDNN_CROSS_CORRELATION,
                 call->compute),
             "cudnnSetConvolution2dDescriptor");
  checkCudnn(cudnnSetConvolutionMathType(call->convDesc, math),
             "cudnnSetConvolutionMathType");
  // cuDNN must see the output size the compiler computed.
  int on, oc, oh, ow;
  checkCudnn(
      cudnnGetConvolution2dForwardOutputDim(call->convDesc, call->xDesc.desc,
                                            call->wDesc, &on, &oc, &oh, &ow),
      "cudnnGetConvolution2dForwardOutputDim");
  if (on != plan->n || oc != plan->f || oh != plan->p || ow != plan->q)
    return std::nullopt;
  return Kernel(
      [call](tessel_context_t &context, void *const *operands, void *result) {
        call->run(deviceOf(context), operands, result);
      });
}

std::optional<Kernel> buildCudnnPool(const OpDescriptor &desc) {
  std::optional<PoolPlan> plan = planPool(desc);
  auto call = std::make_shared<PoolCall>();
  cudnnMathType_t math;
  if (!plan || !cudnnTypes(desc.result.type, call->data, call->compute, math))
    return std::nullopt;
  call->plan = *plan;
  call->xDesc.set(call->data, plan->n, 1, plan->h, plan->width);
  call->yDesc.set(call->data, plan->n, 1, plan->p, plan->q);
  checkCudnn(cudnnSetPooling2dDescriptor(
                 call->poolDesc,
                 plan->max ? CUDNN_POOLING_MAX_DETERMINISTIC
                           : CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING,
                 CUDNN_PROPAGATE_NAN, static_cast<int>(plan->window[0]),
                 static_cast<int>(plan->window[1]),
                 static_cast<int>(plan->padding[0]),
                 static_cast<int>(plan->padding[1]),
                 static_cast<int>(plan->strides[0]),
                 static_cast<int>(plan->strides[1])),
             "cudnnSetPooling2dDescriptor");
  int on, oc, oh, ow;
  checkCudnn(cudnnGetPooling2dForwardOutputDim(call->poolDesc, call->xDesc.desc,
                                               &on, &oc, &oh, &ow),
             "cudnnGetPooling2dForwardOutputDim");
  if (on != plan->n || oh != plan->p || ow != plan->q)
    return std::nullopt;
  return Kernel(
      [call](tessel_context_t &context, void *const *operands, void *result) {
        call->run(deviceOf(context), operands, result);
      });
}

} // namespace tessel::runtime::gpu
