//===- ModelOps.cpp - Model-level ops on CUDA kernels ---------------------===//
//
// The builders of the CUDA backend for model-level ops: element-wise ops
// and fused chains of them (FusedPlan.h), reductions, softmax, layer norm and
// cross-entropy on the kernels of Launch.h; data movement (broadcast,
// transpose, slice, pad, concat) on its strided copy; einsum, convolutions and
// pooling through cuBLAS and cuDNN (Einsum.cpp, Convolution.cpp). Whatever a
// builder does not cover falls back to buildOnHost: the host kernel between
// copies.
//
//===----------------------------------------------------------------------===//

#include "gpu/CudaStatus.h"
#include "gpu/DeviceState.h"
#include "gpu/FusedPlan.h"
#include "gpu/Ops.h"
#include "gpu/Views.h"

#include "executor/Buffers.h"

#include "reference/Kernels.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

namespace tessel::runtime::gpu {

namespace {

const KernelRegistry &hostRegistry() {
  static const KernelRegistry builders = [] {
    KernelRegistry result;
    registerModelOps(result);
    registerMeshOps(result);
    return result;
  }();
  return builders;
}

/// With TESSEL_GPU_REPORT_HOST_OPS set, says once per op name that it runs
/// on the host, so a slow step can be explained.
void reportHostOp(const std::string &op) {
  static const bool report = std::getenv("TESSEL_GPU_REPORT_HOST_OPS");
  static std::mutex mutex;
  static std::set<std::string> reported;
  if (!report)
    return;
  std::lock_guard<std::mutex> lock(mutex);
  if (reported.insert(op).second)
    std::fprintf(stderr, "tessel: note: %s runs on the host\n", op.c_str());
}

void launched(const char *what) { checkCuda(cudaGetLastError(), what); }

cudaStream_t streamOf(tessel_context_t &context) {
  return deviceOf(context).stream;
}

/// Operand strides over the result's dims, by name; none past kMaxDims.
std::optional<Strides> operandStrides(const OpDescriptor &desc, size_t i) {
  return stridesByName(desc.operands[i], desc.result.dims);
}

} // namespace

Kernel buildOnHost(const OpDescriptor &desc) {
  auto builder = hostRegistry().find(desc.op);
  if (builder == hostRegistry().end())
    throw OpError(
        fmt::format("the runtime has no kernel for op '{}'", desc.op));
  Kernel host = builder->second(desc);
  reportHostOp(desc.op);
  return [host, operandTypes = desc.operands, resultType = desc.result](
             tessel_context_t &context, void *const *operands, void *result) {
    cudaStream_t stream = streamOf(context);
    std::vector<std::vector<unsigned char>> inputs(operandTypes.size());
    std::vector<void *> pointers;
    for (size_t i = 0; i < operandTypes.size(); ++i) {
      inputs[i].resize(static_cast<size_t>(operandTypes[i].numBytes()));
      if (!inputs[i].empty())
        checkCuda(cudaMemcpyAsync(inputs[i].data(), operands[i],
                                  inputs[i].size(), cudaMemcpyDeviceToHost,
                                  stream),
                  "cudaMemcpyAsync to the host");
      pointers.push_back(inputs[i].data());
    }
    checkCuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    std::vector<unsigned char> output(
        static_cast<size_t>(resultType.numBytes()));
    host(context, pointers.data(), output.data());
    if (!output.empty()) {
      checkCuda(cudaMemcpyAsync(result, output.data(), output.size(),
                                cudaMemcpyHostToDevice, stream),
                "cudaMemcpyAsync to the device");
      checkCuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    }
  };
}

namespace {

//===----------------------------------------------------------------------===//
// Values made without operands
//===----------------------------------------------------------------------===//

/// constant and iota: the host kernel's bytes, made on the first call and
/// kept in device memory for the process's life, then copied each call.
Kernel buildCachedOnDevice(const OpDescriptor &desc) {
  auto builder = hostRegistry().find(desc.op);
  Kernel host = builder->second(desc);
  struct Cache {
    std::once_flag made;
    void *device = nullptr;
  };
  auto cache = std::make_shared<Cache>();
  size_t bytes = static_cast<size_t>(desc.result.numBytes());
  return [host, cache, bytes](tessel_context_t &context, void *const *operands,
                              void *result) {
    if (bytes == 0)
      return;
    cudaStream_t stream = streamOf(context);
    std::call_once(cache->made, [&] {
      std::vector<unsigned char> values(bytes);
      host(context, operands, values.data());
      checkCuda(cudaMalloc(&cache->device, bytes), "cudaMalloc");
      checkCuda(cudaMemcpy(cache->device, values.data(), bytes,
                           cudaMemcpyHostToDevice),
                "cudaMemcpy to the device");
    });
    checkCuda(cudaMemcpyAsync(result, cache->device, bytes,
                              cudaMemcpyDeviceToDevice, stream),
              "cudaMemcpyAsync");
  };
}

//===----------------------------------------------------------------------===//
// Element-wise
//===----------------------------------------------------------------------===//

template <ref::UnaryKind Kind> Kernel buildUnary(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::optional<Walk> walk = walkOver(desc.result.shape);
  std::optional<Strides> x = operandStrides(desc, 0);
  if (!walk || !x || desc.operands[0].type != desc.result.type)
    return buildOnHost(desc);
  DType type = dtypeOf(desc.result.type);
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    launchUnary(streamOf(context), static_cast<UnaryOp>(Kind), type, *walk,
                operands[0], *x, result);
    launched("the unary kernel");
  };
}

template <ref::BinaryKind Kind> Kernel buildBinary(const OpDescriptor &desc) {
  desc.expectOperands(2);
  std::optional<Walk> walk = walkOver(desc.result.shape);
  std::optional<Strides> a = operandStrides(desc, 0);
  std::optional<Strides> b = operandStrides(desc, 1);
  if (!walk || !a || !b)
    return buildOnHost(desc);
  DType aType = dtypeOf(desc.operands[0].type);
  DType bType = dtypeOf(desc.operands[1].type);
  DType resultType = dtypeOf(desc.result.type);
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    launchBinary(streamOf(context), static_cast<BinaryOp>(Kind), *walk, aType,
                 operands[0], *a, bType, operands[1], *b, resultType, result);
    launched("the binary kernel");
  };
}

