//===- FastReduction.cpp - reduce on loops of f32, or on oneDNN -----------===//
//
// f32 reductions run on loops of their own: oneDNN 2.6 has fast kernels for
// few patterns of reduced dims, and falls back on a reference
// implementation for the others. A training step's reductions are often
// over an outer dim (a bias's gradient sums over the batch); through
// oneDNN the gradient of the Transformer's position embedding (4096
// elements) took 200 us. The loops walk the operand in memory order:
// each run of its innermost dims is either added into a row of the result
// (a kept dim, vectorised) or summed into one element (a reduced dim, on
// sixteen partial accumulators). Operands of 64K elements or more are
// shared out across the OpenMP threads where each result element can stay
// with one thread (see Split): a bias's gradient on one thread was 0.34 ms
// of the realistic Transformer's step for each of its four [8, 128, 1024]
// sums, the step's 37 reductions 4.1 to 5.2 ms, and 3.3 to 4.2 ms split.
//
// bf16 goes to oneDNN, which reduces a tensor into one of the same rank
// with size 1 on every reduced dim. The result is seen that way: the
// operand's dims, each kept one with the result's stride for it, so a
// result that holds the kept dims in another order is written in place.
//
// The other element types (f64, i1, i32, i64) run on a loop in double, in
// the reference's order: each result element's operand elements in
// row-major order of the reduced dims, so the result is the reference's.
//
//===----------------------------------------------------------------------===//

#include "executor/FastReduction.h"

#include "executor/ElementWalk.h"
#include "executor/FastKernel.h"
#include "executor/OuterWalk.h"
#include "executor/ParallelChunks.h"
#include "executor/TypedElements.h"

#ifdef TESSEL_RUNTIME_HAS_KERNELS
#include "kernels/Reduction.h"
#endif

#ifdef TESSEL_RUNTIME_HAS_OPENMP
#include <omp.h>
#endif

#include <cmath>
#include <limits>

