//===- TypedElementwise.cpp - Element-wise ops of other types -------------===//

#include "executor/TypedElementwise.h"

#include "executor/ElementWalk.h"
#include "executor/TypedElements.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

namespace tessel::runtime {

namespace {

bool sameTypes(const OpDescriptor &desc) {
  for (const TensorType &operand : desc.operands)
    if (operand.type != desc.result.type)
      return false;
  return true;
}

/// The loop of a comparison of T operands, in double as the reference
/// compares (every comparison with NaN fails but `!=`). `Compare` is a
/// std:: function object, so that the loop holds no switch.
template <typename T, typename Compare>
Kernel comparisonLoop(std::vector<int64_t> shape,
                      std::array<OperandWalk, 2> walks) {
  return [=](tessel_context_t &, void *const *operands, void *result) {
    const T *a = static_cast<const T *>(operands[0]);
    const T *b = static_cast<const T *>(operands[1]);
    auto *y = static_cast<uint8_t *>(result);
    forEachElement(shape, walks, [&](int64_t k, const auto &offsets) {
      y[k] =
          Compare()(loadValue(a[offsets[0]]), loadValue(b[offsets[1]])) ? 1 : 0;
    });
  };
}

template <typename T>
Kernel comparisonLoop(ref::CompareKind kind, std::vector<int64_t> shape,
                      std::array<OperandWalk, 2> walks) {
  switch (kind) {
  case ref::CompareKind::Eq:
    return comparisonLoop<T, std::equal_to<double>>(shape, walks);
  case ref::CompareKind::Ne:
    return comparisonLoop<T, std::not_equal_to<double>>(shape, walks);
  case ref::CompareKind::Lt:
    return comparisonLoop<T, std::less<double>>(shape, walks);
  case ref::CompareKind::Le:
    return comparisonLoop<T, std::less_equal<double>>(shape, walks);
  case ref::CompareKind::Gt:
    return comparisonLoop<T, std::greater<double>>(shape, walks);
  case ref::CompareKind::Ge:
    return comparisonLoop<T, std::greater_equal<double>>(shape, walks);
  }
  return comparisonLoop<T, std::equal_to<double>>(shape, walks);
}

} // namespace

std::optional<Kernel> buildTypedUnary(ref::UnaryKind kind,
                                      const OpDescriptor &desc) {
  const TensorType &x = desc.operands[0], &y = desc.result;
  if (x.type != y.type || x.dims != y.dims)
    return std::nullopt;
  int64_t count = y.numElements();
  return byType(y.type, [&](auto tag) -> std::optional<Kernel> {
    using T = typename decltype(tag)::type;
    return Kernel(
        [kind, count](tessel_context_t &, void *const *operands, void *result) {
          const T *in = static_cast<const T *>(operands[0]);
          T *out = static_cast<T *>(result);
          for (int64_t i = 0; i < count; ++i)
            out[i] = storeValue<T>(ref::applyUnary(kind, loadValue(in[i])));
        });
  });
}

std::optional<Kernel> buildTypedBinary(ref::BinaryKind kind,
                                       const OpDescriptor &desc) {
  if (desc.operands.size() != 2 || !sameTypes(desc))
    return std::nullopt;
  std::array<OperandWalk, 2> walks = {
      OperandWalk(desc.operands[0], desc.result),
      OperandWalk(desc.operands[1], desc.result)};
  std::vector<int64_t> shape = desc.result.shape;
  // Integer division truncates, as in the reference.
  bool integerResult = ref::isIntegerType(desc.result.type);
  return byType(desc.result.type, [&](auto tag) -> std::optional<Kernel> {
    using T = typename decltype(tag)::type;
    return Kernel([=](tessel_context_t &, void *const *operands, void *result) {
      const T *a = static_cast<const T *>(operands[0]);
      const T *b = static_cast<const T *>(operands[1]);
      T *y = static_cast<T *>(result);
      forEachElement(shape, walks, [&](int64_t k, const auto &offsets) {
        y[k] = storeValue<T>(ref::applyBinary(kind, loadValue(a[offsets[0]]),
                                              loadValue(b[offsets[1]]),
                                              integerResult));
      });
    });
  });
}

std::optional<Kernel> buildTypedCompare(ref::CompareKind kind,
                                        const OpDescriptor &desc) {
  if (desc.operands.size() != 2 ||
      desc.operands[0].type != desc.operands[1].type ||
      desc.result.type != ref::ElementType::I1)
    return std::nullopt;
  std::array<OperandWalk, 2> walks = {
      OperandWalk(desc.operands[0], desc.result),
      OperandWalk(desc.operands[1], desc.result)};
  std::vector<int64_t> shape = desc.result.shape;
  return byType(desc.operands[0].type, [&](auto tag) -> std::optional<Kernel> {
    using T = typename decltype(tag)::type;
    return comparisonLoop<T>(kind, shape, walks);
  });
}

std::optional<Kernel> buildTypedSelect(const OpDescriptor &desc) {
  if (desc.operands.size() != 3 ||
      desc.operands[0].type != ref::ElementType::I1 ||
      desc.operands[1].type != desc.result.type ||
      desc.operands[2].type != desc.result.type)
    return std::nullopt;
  std::array<OperandWalk, 3> walks = {
      OperandWalk(desc.operands[0], desc.result),
      OperandWalk(desc.operands[1], desc.result),
      OperandWalk(desc.operands[2], desc.result)};
  std::vector<int64_t> shape = desc.result.shape;
  return byType(desc.result.type, [&](auto tag) -> std::optional<Kernel> {
    using T = typename decltype(tag)::type;
    return Kernel([=](tessel_context_t &, void *const *operands, void *result) {
      const auto *condition = static_cast<const uint8_t *>(operands[0]);
      const T *a = static_cast<const T *>(operands[1]);
      const T *b = static_cast<const T *>(operands[2]);
      T *y = static_cast<T *>(result);
      // The chosen element is already of the result's type.
      forEachElement(shape, walks, [&](int64_t k, const auto &offsets) {
        y[k] = condition[offsets[0]] != 0 ? a[offsets[1]] : b[offsets[2]];
      });
    });
  });
}

std::optional<Kernel> buildTypedCast(const OpDescriptor &desc) {
  const TensorType &x = desc.operands[0], &y = desc.result;
  if (x.dims != y.dims)
    return std::nullopt;
  int64_t count = y.numElements();
  return byType(x.type, [&](auto from) -> std::optional<Kernel> {
    return byType(y.type, [&](auto to) -> std::optional<Kernel> {
      using From = typename decltype(from)::type;
      using To = typename decltype(to)::type;
      return Kernel(
          [count](tessel_context_t &, void *const *operands, void *result) {
            const From *in = static_cast<const From *>(operands[0]);
            To *out = static_cast<To *>(result);
            for (int64_t i = 0; i < count; ++i)
              out[i] = storeValue<To>(loadValue(in[i]));
          });
    });
  });
}

std::optional<Kernel> buildTypedIota(const OpDescriptor &desc,
                                     const std::string &dim) {
  const TensorType &y = desc.result;
  int index = y.dimIndex(dim, "the result");
  // Each run of `inner` elements has one index along `dim`, which counts
  // up to `size` and starts again.
  int64_t size = y.shape[index], inner = 1, count = y.numElements();
  for (size_t d = index + 1; d < y.shape.size(); ++d)
    inner *= y.shape[d];
  return byType(y.type, [&](auto tag) -> std::optional<Kernel> {
    using T = typename decltype(tag)::type;
    // The `size` values converted once, then copied run by run: converting
    // and dividing per element cost the Transformer's causal-mask iota
    // along its innermost dim (16K elements) 0.15 ms a call.
    auto values = std::make_shared<std::vector<T>>();
    for (int64_t i = 0; i < size; ++i)
      values->push_back(storeValue<T>(static_cast<double>(i)));
    return Kernel([=](tessel_context_t &, void *const *, void *result) {
      T *out = static_cast<T *>(result);
      for (int64_t start = 0; start < count; start += size * inner) {
        if (inner == 1)
          std::copy(values->begin(), values->end(), out + start);
        else
          for (int64_t i = 0; i < size; ++i)
            std::fill_n(out + start + i * inner, inner, (*values)[i]);
      }
    });
  });
}

} // namespace tessel::runtime
