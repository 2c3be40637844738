//===- FastKernel.cpp - Named tensors as oneDNN sees them -----------------===//

#include "executor/FastKernel.h"

#include "executor/Buffers.h"
#include "executor/Context.h"

#include <algorithm>

namespace tessel::runtime {

bool hasDim(const TensorType &type, const std::string &dim) {
  return std::find(type.dims.begin(), type.dims.end(), dim) != type.dims.end();
}

int64_t strideOf(const TensorType &type, const std::string &dim) {
  int index = type.dimIndex(dim, "a tensor");
  return ref::rowMajorStrides(type.shape)[index];
}

std::optional<std::vector<DimGroup>>
groupDims(const std::vector<std::string> &dims,
          const std::vector<const TensorType *> &tensors, size_t maxGroups) {
  std::vector<DimGroup> groups;
  for (const std::string &dim : dims) {
    const TensorType &first = *tensors.front();
    int64_t size = first.shape[first.dimIndex(dim, "a tensor")];
    DimGroup group{size, {}};
    for (const TensorType *tensor : tensors) {
      if (tensor->shape[tensor->dimIndex(dim, "a tensor")] != size)
        return std::nullopt;
      group.strides.push_back(strideOf(*tensor, dim));
    }
    if (size != 1)
      groups.push_back(std::move(group));
  }
  // Merges the first pair of neighbours that is one run in every tensor
  // (the outer one's stride is the inner one's times its size), until few
  // enough are left.
  while (groups.size() > maxGroups) {
    bool merged = false;
    for (size_t g = 0; g + 1 < groups.size() && !merged; ++g) {
      DimGroup &outer = groups[g], &inner = groups[g + 1];
      bool contiguous = true;
      for (size_t t = 0; t < tensors.size(); ++t)
        contiguous &= outer.strides[t] == inner.strides[t] * inner.size;
      if (!contiguous)
        continue;
      inner.size *= outer.size;
      groups.erase(groups.begin() + g);
      merged = true;
    }
    if (!merged)
      return std::nullopt;
  }
  return groups;
}

bool allOfKernelType(const std::vector<const TensorType *> &tensors) {
  ref::ElementType type = tensors.front()->type;
  if (type != ref::ElementType::F32 && type != ref::ElementType::BF16)
    return false;
  if (type == ref::ElementType::BF16 && !kernelsComputeBf16())
    return false;
  return std::all_of(tensors.begin(), tensors.end(),
                     [&](const TensorType *t) { return t->type == type; });
}

bool kernelsComputeBf16() {
#ifdef TESSEL_RUNTIME_HAS_KERNELS
  return tessel_kernels_compute_bf16() != 0;
#else
  return false;
#endif
}

bool kernelsBf16ProductsOutrunF32() {
#ifdef TESSEL_RUNTIME_HAS_KERNELS
  return tessel_kernels_bf16_products_outrun_f32() != 0;
#else
  return false;
#endif
}

bool kernelsBf16FilterGradientsOutrunF32() {
#ifdef TESSEL_RUNTIME_HAS_KERNELS
  return tessel_kernels_bf16_filter_gradients_outrun_f32() != 0;
#else
  return false;
#endif
}

#ifdef TESSEL_RUNTIME_HAS_KERNELS

tessel_element_type_t kernelType(const TensorType &type) {
  return *commElementType(type.type);
}

std::optional<Kernel> runPrepared(std::unique_ptr<PreparedKernel> prepared,
                                  Kernel fallback,
                                  std::vector<size_t> operandOrder) {
  if (!prepared)
    return std::nullopt;
  std::shared_ptr<PreparedKernel> shared = std::move(prepared);
  return Kernel(
      [shared, fallback = std::move(fallback),
       operandOrder = std::move(operandOrder)](
          tessel_context_t &context, void *const *operands, void *result) {
        if (!context.kernels) {
          fallback(context, operands, result);
          return;
        }
        tessel_status_t status;
        if (operandOrder.empty()) {
          status = shared->run(*context.kernels, operands, result);
        } else {
          std::vector<const void *> inputs;
          for (size_t operand : operandOrder)
            inputs.push_back(operands[operand]);
          status = shared->run(*context.kernels, inputs.data(), result);
        }
        if (status != TESSEL_STATUS_OK)
          throw OpError(tessel_last_error_message());
      });
}

#endif

} // namespace tessel::runtime
