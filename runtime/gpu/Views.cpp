//===- Views.cpp - Descriptor types as walks and strides ------------------===//

#include "gpu/Views.h"

#include "gpu/CudaStatus.h"

#include "executor/Buffers.h"

#include <fmt/format.h>

#include <algorithm>

namespace tessel::runtime::gpu {

static_assert(
    static_cast<int>(ref::ElementType::F32) == static_cast<int>(DType::F32) &&
        static_cast<int>(ref::ElementType::F16) ==
            static_cast<int>(DType::F16) &&
        static_cast<int>(ref::ElementType::BF16) ==
            static_cast<int>(DType::BF16) &&
        static_cast<int>(ref::ElementType::F64) ==
            static_cast<int>(DType::F64) &&
        static_cast<int>(ref::ElementType::I1) == static_cast<int>(DType::I1) &&
        static_cast<int>(ref::ElementType::I32) ==
            static_cast<int>(DType::I32) &&
        static_cast<int>(ref::ElementType::I64) == static_cast<int>(DType::I64),
    "DType follows ref::ElementType");

DType dtypeOf(ref::ElementType type) { return static_cast<DType>(type); }

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    strides[i - 1] = strides[i] * shape[i];
  return strides;
}

std::optional<Walk> walkOver(const std::vector<int64_t> &shape) {
  if (shape.size() > static_cast<size_t>(kMaxDims))
    return std::nullopt;
  Walk walk;
  walk.rank = static_cast<int32_t>(shape.size());
  for (size_t i = 0; i < shape.size(); ++i)
    walk.shape[i] = shape[i];
  return walk;
}

std::optional<Strides> stridesByName(const TensorType &type,
                                     const std::vector<std::string> &dims) {
  if (dims.size() > static_cast<size_t>(kMaxDims) ||
      type.dims.size() > static_cast<size_t>(kMaxDims))
    return std::nullopt;
  std::vector<int64_t> own = rowMajorStrides(type.shape);
  Strides strides;
  for (size_t i = 0; i < dims.size(); ++i)
    for (size_t j = 0; j < type.dims.size(); ++j)
      if (type.dims[j] == dims[i])
        strides.at[i] = own[j];
  return strides;
}

TensorType reordered(const TensorType &type,
                     const std::vector<std::string> &order) {
  TensorType result;
  result.type = type.type;
  for (const std::string &dim : order) {
    result.dims.push_back(dim);
    result.shape.push_back(type.shape[type.dimIndex(dim, "a tensor")]);
  }
  return result;
}

std::vector<std::string> dimsWithout(const TensorType &type,
                                     const std::vector<std::string> &exclude) {
  std::vector<std::string> result;
  for (const std::string &dim : type.dims)
    if (std::find(exclude.begin(), exclude.end(), dim) == exclude.end())
      result.push_back(dim);
  return result;
}

std::vector<int64_t> sizesOf(const TensorType &type,
                             const std::vector<std::string> &dims) {
  std::vector<int64_t> sizes;
  for (const std::string &dim : dims)
    sizes.push_back(type.shape[type.dimIndex(dim, "a tensor")]);
  return sizes;
}

std::optional<Fibers> sameLayoutFibers(const TensorType &in,
                                       const std::vector<std::string> &inner) {
  std::vector<std::string> outer = dimsWithout(in, inner);
  std::optional<Walk> outerWalk = walkOver(sizesOf(in, outer));
  std::optional<Walk> innerWalk = walkOver(sizesOf(in, inner));
  std::optional<Strides> outerStrides = stridesByName(in, outer);
  std::optional<Strides> innerStrides = stridesByName(in, inner);
  if (!outerWalk || !innerWalk || !outerStrides || !innerStrides)
    return std::nullopt;
  Fibers fibers;
  fibers.outer = *outerWalk;
  fibers.inner = *innerWalk;
  fibers.outerIn = fibers.outerOut = *outerStrides;
  fibers.innerIn = fibers.innerOut = *innerStrides;
  return fibers;
}

std::optional<Fibers> reductionFibers(const TensorType &in,
                                      const TensorType &result) {
  std::vector<std::string> inner = dimsWithout(in, result.dims);
  std::optional<Walk> outer = walkOver(result.shape);
  std::optional<Walk> innerWalk = walkOver(sizesOf(in, inner));
  std::optional<Strides> outerIn = stridesByName(in, result.dims);
  std::optional<Strides> innerIn = stridesByName(in, inner);
  std::optional<Strides> outerOut = stridesByName(result, result.dims);
  if (!outer || !innerWalk || !outerIn || !innerIn || !outerOut)
    return std::nullopt;
  Fibers fibers;
  fibers.outer = *outer;
  fibers.inner = *innerWalk;
  fibers.outerIn = *outerIn;
  fibers.innerIn = *innerIn;
  fibers.outerOut = *outerOut;
  return fibers;
}

