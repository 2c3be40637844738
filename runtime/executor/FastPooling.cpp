//===- FastPooling.cpp - pool and pool_backward on oneDNN -----------------===//
//
// The dialect pools over two named spatial dims and passes every other dim
// through; oneDNN pools [N, C, H, W]. The pass-through dims become N and C
// (merged into two runs where there are more), each tensor in its own
// layout. The semantics agree: padding never takes part (max skips it,
// average divides by the in-range count), and max pooling's gradient goes
// to the first maximum of its window in row-major window order, the
// position oneDNN's workspace records; the kernel tests check ties.
//
//===----------------------------------------------------------------------===//

#include "executor/FastPooling.h"

#include "executor/FastKernel.h"

#ifdef TESSEL_RUNTIME_HAS_KERNELS
#include "kernels/Pooling.h"
#endif

namespace tessel::runtime {

#ifdef TESSEL_RUNTIME_HAS_KERNELS

namespace {

/// [N, C, spatial0, spatial1] of a tensor, N and C being `groups`.
StridedTensor imageView(const TensorType &type,
                        const std::vector<DimGroup> &groups, size_t tensor,
                        const std::array<std::string, 2> &spatial) {
  StridedTensor view;
  view.type = kernelType(type);
  // Fewer than two groups: leading dims of size 1.
  for (size_t g = groups.size(); g < 2; ++g) {
    view.dims.push_back(1);
    view.strides.push_back(1);
  }
  for (const DimGroup &group : groups) {
    view.dims.push_back(group.size);
    view.strides.push_back(group.strides[tensor]);
  }
  for (const std::string &dim : spatial) {
    view.dims.push_back(type.shape[type.dimIndex(dim, "a tensor")]);
    view.strides.push_back(strideOf(type, dim));
  }
  return view;
}

/// The oneDNN shape of pooling x into y, if the dims fit.
std::optional<PoolingShape> poolingShape(const TensorType &x,
                                         const TensorType &y,
                                         const ref::PoolParams &params) {
  if (!allOfKernelType({&x, &y}) || x.rank() != y.rank())
    return std::nullopt;
  std::vector<std::string> passing;
  for (const std::string &dim : x.dims) {
    if (!hasDim(y, dim))
      return std::nullopt;
    if (dim != params.spatial[0] && dim != params.spatial[1])
      passing.push_back(dim);
  }
  if (passing.size() + 2 != x.dims.size())
    return std::nullopt; // A spatial dim is missing.
  std::optional<std::vector<DimGroup>> groups = groupDims(passing, {&x, &y}, 2);
  if (!groups)
    return std::nullopt;
  PoolingShape shape;
  shape.source = imageView(x, *groups, 0, params.spatial);
  shape.destination = imageView(y, *groups, 1, params.spatial);
  for (int s = 0; s < 2; ++s) {
    shape.window[s] = params.window[s];
    shape.strides[s] = params.strides[s];
    shape.paddingLow[s] = params.padding[2 * s];
    shape.paddingHigh[s] = params.padding[2 * s + 1];
  }
  return shape;
}

PoolingKind kindOf(ref::PoolKind kind) {
  return kind == ref::PoolKind::Max ? PoolingKind::Max : PoolingKind::Average;
}

} // namespace

std::optional<Kernel> buildFastPool(ref::PoolKind kind,
                                    const OpDescriptor &desc,
                                    const ref::PoolParams &params,
                                    Kernel reference) {
  if (desc.operands.size() != 1)
    return std::nullopt;
  std::optional<PoolingShape> shape =
      poolingShape(desc.operands[0], desc.result, params);
  if (!shape)
    return std::nullopt;
  return runPrepared(preparePooling(kindOf(kind), *shape),
                     std::move(reference));
}

std::optional<Kernel> buildFastPoolBackward(ref::PoolKind kind,
                                            const OpDescriptor &desc,
                                            const ref::PoolParams &params,
                                            Kernel reference) {
  // The gradient is written in x's layout, so the result must have it.
  if (desc.operands.size() != 2 || desc.result.dims != desc.operands[0].dims)
    return std::nullopt;
  std::optional<PoolingShape> shape =
      poolingShape(desc.operands[0], desc.operands[1], params);
  if (!shape || !allOfKernelType({&desc.operands[0], &desc.result}))
    return std::nullopt;
  return runPrepared(preparePoolingBackward(kindOf(kind), *shape),
                     std::move(reference));
}

#else

std::optional<Kernel> buildFastPool(ref::PoolKind, const OpDescriptor &,
                                    const ref::PoolParams &, Kernel) {
  return std::nullopt;
}

std::optional<Kernel> buildFastPoolBackward(ref::PoolKind, const OpDescriptor &,
                                            const ref::PoolParams &, Kernel) {
  return std::nullopt;
}

#endif

} // namespace tessel::runtime