constexpr std::pair<const char *, CompareOp> kCompareOps[] = {
    {"eq", CompareOp::Eq}, {"ne", CompareOp::Ne}, {"lt", CompareOp::Lt},
    {"le", CompareOp::Le}, {"gt", CompareOp::Gt}, {"ge", CompareOp::Ge},
};
constexpr std::pair<const char *, ReduceOp> kReduceOps[] = {
    {"sum", ReduceOp::Sum}, {"mean", ReduceOp::Mean}, {"max", ReduceOp::Max},
    {"min", ReduceOp::Min}, {"prod", ReduceOp::Prod},
};

/// The enum an attribute spells; none for a spelling the table lacks, and
/// then the host builder reports the error.
template <typename Enum, size_t N>
std::optional<Enum> enumAttr(const OpDescriptor &desc, const char *name,
                             const std::pair<const char *, Enum> (&table)[N]) {
  std::string value = desc.stringAttr(name);
  for (const auto &[spelling, kind] : table)
    if (value == spelling)
      return kind;
  return std::nullopt;
}

Kernel buildCompare(const OpDescriptor &desc) {
  desc.expectOperands(2);
  std::optional<CompareOp> op = enumAttr(desc, "kind", kCompareOps);
  std::optional<Walk> walk = walkOver(desc.result.shape);
  std::optional<Strides> a = operandStrides(desc, 0);
  std::optional<Strides> b = operandStrides(desc, 1);
  if (!op || !walk || !a || !b || desc.result.type != ref::ElementType::I1)
    return buildOnHost(desc);
  DType aType = dtypeOf(desc.operands[0].type);
  DType bType = dtypeOf(desc.operands[1].type);
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    launchCompare(streamOf(context), *op, *walk, aType, operands[0], *a, bType,
                  operands[1], *b, result);
    launched("the compare kernel");
  };
}

