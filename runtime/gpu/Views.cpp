//===- Views.cpp - Descriptor types as walks and strides ------------------===//

#include "gpu/Views.h"

#include "gpu/CudaStatus.h"

#include "executor/Buffers.h"

#include <fmt/format.h>

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
  walk = *toWalk;
  srcStrides = *src;
  dstStrides = *dst;
  return true;
}

void Permute::run(cudaStream_t stream, const void *src, void *dst) const {
  if (same) {
    int64_t bytes = walk.count() * elementBytes;
    if (bytes > 0 && src != dst)
      checkCuda(cudaMemcpyAsync(dst, src, static_cast<size_t>(bytes),
                                cudaMemcpyDeviceToDevice, stream),
                "cudaMemcpyAsync");
    return;
  }
  launchCopy(stream, elementBytes, walk, dst, dstStrides, src, srcStrides);
}

} // namespace tessel::runtime::gpu
