//===- WidenedOps.cpp - f16 and bf16 ops on their f32 kernels -------------===//

#include "executor/WidenedOps.h"

#include "executor/F16Blocks.h"
#include "executor/ParallelChunks.h"
#include "base/Float16.h"

#include <algorithm>
#include <cstdint>
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

/// The ops that oneDNN has no bf16 kernel for, whose f32 kernels a bf16 op
/// runs on.
const std::set<std::string, std::less<>> kWidenedBf16Ops = {
    "tessel.one_hot",
    "tessel.softmax_cross_entropy",
    "tessel.cumsum",
};

void widen(ref::ElementType type, const uint16_t *from, float *to,
           int64_t count) {
  bool bf16 = type == ref::ElementType::BF16;
  inChunks(count, [&](int64_t begin, int64_t end) {
    if (bf16)
      for (int64_t k = begin; k < end; ++k)
        to[k] = bf16ToFloat(from[k]);
    else
      widenF16(from + begin, to + begin, end - begin);
  });
}

void narrowInto(ref::ElementType type, const float *from, uint16_t *to,
                int64_t count) {
  bool bf16 = type == ref::ElementType::BF16;
  inChunks(count, [&](int64_t begin, int64_t end) {
    if (bf16)
      for (int64_t k = begin; k < end; ++k)
        to[k] = floatToBf16(from[k]);
    else
      narrowToF16(from + begin, to + begin, end - begin);
  });
}

/// f32 copies of a call's f16 tensors, kept on the thread for its next
/// call (the ops of a step run one after another), grown to the largest.
std::vector<float> &scratch(size_t slot) {
  static thread_local std::vector<std::vector<float>> buffers;
  if (buffers.size() <= slot)
    buffers.resize(slot + 1);
  return buffers[slot];
}

} // namespace

std::optional<Kernel> buildWidened(const OpDescriptor &desc,
                                   KernelBuilder build) {
  auto narrowType = [&](const TensorType &type) {
    return (type.type == ref::ElementType::F16 && kWidenedF16Ops.count(desc.op)) ||
           (type.type == ref::ElementType::BF16 &&
            kWidenedBf16Ops.count(desc.op));
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
      std::vector<float> &copy = scratch(i);
      copy.resize(std::max<int64_t>(narrowed.elements, 1));
      widen(narrowed.type, static_cast<const uint16_t *>(operands[i]),
            copy.data(), narrowed.elements);
      wideOperands[i] = copy.data();
    }
    if (resultNarrowed.elements < 0) {
      kernel(context, wideOperands.data(), result);
      return;
    }
    std::vector<float> &wideResult = scratch(operandsNarrowed.size());
    wideResult.resize(std::max<int64_t>(resultNarrowed.elements, 1));
    kernel(context, wideOperands.data(), wideResult.data());
    narrowInto(resultNarrowed.type, wideResult.data(),
               static_cast<uint16_t *>(result), resultNarrowed.elements);
  });
}

} // namespace tessel::runtime