Kernel buildSelect(const OpDescriptor &desc) {
  desc.expectOperands(3);
  std::optional<Walk> walk = walkOver(desc.result.shape);
  std::optional<Strides> c = operandStrides(desc, 0);
  std::optional<Strides> a = operandStrides(desc, 1);
  std::optional<Strides> b = operandStrides(desc, 2);
  if (!walk || !c || !a || !b)
    return buildOnHost(desc);
  DType cType = dtypeOf(desc.operands[0].type);
  DType aType = dtypeOf(desc.operands[1].type);
  DType bType = dtypeOf(desc.operands[2].type);
  DType resultType = dtypeOf(desc.result.type);
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    launchSelect(streamOf(context), *walk, cType, operands[0], *c, aType,
                 operands[1], *a, bType, operands[2], *b, resultType, result);
    launched("the select kernel");
  };
}

Kernel buildCast(const OpDescriptor &desc) {
  desc.expectOperands(1);
  if (desc.operands[0].dims != desc.result.dims)
    return buildOnHost(desc);
  DType from = dtypeOf(desc.operands[0].type);
  DType to = dtypeOf(desc.result.type);
  int64_t count = desc.result.numElements();
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    launchConvert(streamOf(context), from, operands[0], to, result, count);
    launched("the convert kernel");
  };
}

/// tessel.fused: the whole body per element, in one launch; a body beyond
/// the program's limits runs on the host. One result only: `tessel compile
/// --target cuda` does not merge fused ops into ones of several results
/// (tessel-merge-fused-outputs).
Kernel buildFusedElementwise(const OpDescriptor &desc) {
  if (!desc.moreResults.empty())
    throw OpError(fmt::format("the GPU runtime's fused kernel writes one "
                              "result, this fused op has {}",
                              desc.moreResults.size() + 1));
  std::optional<FusedCode> planned = planFused(desc);
  if (!planned)
    return buildOnHost(desc);
  auto program = std::make_shared<const FusedCode>(*planned);
  size_t numOperands = desc.operands.size();
  return [program, numOperands](tessel_context_t &context,
                                void *const *operands, void *result) {
    FusedOperands pointers{};
    std::copy(operands, operands + numOperands, pointers.at);
    launchFused(streamOf(context), *program, pointers, result);
    launched("the fused kernel");
  };
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

/// The result is the operand's bytes as they are.
Kernel buildSameBytes(const OpDescriptor &desc) {
  desc.expectOperands(1);
  if (desc.operands[0].numBytes() != desc.result.numBytes())
    return buildOnHost(desc);
  size_t bytes = static_cast<size_t>(desc.result.numBytes());
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    if (bytes > 0)
      checkCuda(cudaMemcpyAsync(result, operands[0], bytes,
                                cudaMemcpyDeviceToDevice, streamOf(context)),
                "cudaMemcpyAsync");
  };
}

/// broadcast and transpose: every result element reads the operand element
/// with the same indices on same-named dims.
Kernel buildByName(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::optional<Placement> plan = byName(desc.operands[0], desc.result);
  if (!plan)
    return buildOnHost(desc);
  return
      [plan](tessel_context_t &context, void *const *operands, void *result) {
        plan->run(streamOf(context), operands[0], result);
      };
}

Kernel buildSlice(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::optional<Placement> plan =
      sliceOf(desc.operands[0], desc.result, desc.stringListAttr("dims"),
              desc.intListAttr("starts"));
  if (!plan)
    return buildOnHost(desc);
  return
      [plan](tessel_context_t &context, void *const *operands, void *result) {
        plan->run(streamOf(context), operands[0], result);
      };
}

