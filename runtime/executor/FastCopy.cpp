//===- FastCopy.cpp - Data movement as copies of memory runs --------------===//

#include "executor/FastCopy.h"

#include "executor/Buffers.h"
#include "executor/FastKernel.h"
#include "executor/OuterWalk.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <utility>

namespace tessel::runtime {

namespace {

/// A block of elements to copy: its dims with their strides at the source
/// (strides[0]) and at the destination (strides[1]), in elements, merged
/// into runs; the last dim is the innermost run.
struct CopyPlan {
  MergedDims<2> dims;
  int64_t fromOffset = 0, toOffset = 0, bytesPerElement = 1;

  void run(const unsigned char *source, unsigned char *destination) const {
    source += fromOffset * bytesPerElement;
    destination += toOffset * bytesPerElement;
    const std::vector<int64_t> &sizes = dims.sizes, &from = dims.strides[0],
                               &to = dims.strides[1];
    if (sizes.empty()) { // One element.
      std::memcpy(destination, source, bytesPerElement);
      return;
    }
    size_t inner = sizes.size() - 1;
    bool contiguous = from[inner] == 1 && to[inner] == 1;
    // A broadcast's innermost run repeats one element.
    bool repeated = from[inner] == 0 && to[inner] == 1;
    OuterWalk<2> walk(sizes, inner, {&from, &to});
    do {
      const unsigned char *in = source + walk.offset(0) * bytesPerElement;
      unsigned char *out = destination + walk.offset(1) * bytesPerElement;
      if (contiguous)
        std::memcpy(out, in, sizes[inner] * bytesPerElement);
      else if (repeated)
        fillWithElement(in, static_cast<size_t>(bytesPerElement), out,
                        sizes[inner]);
      else
        for (int64_t i = 0; i < sizes[inner]; ++i)
          std::memcpy(out + i * to[inner] * bytesPerElement,
                      in + i * from[inner] * bytesPerElement, bytesPerElement);
    } while (walk.next());
  }
};

} // namespace

void fillWithElement(const unsigned char *element, size_t elementBytes,
                     unsigned char *out, int64_t count) {
  auto fillAs = [&](auto value) {
    std::memcpy(&value, element, sizeof value);
    // Element by element through memcpy: `out` need not be aligned.
    for (int64_t i = 0; i < count; ++i)
      std::memcpy(out + i * sizeof value, &value, sizeof value);
  };
  switch (elementBytes) {
  case 1:
    std::memset(out, *element, static_cast<size_t>(count));
    return;
  case 2:
    return fillAs(uint16_t{});
  case 4:
    return fillAs(uint32_t{});
  case 8:
    return fillAs(uint64_t{});
  default:
    for (int64_t i = 0; i < count; ++i)
      std::memcpy(out + i * elementBytes, element, elementBytes);
  }
}

std::optional<Kernel> buildFastSlice(const OpDescriptor &desc,
                                     const std::vector<std::string> &dims,
                                     const std::vector<int64_t> &starts) {
  const TensorType &x = desc.operands[0], &y = desc.result;
  if (x.type != y.type || y.numElements() == 0)
    return std::nullopt;
  CopyPlan plan;
  plan.bytesPerElement = static_cast<int64_t>(elementBytes(y.type));
  if (x.rank() != y.rank())
    throw OpError(
        fmt::format("the result {} is not a slice of {}", y.str(), x.str()));
  for (size_t d = 0; d < dims.size(); ++d) {
    int64_t size = y.shape[y.dimIndex(dims[d], "the result")];
    int64_t available = x.shape[x.dimIndex(dims[d], "operand 0")];
    if (starts[d] < 0 || starts[d] + size > available)
      throw OpError(fmt::format(
          "the slice of '{}' from {} of size {} runs past its size {}", dims[d],
          starts[d], size, available));
    plan.fromOffset += starts[d] * strideOf(x, dims[d]);
  }
  std::vector<int64_t> own = ref::rowMajorStrides(y.shape);
  for (size_t d = 0; d < y.dims.size(); ++d) {
    const std::string &name = y.dims[d];
    bool sliced = std::find(dims.begin(), dims.end(), name) != dims.end();
    // A descriptor whose sizes disagree is refused here: the copy would
    // read past the operand.
    if (!hasDim(x, name) ||
        (!sliced && x.shape[x.dimIndex(name, "operand 0")] != y.shape[d]))
      throw OpError(
          fmt::format("the result {} is not a slice of {}", y.str(), x.str()));
    plan.dims.add(y.shape[d], {strideOf(x, name), own[d]});
  }
  return Kernel(
      [plan](tessel_context_t &, void *const *operands, void *result) {
        plan.run(static_cast<const unsigned char *>(operands[0]),
                 static_cast<unsigned char *>(result));
      });
}

std::optional<Kernel> buildFastRearrange(const OpDescriptor &desc) {
  const TensorType &x = desc.operands[0], &y = desc.result;
  if (x.type != y.type || y.numElements() == 0)
    return std::nullopt;
  // A result that does not hold the operand is the reference kernel's to
  // judge.
  for (size_t d = 0; d < x.dims.size(); ++d)
    if (!hasDim(y, x.dims[d]) ||
        y.shape[y.dimIndex(x.dims[d], "the result")] != x.shape[d])
      return std::nullopt;
  CopyPlan plan;
  plan.bytesPerElement = static_cast<int64_t>(elementBytes(y.type));
  std::vector<int64_t> own = ref::rowMajorStrides(y.shape);
  // A dim the operand lacks is read with stride 0: the same element again.
  for (size_t d = 0; d < y.dims.size(); ++d)
    plan.dims.add(y.shape[d],
                  {hasDim(x, y.dims[d]) ? strideOf(x, y.dims[d]) : 0, own[d]});
  return Kernel(
      [plan](tessel_context_t &, void *const *operands, void *result) {
        plan.run(static_cast<const unsigned char *>(operands[0]),
                 static_cast<unsigned char *>(result));
      });
}

std::optional<Kernel> buildFastConcat(const OpDescriptor &desc,
                                      const std::string &dim) {
  const TensorType &y = desc.result;
  y.dimIndex(dim, "the result");
  std::vector<std::pair<size_t, CopyPlan>> plans; // By operand.
  int64_t position = 0;
  for (size_t operand = 0; operand < desc.operands.size(); ++operand) {
    const TensorType &x = desc.operands[operand];
    if (x.type != y.type)
      return std::nullopt;
    CopyPlan plan;
    plan.bytesPerElement = static_cast<int64_t>(elementBytes(y.type));
    plan.toOffset = position * strideOf(y, dim);
    std::vector<int64_t> own = ref::rowMajorStrides(x.shape);
    if (x.rank() != y.rank())
      throw OpError(fmt::format("operand {} {} and the result {} differ in "
                                "dims",
                                operand, x.str(), y.str()));
    for (size_t d = 0; d < x.dims.size(); ++d) {
      const std::string &name = x.dims[d];
      int64_t size = y.shape[y.dimIndex(name, "the result")];
      if (name != dim && size != x.shape[d])
        throw OpError(fmt::format("operand {} {} and the result {} differ in "
                                  "'{}'",
                                  operand, x.str(), y.str(), name));
      plan.dims.add(x.shape[d], {own[d], strideOf(y, name)});
    }
    position += x.shape[x.dimIndex(dim, "an operand")];
    if (x.numElements() > 0)
      plans.emplace_back(operand, plan);
  }
  if (position != y.shape[y.dimIndex(dim, "the result")])
    throw OpError(fmt::format("the operands' '{}' add up to {}, the result {} "
                              "has {}",
                              dim, position, y.str(),
                              y.shape[y.dimIndex(dim, "the result")]));
  return Kernel(
      [plans](tessel_context_t &, void *const *operands, void *result) {
        for (const auto &[operand, plan] : plans)
          plan.run(static_cast<const unsigned char *>(operands[operand]),
                   static_cast<unsigned char *>(result));
      });
}

} // namespace tessel::runtime
