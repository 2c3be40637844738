//===- FastPooling.cpp - pool and pool_backward on oneDNN -----------------===//
//
// The dialect pools over two named spatial dims and passes every other dim
// through; oneDNN pools [N, C, H, W]. The pass-through dims become N and C
// (merged into two runs where there are more, into one where the inner run
// is 3 or fewer), each tensor in its own layout. The semantics agree:
// padding never takes part (max skips it, average divides by the in-range
// count), and max pooling's gradient goes to the first maximum of its
// window in row-major window order, the position oneDNN's workspace
// records; the kernel tests check ties.
//
// Max pooling's gradient where the windows tile the image (the CNN's 2 x 2
// windows of stride 2) is a loop of this file's own instead: oneDNN's
// needs the forward pass run again, in its training form, to record the
// maxima. The CNN's two pool_backward ops took 0.33 ms a step on oneDNN,
// 0.25 ms as the scalar loop and take 0.04 ms with 2 x 2 windows 16 at a
// time on AVX-512 (PoolGradientAvx512.cpp; `--profile`, one rank, batch
// 8).
//
//===----------------------------------------------------------------------===//

#include "executor/FastPooling.h"

#include "executor/FastKernel.h"
#include "executor/ParallelChunks.h"
#include "executor/PoolGradient.h"

#ifdef TESSEL_RUNTIME_HAS_KERNELS
#include "kernels/Pooling.h"
#include "kernels/Primitives.h"
#endif

#include <cmath>
#include <cstring>

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
  // oneDNN pools a plain [N, C, H, W] with its vector kernel only where C
  // (the inner run, whichever dims it holds) is over 3, else with a scalar
  // loop; each (n, c) plane pools alike, so where N and C lie contiguously
  // they pool as one run of N * C channels.
  // A split of the CNN's 8 channels 4 ways pooled [8, 2, 28, 28] in 64 us
  // a call, against 5 us for [2, 8, 28, 28] (`--profile`, model:4).
  if (groups->size() == 2 && (*groups)[1].size <= 3)
    if (std::optional<std::vector<DimGroup>> merged =
            groupDims(passing, {&x, &y}, 1))
      groups = std::move(merged);
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

/// Whether max pooling's windows of `shape` tile the image: f32, no
/// padding, strides equal to the window, so that every input element lies
/// in at most one window.
bool windowsTile(const PoolingShape &shape) {
  if (shape.source.type != TESSEL_ELEMENT_TYPE_F32 ||
      shape.destination.type != TESSEL_ELEMENT_TYPE_F32)
    return false;
  for (int s = 0; s < 2; ++s)
    if (shape.strides[s] != shape.window[s] || shape.paddingLow[s] != 0 ||
        shape.paddingHigh[s] != 0 ||
        shape.destination.dims[2 + s] * shape.window[s] >
            shape.source.dims[2 + s])
      return false;
  return true;
}

/// The vector kernel for 2 x 2 windows over contiguous rows, on a CPU that
/// has it, else nothing.
MaxPoolGradient2x2Kernel vectorMaxPoolGradient2x2() {
#ifdef TESSEL_RUNTIME_HAS_AVX512_POOL_GRADIENT
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    return maxPoolGradient2x2Avx512;
#endif
  return nullptr;
}