Kernel buildPad(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::vector<std::string> dims = desc.stringListAttr("dims");
  std::vector<int64_t> low = desc.intListAttr("low");
  double value = desc.doubleAttr("value", 0.0);
  if (dims.size() != low.size())
    return buildOnHost(desc);
  std::optional<Placement> plan =
      placeInto(desc.operands[0], desc.result, dims, low);
  if (!plan)
    return buildOnHost(desc);
  DType type = dtypeOf(desc.result.type);
  int64_t count = desc.result.numElements();
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    launchFill(streamOf(context), type, result, count, value);
    plan->run(streamOf(context), operands[0], result);
  };
}

Kernel buildConcat(const OpDescriptor &desc) {
  if (desc.operands.empty())
    return buildOnHost(desc);
  std::string dim = desc.stringAttr("dim");
  std::vector<Placement> plans;
  int64_t offset = 0;
  for (size_t i = 0; i < desc.operands.size(); ++i) {
    std::optional<Placement> plan =
        placeInto(desc.operands[i], desc.result, {dim}, {offset});
    if (!plan)
      return buildOnHost(desc);
    plans.push_back(*plan);
    offset +=
        desc.operands[i].shape[desc.operands[i].dimIndex(dim, "an operand")];
  }
  return
      [plans](tessel_context_t &context, void *const *operands, void *result) {
        for (size_t i = 0; i < plans.size(); ++i)
          plans[i].run(streamOf(context), operands[i], result);
      };
}

Kernel buildOneHot(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::string dim = desc.stringAttr("dim");
  int classDim = desc.result.dimIndex(dim, "the result");
  std::optional<Walk> walk = walkOver(desc.result.shape);
  std::optional<Strides> labels = operandStrides(desc, 0);
  if (!walk || !labels)
    return buildOnHost(desc);
  DType labelType = dtypeOf(desc.operands[0].type);
  DType resultType = dtypeOf(desc.result.type);
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    launchOneHot(streamOf(context), *walk, classDim, labelType, operands[0],
                 *labels, resultType, result);
    launched("the one_hot kernel");
  };
}

/// Reads the device's bad-index flag after a kernel that may set it (which
/// waits for the kernel) and reports a set flag as `what(index)`.
template <typename Describe>
void checkBadIndex(DeviceState &device, Describe what) {
  long long bad = -1;
  checkCuda(cudaMemcpyAsync(&bad, device.badIndex, sizeof(bad),
                            cudaMemcpyDeviceToHost, device.stream),
            "cudaMemcpyAsync to the host");
  checkCuda(cudaStreamSynchronize(device.stream), "cudaStreamSynchronize");
  if (bad >= 0)
    throw OpError(what(bad));
}

void clearBadIndex(DeviceState &device) {
  checkCuda(
      cudaMemsetAsync(device.badIndex, 0xFF, sizeof(long long), device.stream),
      "cudaMemsetAsync");
}

Kernel buildGather(const OpDescriptor &desc) {
  desc.expectOperands(2);
  std::string dim = desc.stringAttr("dim");
  const TensorType &table = desc.operands[0];
  int vocabDim = table.dimIndex(dim, "operand 0");
  std::optional<Walk> walk = walkOver(desc.result.shape);
  std::optional<Strides> tableStrides = operandStrides(desc, 0);
  std::optional<Strides> idStrides = operandStrides(desc, 1);
  if (!walk || !tableStrides || !idStrides || table.type != desc.result.type)
    return buildOnHost(desc);
  int64_t vocabStride = rowMajorStrides(table.shape)[vocabDim];
  int64_t vocab = table.shape[vocabDim];
  DType type = dtypeOf(desc.result.type);
  DType idType = dtypeOf(desc.operands[1].type);
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    DeviceState &device = deviceOf(context);
    clearBadIndex(device);
    launchGather(device.stream, *walk, type, operands[0], *tableStrides,
                 vocabStride, vocab, idType, operands[1], *idStrides, result,
                 device.badIndex);
    launched("the gather kernel");
    // Ids are data, so a bad one is reported like the reference does.
    checkBadIndex(device, [&](long long index) {
      return fmt::format("the id read by result element {} is outside the "
                         "vocabulary range [0, {})",
                         index, vocab);
    });
  };
}