std::optional<Fibers> crossEntropyFibers(const TensorType &logits,
                                         const TensorType &labels,
                                         const TensorType &result,
                                         const std::string &classDim) {
  int classIndex = logits.dimIndex(classDim, "the logits");
  std::optional<Walk> outer = walkOver(result.shape);
  std::optional<Walk> inner = walkOver({logits.shape[classIndex]});
  std::optional<Strides> outerIn = stridesByName(logits, result.dims);
  std::optional<Strides> innerIn = stridesByName(logits, {classDim});
  std::optional<Strides> labelStrides = stridesByName(labels, result.dims);
  std::optional<Strides> outerOut = stridesByName(result, result.dims);
  if (!outer || !inner || !outerIn || !innerIn || !labelStrides || !outerOut)
    return std::nullopt;
  Fibers fibers;
  fibers.outer = *outer;
  fibers.inner = *inner;
  fibers.outerIn = *outerIn;
  fibers.innerIn = *innerIn;
  fibers.outerAux = *labelStrides;
  fibers.outerOut = *outerOut;
  return fibers;
}

void Placement::run(cudaStream_t stream, const void *from, void *to) const {
  launchCopy(stream, elementBytes, walk,
             static_cast<char *>(to) + dstBase * elementBytes, dst,
             static_cast<const char *>(from) + srcBase * elementBytes, src);
  checkCuda(cudaGetLastError(), "the copy kernel");
}

std::optional<Placement> byName(const TensorType &operand,
                                const TensorType &result) {
  std::optional<Walk> walk = walkOver(result.shape);
  std::optional<Strides> src = stridesByName(operand, result.dims);
  std::optional<Strides> dst = stridesByName(result, result.dims);
  if (!walk || !src || !dst || operand.type != result.type)
    return std::nullopt;
  return Placement{static_cast<int>(runtime::elementBytes(result.type)), *walk,
                   *dst, *src};
}

std::optional<Placement> sliceOf(const TensorType &operand,
                                 const TensorType &result,
                                 const std::vector<std::string> &dims,
                                 const std::vector<int64_t> &starts) {
  std::optional<Placement> plan = byName(operand, result);
  if (!plan || dims.size() != starts.size())
    return std::nullopt;
  std::vector<int64_t> strides = rowMajorStrides(operand.shape);
  for (size_t i = 0; i < dims.size(); ++i)
    plan->srcBase +=
        starts[i] * strides[operand.dimIndex(dims[i], "operand 0")];
  return plan;
}

std::optional<Placement> placeInto(const TensorType &operand,
                                   const TensorType &result,
                                   const std::vector<std::string> &dims,
                                   const std::vector<int64_t> &offsets) {
  std::optional<Walk> walk = walkOver(sizesOf(operand, result.dims));
  std::optional<Strides> src = stridesByName(operand, result.dims);
  std::optional<Strides> dst = stridesByName(result, result.dims);
  if (!walk || !src || !dst || operand.type != result.type ||
      operand.rank() != result.rank() || dims.size() != offsets.size())
    return std::nullopt;
  Placement plan{static_cast<int>(runtime::elementBytes(result.type)), *walk,
                 *dst, *src};
  std::vector<int64_t> strides = rowMajorStrides(result.shape);
  for (size_t d = 0; d < dims.size(); ++d) {
    if (offsets[d] < 0)
      return std::nullopt;
    plan.dstBase +=
        offsets[d] * strides[result.dimIndex(dims[d], "the result")];
  }
  return plan;
}

bool Permute::plan(const TensorType &from, const TensorType &to) {
  if (from.dims.size() != to.dims.size())
    throw OpError(
        fmt::format("cannot permute {} into {}", from.str(), to.str()));
  same = from.dims == to.dims;
  elementBytes = static_cast<int>(runtime::elementBytes(from.type));
  std::optional<Walk> toWalk = walkOver(to.shape);
  std::optional<Strides> src = stridesByName(from, to.dims);
  std::optional<Strides> dst = stridesByName(to, to.dims);
  if (!toWalk || !src || !dst)
    return false;
  walkOverTo = *toWalk;
  srcStrides = *src;
  dstStrides = *dst;
  return true;
}

void Permute::run(cudaStream_t stream, const void *src, void *dst) const {
  if (same) {
    int64_t bytes = walkOverTo.count() * elementBytes;
    if (bytes > 0 && src != dst)
      checkCuda(cudaMemcpyAsync(dst, src, static_cast<size_t>(bytes),
                                cudaMemcpyDeviceToDevice, stream),
                "cudaMemcpyAsync");
    return;
  }
  launchCopy(stream, elementBytes, walkOverTo, dst, dstStrides, src,
             srcStrides);
}

} // namespace tessel::runtime::gpu
