//===- WidenedOps.cpp - f16 and bf16 ops on their f32 kernels -------------===//

#include "executor/WidenedOps.h"

#include "base/Float16.h"
#include "base/HalfFloatBlocks.h"
#include "executor/FastKernel.h"
#include "executor/ParallelChunks.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace tessel::runtime {

namespace {

/// The ops that compute, whose f32 kernels an f16 op runs on.
const std::set<std::string, std::less<>> kWidenedF16Ops = {
    "tessel.einsum",
    "tessel.reduce",
    "tessel.softmax",
    "tessel.log_softmax",
    "tessel.softmax_cross_entropy",
    "tessel.layer_norm",
    "tessel.cumsum",
    "tessel.conv2d",
    "tessel.conv2d_backward_input",
    "tessel.conv2d_backward_filter",
    "tessel.pool",
    "tessel.pool_backward",
    "tessel.one_hot",
    "tessel.neg",
    "tessel.abs",
    "tessel.exp",
    "tessel.log",
    "tessel.sqrt",
    "tessel.rsqrt",
    "tessel.tanh",
    "tessel.sigmoid",
    "tessel.relu",
    "tessel.gelu",
    "tessel.erf",
    "tessel.sin",
    "tessel.cos",
    "tessel.add",
    "tessel.sub",
    "tessel.mul",
    "tessel.div",
    "tessel.max",
    "tessel.min",
    "tessel.pow",
    "tessel.compare",
    "tessel.select",
};

/// The ops whose f32 kernels a bf16 op runs on: those oneDNN has no bf16
/// kernel for; reductions, whose bf16 kernel in oneDNN 2.6 took three
/// times as long as the f32 one with the conversions around it (33 against
/// 11 ms a step of the realistic Transformer's, one thread); and pooling
/// and its gradient (2 x 2 max pooling's gradient of 4 x 128 x 32 x 32:
/// 211 us in bf16, 78 widened, 36 in f32; the pooling itself 71, 63, 46).
const std::set<std::string, std::less<>> kWidenedBf16Ops = {
    "tessel.one_hot", "tessel.softmax_cross_entropy",
    "tessel.cumsum",  "tessel.reduce",
    "tessel.pool",    "tessel.pool_backward",
};

/// The ops that compute sums of products, whose bf16 kernels in oneDNN
/// are slower than their f32 ones on a CPU without AMX but AMD's; the
/// filter gradient's is slower there too (bf16FilterGradientsWidened).
const std::set<std::string, std::less<>> kBf16ProductOps = {
    "tessel.einsum",
    "tessel.conv2d",
    "tessel.conv2d_backward_input",
};
constexpr const char *kFilterGradientOp = "tessel.conv2d_backward_filter";

/// TESSEL_NATIVE_BF16_PRODUCTS: 1 (the bf16 kernels), 0 (the f32 ones) or,
/// unset or empty, nothing said.
std::optional<bool> nativeBf16ProductsSaid() {
  const char *native = std::getenv("TESSEL_NATIVE_BF16_PRODUCTS");
  if (!native || !*native)
    return std::nullopt;
  return std::strcmp(native, "0") != 0;
}

/// Room for `elements` f32 copies of a call's f16 or bf16 tensor in slot
/// `slot`, kept on the thread for its next call (the ops of a step run one
/// after another) and grown to the largest; never shrunk, since growing a
/// vector again would clear what it grows by on every call.
float *scratch(size_t slot, int64_t elements) {
  static thread_local std::vector<std::vector<float>> buffers;
  if (buffers.size() <= slot)
    buffers.resize(slot + 1);
  std::vector<float> &buffer = buffers[slot];
  if (static_cast<int64_t>(buffer.size()) < std::max<int64_t>(elements, 1))
    buffer.resize(std::max<int64_t>(elements, 1));
  return buffer.data();
}

} // namespace

bool bf16ProductsWidened() {
  static const bool widened =
      !nativeBf16ProductsSaid().value_or(kernelsBf16ProductsOutrunF32());
  return widened;
}

bool bf16FilterGradientsWidened() {
  static const bool widened =
      !nativeBf16ProductsSaid().value_or(kernelsBf16FilterGradientsOutrunF32());
  return widened;
}

void widenTensor(ref::ElementType type, const uint16_t *from, float *to,
                 int64_t count) {
  bool bf16 = type == ref::ElementType::BF16;
  inChunks(count, [&](int64_t begin, int64_t end) {
    (bf16 ? widenBf16 : widenF16)(from + begin, to + begin, end - begin);
  });
}

void narrowTensor(ref::ElementType type, const float *from, uint16_t *to,
                  int64_t count) {
  bool bf16 = type == ref::ElementType::BF16;
  inChunks(count, [&](int64_t begin, int64_t end) {
    (bf16 ? narrowToBf16 : narrowToF16)(from + begin, to + begin, end - begin);
  });
}

std::optional<Kernel> buildWidened(const OpDescriptor &desc,
                                   KernelBuilder build) {
  auto narrowType = [&](const TensorType &type) {
    return (type.type == ref::ElementType::F16 &&
            kWidenedF16Ops.count(desc.op)) ||
           (type.type == ref::ElementType::BF16 &&
            (kWidenedBf16Ops.count(desc.op) ||
             (kBf16ProductOps.count(desc.op) && bf16ProductsWidened()) ||
             (desc.op == kFilterGradientOp && bf16FilterGradientsWidened())));
  };
  if (std::none_of(desc.operands.begin(), desc.operands.end(), narrowType) &&
      !narrowType(desc.result))
    return std::nullopt;
  // Per operand and for the result: the narrow type and the elements, or
  // nothing for a tensor that is passed as it is.
  struct Narrowed {
    ref::ElementType type = ref::ElementType::F32;
    int64_t elements = -1;
  };
  OpDescriptor wide = desc;
  std::vector<Narrowed> operandsNarrowed;
  for (TensorType &operand : wide.operands) {
    operandsNarrowed.push_back({});
    if (narrowType(operand)) {
      operandsNarrowed.back() = {operand.type, operand.numElements()};
      operand.type = ref::ElementType::F32;
    }
  }
  Narrowed resultNarrowed;
  if (narrowType(wide.result)) {
    resultNarrowed = {wide.result.type, wide.result.numElements()};
    wide.result.type = ref::ElementType::F32;
  }
  Kernel kernel = build(wide);
  return Kernel([kernel = std::move(kernel),
                 operandsNarrowed = std::move(operandsNarrowed),
                 resultNarrowed](tessel_context_t &context,
                                 void *const *operands, void *result) {
    std::vector<void *> wideOperands(operands,
                                     operands + operandsNarrowed.size());
    for (size_t i = 0; i < operandsNarrowed.size(); ++i) {
      const Narrowed &narrowed = operandsNarrowed[i];
      if (narrowed.elements < 0)
        continue;
      float *copy = scratch(i, narrowed.elements);
      widenTensor(narrowed.type, static_cast<const uint16_t *>(operands[i]),
                  copy, narrowed.elements);
      wideOperands[i] = copy;
    }
    if (resultNarrowed.elements < 0) {
      kernel(context, wideOperands.data(), result);
      return;
    }
    float *wideResult = scratch(operandsNarrowed.size(), resultNarrowed.elements);
    kernel(context, wideOperands.data(), wideResult);
    narrowTensor(resultNarrowed.type, wideResult,
                 static_cast<uint16_t *>(result), resultNarrowed.elements);
  });
}

} // namespace tessel::runtime