//===----------------------------------------------------------------------===//
// Reductions and normalisations
//===----------------------------------------------------------------------===//

Kernel buildReduce(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::optional<ReduceOp> op = enumAttr(desc, "kind", kReduceOps);
  const TensorType &in = desc.operands[0];
  std::optional<Fibers> fibers = reductionFibers(in, desc.result);
  if (!op || !fibers)
    return buildOnHost(desc);
  DType inType = dtypeOf(in.type), outType = dtypeOf(desc.result.type);
  int64_t chunks = reduceChunks(*fibers);
  int64_t partials = chunks > 1 ? fibers->outer.count() * chunks : 0;
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    cudaStream_t stream = streamOf(context);
    std::optional<DeviceBuffer> scratch;
    if (partials > 0)
      scratch.emplace(stream, partials * sizeof(double));
    launchReduce(stream, *op, *fibers, inType, operands[0], outType, result,
                 scratch ? static_cast<double *>(scratch->get()) : nullptr);
    launched("the reduce kernel");
  };
}

template <bool InLog> Kernel buildSoftmax(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::string dim = desc.stringAttr("dim");
  desc.operands[0].dimIndex(dim, "operand 0");
  std::optional<Fibers> fibers = sameLayoutFibers(desc.operands[0], {dim});
  if (!fibers || desc.operands[0].dims != desc.result.dims ||
      desc.operands[0].type != desc.result.type)
    return buildOnHost(desc);
  DType type = dtypeOf(desc.result.type);
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    launchSoftmax(streamOf(context), InLog, *fibers, type, operands[0], result);
    launched("the softmax kernel");
  };
}

Kernel buildLayerNorm(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::vector<std::string> dims = desc.stringListAttr("dims");
  for (const std::string &dim : dims)
    desc.operands[0].dimIndex(dim, "operand 0");
  double epsilon = desc.doubleAttr("epsilon", 1e-5);
  std::optional<Fibers> fibers = sameLayoutFibers(desc.operands[0], dims);
  if (!fibers || desc.operands[0].dims != desc.result.dims ||
      desc.operands[0].type != desc.result.type)
    return buildOnHost(desc);
  DType type = dtypeOf(desc.result.type);
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    launchLayerNorm(streamOf(context), *fibers, type, epsilon, operands[0],
                    result);
    launched("the layer_norm kernel");
  };
}

Kernel buildSoftmaxCrossEntropy(const OpDescriptor &desc) {
  desc.expectOperands(2);
  std::string dim = desc.stringAttr("dim");
  const TensorType &logits = desc.operands[0];
  int classDim = logits.dimIndex(dim, "operand 0");
  std::optional<Fibers> fibers =
      crossEntropyFibers(logits, desc.operands[1], desc.result, dim);
  if (!fibers)
    return buildOnHost(desc);
  DType logitsType = dtypeOf(logits.type);
  DType labelType = dtypeOf(desc.operands[1].type);
  DType outType = dtypeOf(desc.result.type);
  int64_t classes = logits.shape[classDim];
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    DeviceState &device = deviceOf(context);
    clearBadIndex(device);
    launchCrossEntropy(device.stream, *fibers, logitsType, operands[0],
                       labelType, operands[1], outType, result,
                       device.badIndex);
    launched("the cross-entropy kernel");
    // Bad labels are bad input, reported like the reference does.
    checkBadIndex(device, [&](long long index) {
      return fmt::format("the label of result element {} is outside the "
                         "class range [0, {})",
                         index, classes);
    });
  };
}

//===----------------------------------------------------------------------===//
// Library-backed ops
//===----------------------------------------------------------------------===//

Kernel buildEinsum(const OpDescriptor &desc) {
  if (std::optional<Kernel> kernel = buildCublasEinsum(desc))
    return *kernel;
  return buildOnHost(desc);
}

Kernel buildConvolution(const OpDescriptor &desc) {
  if (std::optional<Kernel> kernel = buildCudnnConvolution(desc))
    return *kernel;
  return buildOnHost(desc);
}

