//===- Convolution.cpp - conv2d, pooling and their gradients on cuDNN -----===//
//
// cuDNN wants NCHW tensors and KCRS filters; tessel's have named dims in any
// order and any number of pass-through dims (batch and the like). So each
// operand is permuted (Views.h's Permute, skipped when already in order)
// into [pass..., channel, h, w] with the pass-through dims collapsed into
// N, the filter into [out, in, kh, kw], and the result computed in that
// order and permuted into the descriptor's. Pooling runs with C = 1 and
// every non-spatial dim in N.
//
// cuDNN pads both sides of a dim alike, so asymmetric padding (and any
// shape cuDNN would compute differently) is left to the host kernel. The
// legacy cuDNN API is deprecated in cuDNN 9 but still shipped; it is what
// the headers here offer without cudnn_frontend.
//
// Algorithms are chosen on the first call (cudnnGet*Algorithm_v7, the first
// deterministic one that succeeds, so a step computes the same numbers
// every time) and cached with the call site.
//
//===----------------------------------------------------------------------===//

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

/// One operand or result in cuDNN's order.
struct Packed {
  Permute permute; // operand -> packed, or packed -> result
  size_t bytes = 0;

  bool plan(const TensorType &from, const TensorType &to) {
    bytes = static_cast<size_t>(from.numBytes());
    return permute.plan(from, to);
  }
};

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

bool fitsInt(int64_t value) { return value >= 0 && value <= INT_MAX; }

/// The product of the sizes of `type`'s dims other than `exclude`, and
/// those dims' names.
int64_t passThrough(const TensorType &type,
                    const std::vector<std::string> &exclude,
                    std::vector<std::string> &dims) {
  int64_t product = 1;
  for (size_t i = 0; i < type.dims.size(); ++i)
    if (std::find(exclude.begin(), exclude.end(), type.dims[i]) ==
        exclude.end()) {
      dims.push_back(type.dims[i]);
      product *= type.shape[i];
    }
  return product;
}