namespace tessel::runtime {

namespace {

/// A thread's share of a split inner run has at least this many elements
/// (four cache lines), so that threads do not write the same lines.
constexpr int64_t kMinColumnsPerThread = 64;

// How each kind starts and combines, in f32. Max and min let a NaN win,
// as the reference does.
struct SumOf {
  static float identity() { return 0.0f; }
  static float combine(float a, float b) { return a + b; }
};
struct ProductOf {
  static float identity() { return 1.0f; }
  static float combine(float a, float b) { return a * b; }
};
struct MaxOf {
  static float identity() { return -std::numeric_limits<float>::infinity(); }
  static float combine(float a, float b) { return (b > a || b != b) ? b : a; }
};
struct MinOf {
  static float identity() { return std::numeric_limits<float>::infinity(); }
  static float combine(float a, float b) { return (b < a || b != b) ? b : a; }
};

/// The operand's dims as runs of memory: strides[0] the operand's,
/// strides[1] the result's (0 along a reduced dim); one dim of one element
/// for a tensor of one element.
MergedDims<2> reductionDims(const TensorType &x, const TensorType &y) {
  MergedDims<2> dims;
  std::vector<int64_t> own = ref::rowMajorStrides(x.shape);
  for (size_t d = 0; d < x.dims.size(); ++d)
    dims.add(x.shape[d],
             {own[d], hasDim(y, x.dims[d]) ? strideOf(y, x.dims[d]) : 0});
  if (dims.sizes.empty()) { // One element.
    dims.sizes = {1};
    dims.strides = {std::vector<int64_t>{1}, std::vector<int64_t>{0}};
  }
  return dims;
}

/// Combines a run of `count` elements into one, on sixteen partial
/// results (vectorised, and more accurate than one running sum).
template <typename Combine> float combineRun(const float *x, int64_t count) {
  constexpr int kLanes = 16;
  float lanes[kLanes];
  for (float &lane : lanes)
    lane = Combine::identity();
  int64_t i = 0;
  for (; i + kLanes <= count; i += kLanes)
    for (int j = 0; j < kLanes; ++j)
      lanes[j] = Combine::combine(lanes[j], x[i + j]);
  float result = Combine::identity();
  for (float lane : lanes)
    result = Combine::combine(result, lane);
  for (; i < count; ++i)
    result = Combine::combine(result, x[i]);
  return result;
}

/// How a reduction's walk is shared out across threads so that every
/// result element still combines the same elements in the same order as
/// on one thread (the same bits on any number of threads): a kept inner
/// run by columns, each thread all the outer positions for its columns (a
/// bias's gradient, summed over the batch dims); a reduced inner run by
/// outer positions where every outer dim is kept, so that each position
/// has a result element of its own (a row mean). Anything else, and small
/// operands, run on the calling thread.
enum class Split { None, Columns, Rows };

Split splitOf(const MergedDims<2> &walk) {
  size_t inner = walk.sizes.size() - 1;
  int64_t elements = 1;
  for (int64_t size : walk.sizes)
    elements *= size;
  if (elements < kParallelElements)
    return Split::None;
  if (walk.strides[1][inner] != 0)
    return walk.sizes[inner] >= kMinColumnsPerThread * 2 ? Split::Columns
                                                         : Split::None;
  for (size_t d = 0; d < inner; ++d)
    if (walk.strides[1][d] == 0)
      return Split::None;
  return inner > 0 ? Split::Rows : Split::None;
}

template <typename Combine>
Kernel reductionLoop(MergedDims<2> walk, int64_t resultElements,
                     float meanDivisor) {
  Split split = splitOf(walk);
  return [=](tessel_context_t &, void *const *operands, void *result) {
    const float *x = static_cast<const float *>(operands[0]);
    float *y = static_cast<float *>(result);
    std::fill(y, y + resultElements, Combine::identity());
    size_t inner = walk.sizes.size() - 1;
    int64_t run = walk.sizes[inner];
    int64_t runStride = walk.strides[1][inner];
    int64_t positions = 1;
    for (size_t d = 0; d < inner; ++d)
      positions *= walk.sizes[d];
    // Outer positions [first, last), and of each run its elements [from,
    // to).
    auto walkPart = [&](int64_t first, int64_t last, int64_t from, int64_t to) {
      OuterWalk<2> outer(walk.sizes, inner,
                         {&walk.strides[0], &walk.strides[1]});
      outer.seek(first);
      for (int64_t p = first; p < last; ++p, outer.next()) {
        const float *xs = x + outer.offset(0);
        float *ys = y + outer.offset(1);
        if (runStride == 0)
          *ys = Combine::combine(*ys, combineRun<Combine>(xs, run));
        else if (runStride == 1)
          for (int64_t i = from; i < to; ++i)
            ys[i] = Combine::combine(ys[i], xs[i]);
        else
          for (int64_t i = from; i < to; ++i)
            ys[i * runStride] = Combine::combine(ys[i * runStride], xs[i]);
      }
    };
    int threads = 1;
#ifdef TESSEL_RUNTIME_HAS_OPENMP
    if (split == Split::Rows)
      threads =
          static_cast<int>(std::min<int64_t>(omp_get_max_threads(), positions));
    else if (split == Split::Columns)
      threads = static_cast<int>(
          std::min<int64_t>(omp_get_max_threads(), run / kMinColumnsPerThread));
#endif
    // Column blocks start on a cache line of the result where it is
    // contiguous.
    auto column = [&](int part) {
      if (part == threads)
        return run;
      int64_t start = run * part / threads;
      return runStride == 1 ? start / 16 * 16 : start;
    };
    if (threads <= 1) {
      walkPart(0, positions, 0, run);
    } else {
#ifdef TESSEL_RUNTIME_HAS_OPENMP
#pragma omp parallel for num_threads(threads) schedule(static)
      for (int part = 0; part < threads; ++part) {
        if (split == Split::Columns)
          walkPart(0, positions, column(part), column(part + 1));
        else
          walkPart(positions * part / threads, positions * (part + 1) / threads,
                   0, run);
      }
#endif
    }
    if (meanDivisor != 1.0f)
      for (int64_t k = 0; k < resultElements; ++k)
        y[k] /= meanDivisor;
  };
}

std::optional<Kernel> buildLoopReduce(ref::ReductionKind kind,
                                      const OpDescriptor &desc) {
  const TensorType &x = desc.operands[0], &y = desc.result;
  if (x.type != ref::ElementType::F32 || y.type != ref::ElementType::F32 ||
      x.numElements() == 0)
    return std::nullopt;
  MergedDims<2> walk = reductionDims(x, y);
  int64_t count = y.numElements();
  switch (kind) {
  case ref::ReductionKind::Sum:
    return reductionLoop<SumOf>(walk, count, 1.0f);
  case ref::ReductionKind::Mean:
    return reductionLoop<SumOf>(walk, count,
                                static_cast<float>(x.numElements() / count));
  case ref::ReductionKind::Prod:
    return reductionLoop<ProductOf>(walk, count, 1.0f);
  case ref::ReductionKind::Max:
    return reductionLoop<MaxOf>(walk, count, 1.0f);
  case ref::ReductionKind::Min:
    return reductionLoop<MinOf>(walk, count, 1.0f);
  }
  return std::nullopt;
}

#ifdef TESSEL_RUNTIME_HAS_KERNELS

ReductionAlgorithm algorithmOf(ref::ReductionKind kind) {
  switch (kind) {
  case ref::ReductionKind::Sum:
    return ReductionAlgorithm::Sum;
  case ref::ReductionKind::Mean:
    return ReductionAlgorithm::Mean;
  case ref::ReductionKind::Max:
    return ReductionAlgorithm::Max;
  case ref::ReductionKind::Min:
    return ReductionAlgorithm::Min;
  case ref::ReductionKind::Prod:
    return ReductionAlgorithm::Product;
  }
  return ReductionAlgorithm::Sum;
}

#endif

} // namespace

std::optional<Kernel> buildFastReduce(ref::ReductionKind kind,
                                      const OpDescriptor &desc,
                                      Kernel reference) {
  if (desc.operands.size() != 1)
    return std::nullopt;
  const TensorType &x = desc.operands[0], &y = desc.result;
  for (const std::string &dim : y.dims)
    if (!hasDim(x, dim) || y.shape[y.dimIndex(dim, "the result")] !=
                               x.shape[x.dimIndex(dim, "operand 0")])
      return std::nullopt;
  if (std::optional<Kernel> loop = buildLoopReduce(kind, desc))
    return loop;
#ifdef TESSEL_RUNTIME_HAS_KERNELS
  if (!allOfKernelType({&x, &y}) || x.rank() == 0 || x.numElements() == 0)
    return std::nullopt;
  StridedTensor source = StridedTensor::rowMajor(x.shape, kernelType(x));
  StridedTensor destination{{}, {}, kernelType(y)};
  for (size_t d = 0; d < x.dims.size(); ++d) {
    bool kept = hasDim(y, x.dims[d]);
    destination.dims.push_back(kept ? x.shape[d] : 1);
    // A reduced dim's stride is never used.
    destination.strides.push_back(kept ? strideOf(y, x.dims[d]) : 1);
  }
  return runPrepared(prepareReduction(algorithmOf(kind), source, destination),
                     std::move(reference));
#else
  (void)reference;
  return std::nullopt;
#endif
}

std::optional<Kernel> buildTypedReduce(ref::ReductionKind kind,
                                       const OpDescriptor &desc) {
  if (desc.operands.size() != 1 || desc.operands[0].type != desc.result.type)
    return std::nullopt;
  const TensorType &x = desc.operands[0], &y = desc.result;
  // The reference's loop: the result's dims, then the reduced dims in the
  // operand's order; the result element is the loop's position over the
  // first part.
  TensorType loop = y;
  int64_t reducedCount = 1;
  for (size_t d = 0; d < x.dims.size(); ++d) {
    if (hasDim(y, x.dims[d]))
      continue;
    loop.dims.push_back(x.dims[d]);
    loop.shape.push_back(x.shape[d]);
    reducedCount *= x.shape[d];
  }
  for (const std::string &dim : y.dims)
    if (!hasDim(x, dim) || y.shape[y.dimIndex(dim, "the result")] !=
                               x.shape[x.dimIndex(dim, "operand 0")])
      return std::nullopt;
  std::array<OperandWalk, 1> walk = {OperandWalk(x, loop)};
  int64_t count = y.numElements();
  std::vector<int64_t> shape = loop.shape;
  return byType(y.type, [&](auto tag) -> std::optional<Kernel> {
    using T = typename decltype(tag)::type;
    return Kernel([=](tessel_context_t &, void *const *operands, void *result) {
      const T *in = static_cast<const T *>(operands[0]);
      T *out = static_cast<T *>(result);
      std::vector<double> accumulators(count, ref::reductionIdentity(kind));
      if (reducedCount > 0)
        forEachElement(shape, walk, [&](int64_t k, const auto &offsets) {
          double &accumulator = accumulators[k / reducedCount];
          accumulator = ref::reductionCombine(kind, accumulator,
                                              loadValue(in[offsets[0]]));
        });
      for (int64_t i = 0; i < count; ++i)
        out[i] = storeValue<T>(kind == ref::ReductionKind::Mean
                                   ? accumulators[i] /
                                         static_cast<double>(reducedCount)
                                   : accumulators[i]);
    });
  });
}

} // namespace tessel::runtime