Kernel buildPool(const OpDescriptor &desc) {
  if (std::optional<Kernel> kernel = buildCudnnPool(desc))
    return *kernel;
  return buildOnHost(desc);
}

} // namespace

void registerGpuModelOps(KernelRegistry &registry) {
  using UK = ref::UnaryKind;
  using BK = ref::BinaryKind;
  static_assert(
      static_cast<int>(UK::Erf) == static_cast<int>(UnaryOp::Erf) &&
          static_cast<int>(UK::Cos) == static_cast<int>(UnaryOp::Cos) &&
          static_cast<int>(UK::Gelu) == static_cast<int>(UnaryOp::Gelu) &&
          static_cast<int>(BK::Pow) == static_cast<int>(BinaryOp::Pow),
      "the GPU's op kinds follow the reference's");
  std::pair<const char *, KernelBuilder> builders[] = {
      {"tessel.constant", buildCachedOnDevice},
      {"tessel.iota", buildCachedOnDevice},
      {"tessel.einsum", buildEinsum},
      {"tessel.neg", buildUnary<UK::Neg>},
      {"tessel.abs", buildUnary<UK::Abs>},
      {"tessel.exp", buildUnary<UK::Exp>},
      {"tessel.log", buildUnary<UK::Log>},
      {"tessel.sqrt", buildUnary<UK::Sqrt>},
      {"tessel.rsqrt", buildUnary<UK::Rsqrt>},
      {"tessel.tanh", buildUnary<UK::Tanh>},
      {"tessel.sigmoid", buildUnary<UK::Sigmoid>},
      {"tessel.relu", buildUnary<UK::Relu>},
      {"tessel.gelu", buildUnary<UK::Gelu>},
      {"tessel.erf", buildUnary<UK::Erf>},
      {"tessel.sin", buildUnary<UK::Sin>},
      {"tessel.cos", buildUnary<UK::Cos>},
      {"tessel.add", buildBinary<BK::Add>},
      {"tessel.sub", buildBinary<BK::Sub>},
      {"tessel.mul", buildBinary<BK::Mul>},
      {"tessel.div", buildBinary<BK::Div>},
      {"tessel.max", buildBinary<BK::Max>},
      {"tessel.min", buildBinary<BK::Min>},
      {"tessel.pow", buildBinary<BK::Pow>},
      {"tessel.compare", buildCompare},
      {"tessel.select", buildSelect},
      {"tessel.cast", buildCast},
      {"tessel.fused", buildFusedElementwise},
      {"tessel.broadcast", buildByName},
      {"tessel.transpose", buildByName},
      {"tessel.rename", buildSameBytes},
      {"tessel.reshape", buildSameBytes},
      {"tessel.slice", buildSlice},
      {"tessel.pad", buildPad},
      {"tessel.concat", buildConcat},
      {"tessel.one_hot", buildOneHot},
      {"tessel.gather", buildGather},
      {"tessel.reduce", buildReduce},
      {"tessel.softmax", buildSoftmax<false>},
      {"tessel.log_softmax", buildSoftmax<true>},
      {"tessel.softmax_cross_entropy", buildSoftmaxCrossEntropy},
      {"tessel.layer_norm", buildLayerNorm},
      {"tessel.conv2d", buildConvolution},
      {"tessel.conv2d_backward_input", buildConvolution},
      {"tessel.conv2d_backward_filter", buildConvolution},
      {"tessel.pool", buildPool},
      {"tessel.pool_backward", buildPool},
  };
  for (const auto &[name, builder] : builders)
    registry[name] = builder;
}

void registerGpuOps(KernelRegistry &registry) {
  // Everything starts on the host, between copies; the GPU's builders then
  // take over the ops they have kernels for.
  for (auto &[name, builder] : registry)
    builder = buildOnHost;
  registerGpuModelOps(registry);
  registerGpuMeshOps(registry);
}

} // namespace tessel::runtime::gpu
