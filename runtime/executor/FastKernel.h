//===- FastKernel.h - Named tensors as oneDNN sees them ---------*- C++ -*-===//
//
// What the oneDNN fast paths share (FastConvolution.cpp, FastPooling.cpp,
// ...): mapping named dims onto a primitive's positional ones, and the
// kernel that runs a prepared oneDNN kernel, or the reference kernel in a
// context without oneDNN.
//
// A primitive has fewer dims than a tensor may: a convolution has one batch
// dim N where a tensor may have several dims that pass through it
// ([batch, time, c, h, w]). Such dims become one primitive dim when every
// tensor holds them as one run of memory in the same order: then N is
// their product, with the stride of the innermost.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_FASTKERNEL_H
#define TESSEL_RUNTIME_EXECUTOR_FASTKERNEL_H

#include "executor/Op.h"

#ifdef TESSEL_RUNTIME_HAS_KERNELS
#include "kernels/PreparedKernel.h"
#endif

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel::runtime {

/// The row-major stride of the named dim in a tensor; it must have it.
int64_t strideOf(const TensorType &type, const std::string &dim);

/// Whether the tensor has a dim of this name.
bool hasDim(const TensorType &type, const std::string &dim);

/// Named dims that one primitive dim stands for: their product and the
/// stride of the innermost in each tensor.
struct DimGroup {
  int64_t size = 1;
  std::vector<int64_t> strides; // One per tensor, in the caller's order.
};

/// Groups `dims` (in the order of the first tensor; every tensor has each
/// of them, with the same size) into at most `maxGroups` runs that every
/// tensor holds contiguously and in that order, merging neighbours only as
/// far as needed. Dims of size 1 are left out. Nothing when they do not
/// merge into `maxGroups`.
std::optional<std::vector<DimGroup>>
groupDims(const std::vector<std::string> &dims,
          const std::vector<const TensorType *> &tensors, size_t maxGroups);

/// Whether the oneDNN kernels compute in bf16 on this CPU (AVX-512).
bool kernelsComputeBf16();

/// Whether the oneDNN kernels' bf16 matmuls and convolutions outrun their
/// f32 ones on this CPU (AMX, AMD's AVX512-BF16).
bool kernelsBf16ProductsOutrunF32();

/// Whether the oneDNN kernels' bf16 convolution filter gradient outruns
/// the f32 one on this CPU (AMX).
bool kernelsBf16FilterGradientsOutrunF32();

/// Whether all the tensors have one element type and it is one the oneDNN
/// kernels compute in here (f32; bf16 where kernelsComputeBf16()).
bool allOfKernelType(const std::vector<const TensorType *> &tensors);

#ifdef TESSEL_RUNTIME_HAS_KERNELS

/// The kernels' name for an element type that allOfKernelType accepted.
tessel_element_type_t kernelType(const TensorType &type);

/// The kernel that runs `prepared` (its inputs the op's operands in
/// `operandOrder`, by default in order), or `fallback` in a context
/// without oneDNN; nothing when `prepared` is null.
std::optional<Kernel> runPrepared(std::unique_ptr<PreparedKernel> prepared,
                                  Kernel fallback,
                                  std::vector<size_t> operandOrder = {});

#endif

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FASTKERNEL_H
