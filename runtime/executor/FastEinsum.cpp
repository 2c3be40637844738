//===- FastEinsum.cpp - Einsum of two tensors on oneDNN -------------------===//
//
// The compiler names dims; the kernel takes one integer label per dim. Each
// distinct name becomes a label, so a name shared by both operands and the
// result is a batch dim, one shared by the operands only is contracted, and
// so on, exactly as the einsum's named semantics say.
//
//===----------------------------------------------------------------------===//

#include "executor/FastEinsum.h"

#include "executor/Buffers.h"
#include "executor/Context.h"
#include "executor/ReferenceKernel.h"

#include "reference/Contraction.h"

#ifdef TESSEL_RUNTIME_HAS_KERNELS
#include "executor/FastKernel.h"
#include "kernels/Einsum.h"
#include "tessel/runtime/kernels.h"
#endif

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace tessel::runtime {

#ifdef TESSEL_RUNTIME_HAS_KERNELS

namespace {

bool hasUniqueDims(const TensorType &type) {
  std::vector<std::string> sorted = type.dims;
  std::sort(sorted.begin(), sorted.end());
  return std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
}

/// Whether every dim falls into one of the matmul's classes.
bool isMatmulShaped(const TensorType &lhs, const TensorType &rhs,
                    const TensorType &result) {
  for (const TensorType *type : {&lhs, &rhs, &result})
    if (!hasUniqueDims(*type) || type->numElements() == 0)
      return false;
  for (const std::string &dim : result.dims)
    if (!hasDim(lhs, dim) && !hasDim(rhs, dim))
      return false;
  for (const std::string &dim : lhs.dims)
    if (!hasDim(rhs, dim) && !hasDim(result, dim))
      return false;
  for (const std::string &dim : rhs.dims)
    if (!hasDim(lhs, dim) && !hasDim(result, dim))
      return false;
  return true;
}

/// Descriptor and label storage for one tensor, kept with the kernel.
struct LabeledTensor {
  std::vector<int64_t> shape;
  std::vector<int32_t> labels;
  tessel_element_type_t type;

  tessel_tensor_t view(void *data) const {
    return {data, type, static_cast<int32_t>(shape.size()), shape.data()};
  }
};

} // namespace

std::optional<Kernel> buildFastEinsum(const OpDescriptor &desc) {
  if (desc.operands.size() != 2)
    return std::nullopt;
  const TensorType &lhs = desc.operands[0], &rhs = desc.operands[1];
  if (!allOfKernelType({&lhs, &rhs, &desc.result}))
    return std::nullopt;
  if (!isMatmulShaped(lhs, rhs, desc.result))
    return std::nullopt;

  std::map<std::string, int32_t> labelOf;
  auto labeled = [&](const TensorType &type) {
    LabeledTensor tensor{type.shape, {}, *commElementType(type.type)};
    for (const std::string &dim : type.dims)
      tensor.labels.push_back(
          labelOf.emplace(dim, static_cast<int32_t>(labelOf.size()))
              .first->second);
    return tensor;
  };
  auto tensors = std::make_shared<std::array<LabeledTensor, 3>>(
      std::array<LabeledTensor, 3>{labeled(lhs), labeled(rhs),
                                   labeled(desc.result)});
  ref::TensorSpec spec = desc.result.spec();
  Kernel reference = viaReference(desc, [spec](const ReferenceInputs &inputs) {
    return ref::einsum(inputs, spec);
  });
  // Made once when every tensor can be read in place; a small model's step
  // otherwise spends more time planning and describing its matmuls than in
  // them.
  const auto &[a, b, c] = *tensors;
  if (std::optional<Kernel> prepared = runPrepared(
          prepareEinsum(a.shape, a.labels, b.shape, b.labels, c.shape,
                        c.labels, a.type),
          reference))
    return *prepared;
  return Kernel([tensors, reference](tessel_context_t &context,
                                     void *const *operands, void *out) {
    if (!context.kernels) {
      // A context without oneDNN: the reference kernel, still correct.
      reference(context, operands, out);
      return;
    }
    const auto &[a, b, c] = *tensors;
    tessel_tensor_t aView = a.view(operands[0]), bView = b.view(operands[1]),
                    cView = c.view(out);
    if (tessel_kernels_einsum(context.kernels, &aView, a.labels.data(), &bView,
                              b.labels.data(), &cView,
                              c.labels.data()) != TESSEL_STATUS_OK)
      throw OpError(tessel_last_error_message());
  });
}

#else

std::optional<Kernel> buildFastEinsum(const OpDescriptor &) {
  return std::nullopt;
}

#endif

} // namespace tessel::runtime