std::vector<std::string> concatNames(std::vector<std::string> front,
                                     const std::vector<std::string> &back) {
  front.insert(front.end(), back.begin(), back.end());
  return front;
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

enum class ConvKind { Forward, BackwardInput, BackwardFilter };

struct ConvCall {
  ConvKind kind;
  Packed x, w, y; // NCHW input, KCRS filter, NKPQ output (operands or result)
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
  switch (kind) {
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
  const Packed &resultPacked = kind == ConvKind::Forward         ? y
                               : kind == ConvKind::BackwardInput ? x
                                                                 : w;
  void *out = result;
  if (!resultPacked.permute.identity()) {
    output.emplace(stream, resultPacked.bytes);
    out = output->get();
  }
  switch (kind) {
  case ConvKind::Forward: {
    const void *xData = packOperand(stream, x, operands[0], first);
    const void *wData = packOperand(stream, w, operands[1], second);
    checkCudnn(cudnnConvolutionForward(
                   device.cudnn, scales.one(), xDesc.desc, xData, wDesc, wData,
                   convDesc, forwardAlgo, workspaceBuffer.get(), workspace,
                   scales.zero(), yDesc.desc, out),
               "cudnnConvolutionForward");
    break;
  }
  case ConvKind::BackwardInput: {
    const void *dyData = packOperand(stream, y, operands[0], first);
    const void *wData = packOperand(stream, w, operands[1], second);
    checkCudnn(cudnnConvolutionBackwardData(
                   device.cudnn, scales.one(), wDesc, wData, yDesc.desc, dyData,
                   convDesc, dataAlgo, workspaceBuffer.get(), workspace,
                   scales.zero(), xDesc.desc, out),
               "cudnnConvolutionBackwardData");
    break;
  }
  case ConvKind::BackwardFilter: {
    const void *xData = packOperand(stream, x, operands[0], first);
    const void *dyData = packOperand(stream, y, operands[1], second);
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
  bool backward = false;
  Packed x, y, dy; // x, the pooled y (or the result), y's gradient
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
    const void *xData = packOperand(stream, x, operands[0], xBuffer);
    if (!backward) {
      void *out = result;
      if (!y.permute.identity()) {
        outBuffer.emplace(stream, y.bytes);
        out = outBuffer->get();
      }
      checkCudnn(cudnnPoolingForward(device.cudnn, poolDesc, scales.one(),
                                     xDesc.desc, xData, scales.zero(),
                                     yDesc.desc, out),
                 "cudnnPoolingForward");
      if (outBuffer)
        y.permute.run(stream, out, result);
      checkCuda(cudaGetLastError(), "the permute kernel");
      return;
    }
    // cuDNN's backward pass wants the forward result too.
    const void *dyData = packOperand(stream, dy, operands[1], dyBuffer);
    yBuffer.emplace(stream, dy.bytes);
    checkCudnn(cudnnPoolingForward(device.cudnn, poolDesc, scales.one(),
                                   xDesc.desc, xData, scales.zero(), yDesc.desc,
                                   yBuffer->get()),
               "cudnnPoolingForward");
    void *out = result;
    if (!x.permute.identity()) {
      outBuffer.emplace(stream, x.bytes);
      out = outBuffer->get();
    }
    checkCudnn(cudnnPoolingBackward(device.cudnn, poolDesc, scales.one(),
                                    yDesc.desc, yBuffer->get(), yDesc.desc,
                                    dyData, xDesc.desc, xData, scales.zero(),
                                    xDesc.desc, out),
               "cudnnPoolingBackward");
    if (outBuffer) {
      unpackResult.run(stream, out, result);
      checkCuda(cudaGetLastError(), "the permute kernel");
    }
  }
  /// pool_backward: from cuDNN's order into the result's (x's inverse).
  Permute unpackResult;
};

std::array<std::string, 2> twoNames(const OpDescriptor &desc,
                                    const char *name) {
  std::vector<std::string> values = desc.stringListAttr(name);
  if (values.size() != 2)
    throw OpError(
        fmt::format("attribute '{}' has {} names, not 2", name, values.size()));
  return {values[0], values[1]};
}

/// Equal low and high padding per spatial dim, as cuDNN pads; none when a
/// dim's two sides differ.
std::optional<std::array<int64_t, 2>>
symmetricPadding(const std::vector<int64_t> &padding) {
  if (padding.size() != 4 || padding[0] != padding[1] ||
      padding[2] != padding[3])
    return std::nullopt;
  return std::array<int64_t, 2>{padding[0], padding[2]};
}

} // namespace

std::optional<Kernel> buildCudnnConvolution(const OpDescriptor &desc) {
  desc.expectOperands(2);
  auto call = std::make_shared<ConvCall>();
  call->kind = desc.op == "tessel.conv2d" ? ConvKind::Forward
               : desc.op == "tessel.conv2d_backward_input"
                   ? ConvKind::BackwardInput
                   : ConvKind::BackwardFilter;
  cudnnMathType_t math;
  if (!cudnnTypes(desc.result.type, call->data, call->compute, math))
    return std::nullopt;
  for (const TensorType &operand : desc.operands)
    if (operand.type != desc.result.type)
      return std::nullopt;
  std::string inChannel = desc.stringAttr("input_channel");
  std::string outChannel = desc.stringAttr("output_channel");
  std::array<std::string, 2> spatial = twoNames(desc, "spatial");
  std::array<std::string, 2> kernel = twoNames(desc, "kernel");
  std::vector<int64_t> strides =
      desc.intListAttr("strides", std::vector<int64_t>{1, 1});
  std::vector<int64_t> dilations =
      desc.intListAttr("dilations", std::vector<int64_t>{1, 1});
  std::optional<std::array<int64_t, 2>> padding = symmetricPadding(
      desc.intListAttr("padding", std::vector<int64_t>{0, 0, 0, 0}));
  if (!padding || strides.size() != 2 || dilations.size() != 2)
    return std::nullopt;

  // The three tensors of the convolution as the descriptor has them.
  const TensorType *xType = nullptr, *wType = nullptr, *yType = nullptr;
  switch (call->kind) {
  case ConvKind::Forward:
    xType = &desc.operands[0], wType = &desc.operands[1], yType = &desc.result;
    break;
  case ConvKind::BackwardInput:
    yType = &desc.operands[0], wType = &desc.operands[1], xType = &desc.result;
    break;
  case ConvKind::BackwardFilter:
    xType = &desc.operands[0], yType = &desc.operands[1], wType = &desc.result;
    break;
  }
  std::vector<std::string> pass;
  int64_t n = passThrough(*xType, {inChannel, spatial[0], spatial[1]}, pass);
  TensorType xPacked =
      reordered(*xType, concatNames(pass, {inChannel, spatial[0], spatial[1]}));
  TensorType yPacked = reordered(
      *yType, concatNames(pass, {outChannel, spatial[0], spatial[1]}));
  TensorType wPacked =
      reordered(*wType, {outChannel, inChannel, kernel[0], kernel[1]});
  // Operands are packed from the descriptor's layout; the result is
  // unpacked into it.
  bool planned = true;
  planned &= call->kind == ConvKind::BackwardInput
                 ? call->x.plan(xPacked, *xType)
                 : call->x.plan(*xType, xPacked);
  planned &= call->kind == ConvKind::Forward ? call->y.plan(yPacked, *yType)
                                             : call->y.plan(*yType, yPacked);
  planned &= call->kind == ConvKind::BackwardFilter
                 ? call->w.plan(wPacked, *wType)
                 : call->w.plan(*wType, wPacked);
  if (!planned)
    return std::nullopt;
  const std::vector<int64_t> &xs = xPacked.shape, &ws = wPacked.shape;
  int64_t c = xs[pass.size()], h = xs[pass.size() + 1], w = xs[pass.size() + 2];
  int64_t f = ws[0], p = yPacked.shape[pass.size() + 1],
          q = yPacked.shape[pass.size() + 2];
  for (int64_t size : {n, c, h, w, f, ws[2], ws[3], p, q})
    if (!fitsInt(size) || size == 0)
      return std::nullopt;

  call->xDesc.set(call->data, n, c, h, w);
  call->yDesc.set(call->data, n, f, p, q);
  checkCudnn(cudnnSetFilter4dDescriptor(
                 call->wDesc, call->data, CUDNN_TENSOR_NCHW,
                 static_cast<int>(f), static_cast<int>(c),
                 static_cast<int>(ws[2]), static_cast<int>(ws[3])),
             "cudnnSetFilter4dDescriptor");
  checkCudnn(cudnnSetConvolution2dDescriptor(
                 call->convDesc, static_cast<int>((*padding)[0]),
                 static_cast<int>((*padding)[1]), static_cast<int>(strides[0]),
                 static_cast<int>(strides[1]), static_cast<int>(dilations[0]),
                 static_cast<int>(dilations[1]), CUDNN_CROSS_CORRELATION,
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
  if (on != n || oc != f || oh != p || ow != q)
    return std::nullopt;
  return Kernel(
      [call](tessel_context_t &context, void *const *operands, void *result) {
        call->run(deviceOf(context), operands, result);
      });
}

std::optional<Kernel> buildCudnnPool(const OpDescriptor &desc) {
  auto call = std::make_shared<PoolCall>();
  call->backward = desc.op == "tessel.pool_backward";
  desc.expectOperands(call->backward ? 2 : 1);
  cudnnMathType_t math;
  if (!cudnnTypes(desc.result.type, call->data, call->compute, math))
    return std::nullopt;
  for (const TensorType &operand : desc.operands)
    if (operand.type != desc.result.type)
      return std::nullopt;
  std::string kind = desc.stringAttr("kind");
  if (kind != "max" && kind != "avg")
    return std::nullopt;
  std::array<std::string, 2> spatial = twoNames(desc, "spatial");
  std::vector<int64_t> window = desc.intListAttr("window");
  std::vector<int64_t> strides =
      desc.intListAttr("strides", std::vector<int64_t>{1, 1});
  std::optional<std::array<int64_t, 2>> padding = symmetricPadding(
      desc.intListAttr("padding", std::vector<int64_t>{0, 0, 0, 0}));
  if (!padding || window.size() != 2 || strides.size() != 2)
    return std::nullopt;

  const TensorType &xType = desc.operands[0];
  const TensorType &yType = call->backward ? desc.operands[1] : desc.result;
  std::vector<std::string> pass;
  int64_t n = passThrough(xType, {spatial[0], spatial[1]}, pass);
  std::vector<std::string> order = concatNames(pass, {spatial[0], spatial[1]});
  TensorType xPacked = reordered(xType, order);
  TensorType yPacked = reordered(yType, order);
  if (!call->x.plan(xType, xPacked))
    return std::nullopt;
  if (call->backward) {
    if (!call->dy.plan(yType, yPacked) ||
        !call->unpackResult.plan(xPacked, desc.result))
      return std::nullopt;
  } else if (!call->y.plan(yPacked, yType)) {
    return std::nullopt;
  }
  int64_t h = xPacked.shape[pass.size()], w = xPacked.shape[pass.size() + 1];
  int64_t p = yPacked.shape[pass.size()], q = yPacked.shape[pass.size() + 1];
  for (int64_t size : {n, h, w, p, q})
    if (!fitsInt(size) || size == 0)
      return std::nullopt;
  call->xDesc.set(call->data, n, 1, h, w);
  call->yDesc.set(call->data, n, 1, p, q);
  checkCudnn(cudnnSetPooling2dDescriptor(
                 call->poolDesc,
                 kind == "max" ? CUDNN_POOLING_MAX_DETERMINISTIC
                               : CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING,
                 CUDNN_PROPAGATE_NAN, static_cast<int>(window[0]),
                 static_cast<int>(window[1]), static_cast<int>((*padding)[0]),
                 static_cast<int>((*padding)[1]), static_cast<int>(strides[0]),
                 static_cast<int>(strides[1])),
             "cudnnSetPooling2dDescriptor");
  int on, oc, oh, ow;
  checkCudnn(cudnnGetPooling2dForwardOutputDim(call->poolDesc, call->xDesc.desc,
                                               &on, &oc, &oh, &ow),
             "cudnnGetPooling2dForwardOutputDim");
  if (on != n || oh != p || ow != q)
    return std::nullopt;
  return Kernel(
      [call](tessel_context_t &context, void *const *operands, void *result) {
        call->run(deviceOf(context), operands, result);
      });
}

} // namespace tessel::runtime::gpu