/// Max pooling's gradient over tiling windows: each window's gradient goes
/// to its first maximum in row-major window order (a NaN counts as the
/// maximum, as in the reference), every other element's is 0. One pass
/// over x and the result, which has x's layout; 2 x 2 windows over
/// contiguous rows 16 at a time where the CPU has AVX-512.
Kernel tiledMaxPoolBackward(const PoolingShape &shape) {
  const StridedTensor &xs = shape.source, &ys = shape.destination;
  MaxPoolGradient2x2Kernel vector =
      shape.window == std::array<int64_t, 2>{2, 2} && xs.strides[3] == 1 &&
              ys.strides[3] == 1
          ? vectorMaxPoolGradient2x2()
          : nullptr;
  return [shape, vector](tessel_context_t &, void *const *operands,
                         void *result) {
    const auto *x = static_cast<const float *>(operands[0]);
    const auto *dy = static_cast<const float *>(operands[1]);
    auto *dx = static_cast<float *>(result);
    const StridedTensor &xs = shape.source, &ys = shape.destination;
    int64_t elements = numElements(xs);
    const int64_t windowRows = shape.window[0], windowColumns = shape.window[1];
    const int64_t rows = ys.dims[2], columns = ys.dims[3];
    // The vector kernel writes every element of every window; what no
    // window covers (a last odd row or column) must still be 0.
    if (!vector || rows * windowRows != xs.dims[2] ||
        columns * windowColumns != xs.dims[3])
      std::memset(dx, 0, sizeof(float) * elements);
    int64_t channels = xs.dims[1], planes = xs.dims[0] * xs.dims[1];
    const int64_t xRow = xs.strides[2], xColumn = xs.strides[3];
    const int64_t yRow = ys.strides[2], yColumn = ys.strides[3];
    auto gradientOfPlane = [&](int64_t plane) {
      int64_t n = plane / channels, c = plane % channels;
      const float *xPlane = x + n * xs.strides[0] + c * xs.strides[1];
      float *dxPlane = dx + n * xs.strides[0] + c * xs.strides[1];
      const float *dyPlane = dy + n * ys.strides[0] + c * ys.strides[1];
      if (vector) {
        vector(xPlane, xRow, dyPlane, yRow, dxPlane, rows, columns);
        return;
      }
      for (int64_t oh = 0; oh < rows; ++oh)
        for (int64_t ow = 0; ow < columns; ++ow) {
          int64_t corner =
              oh * windowRows * xRow + ow * windowColumns * xColumn;
          // Selects rather than branches: which element of a window holds
          // its maximum is data, and the branching loop took a fifth
          // longer.
          int64_t best = corner;
          float bestValue = xPlane[corner];
          for (int64_t i = 0; i < windowRows; ++i)
            for (int64_t j = 0; j < windowColumns; ++j) {
              int64_t at = corner + i * xRow + j * xColumn;
              float value = xPlane[at];
              bool takes = !std::isnan(bestValue) &&
                           (value > bestValue || std::isnan(value));
              best = takes ? at : best;
              bestValue = takes ? value : bestValue;
            }
          dxPlane[best] = dyPlane[oh * yRow + ow * yColumn];
        }
    };
    // A small gradient runs here: a parallel region whose `if` is false
    // still enters and leaves the OpenMP runtime (ParallelChunks.h).
    if (elements < kParallelElements) {
      for (int64_t plane = 0; plane < planes; ++plane)
        gradientOfPlane(plane);
      return;
    }
#ifdef TESSEL_RUNTIME_HAS_OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (int64_t plane = 0; plane < planes; ++plane)
      gradientOfPlane(plane);
  };
}

PoolingKind kindOf(ref::PoolKind kind) {
  return kind == ref::PoolKind::Max ? PoolingKind::Max : PoolingKind::Average;
}

} // namespace

std::optional<std::array<int64_t, 4>>
fastPoolingDims(const TensorType &x, const TensorType &y,
                const ref::PoolParams &params) {
  std::optional<PoolingShape> shape = poolingShape(x, y, params);
  if (!shape)
    return std::nullopt;
  const std::vector<int64_t> &dims = shape->source.dims;
  return std::array<int64_t, 4>{dims[0], dims[1], dims[2], dims[3]};
}

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
  if (kind == ref::PoolKind::Max && windowsTile(*shape) &&
      desc.result.type == ref::ElementType::F32)
    return tiledMaxPoolBackward(*shape);
  return runPrepared(preparePoolingBackward(kindOf(kind), *shape),
                     std::move(reference));
}

#else

std::optional<std::array<int64_t, 4>> fastPoolingDims(const TensorType &,
                                                      const TensorType &,
                                                      const ref::PoolParams &) {
  return std::nullopt;
}

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
