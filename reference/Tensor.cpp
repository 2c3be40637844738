//===- Tensor.cpp - Named-dimension tensors for the reference kernels -----===//

#include "reference/Tensor.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>

namespace tessel::ref {

bool isFloatType(ElementType type) {
  switch (type) {
  case ElementType::F32:
  case ElementType::F16:
  case ElementType::BF16:
  case ElementType::F64:
    return true;
  case ElementType::I1:
  case ElementType::I32:
  case ElementType::I64:
    return false;
  }
  return false;
}

bool isIntegerType(ElementType type) { return !isFloatType(type); }

const char *elementTypeName(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return "f32";
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  case ElementType::F64:
    return "f64";
  case ElementType::I1:
    return "i1";
  case ElementType::I32:
    return "i32";
  case ElementType::I64:
    return "i64";
  }
  return "?";
}

std::optional<ElementType> parseElementType(std::string_view name) {
  for (ElementType type :
       {ElementType::F32, ElementType::F16, ElementType::BF16, ElementType::F64,
        ElementType::I1, ElementType::I32, ElementType::I64})
    if (name == elementTypeName(type))
      return type;
  return std::nullopt;
}

static double roundToBF16(double value) {
  float asFloat = static_cast<float>(value);
  if (std::isnan(asFloat))
    return value;
  uint32_t bits;
  std::memcpy(&bits, &asFloat, sizeof(bits));
  // Adding 0x7FFF plus the lowest kept bit rounds to nearest with ties to
  // even; infinities are unchanged and overflow correctly carries into inf.
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  bits &= 0xFFFF0000u;
  std::memcpy(&asFloat, &bits, sizeof(bits));
  return asFloat;
}

static double roundToF16(double value) {
  // Computed in software rather than through _Float16, which some compilers
  // (clang before 15 on x86-64) reject; the unit tests compare this against
  // the IEEE binary16 results. Dividing by a power of two is exact, so one
  // nearbyint (round to nearest even in the default mode) rounds once.
  if (std::isnan(value))
    return value;
  // 65520 is halfway between the largest half, 65504, and 2^16; the tie goes
  // to the even 2^16, which overflows.
  if (std::fabs(value) >= 65520.0)
    return std::copysign(HUGE_VAL, value);
  if (value == 0.0)
    return value;
  int exponent;
  std::frexp(value, &exponent); // |value| = m * 2^exponent, m in [0.5, 1).
  // Halves keep 11 significant bits; below 2^-14 they are subnormal with a
  // fixed spacing of 2^-24.
  int quantumExponent = std::max(exponent - 11, -24);
  double scaled = std::ldexp(value, -quantumExponent);
  return std::ldexp(std::nearbyint(scaled), quantumExponent);
}

static double roundToI32(double value) {
  if (!std::isfinite(value))
    return 0.0;
  // Wrap modulo 2^32 as two's complement truncation does; fmod is exact.
  constexpr double twoTo32 = 4294967296.0;
  double wrapped = std::fmod(std::trunc(value), twoTo32);
  if (wrapped < 0)
    wrapped += twoTo32;
  if (wrapped >= twoTo32 / 2)
    wrapped -= twoTo32;
  return wrapped;
}

static double roundToI64(double value) {
  if (std::isnan(value))
    return 0.0;
  constexpr double limit = 9223372036854775808.0; // 2^63
  // Saturate at the largest double below 2^63 so that every stored i64
  // value converts back to int64_t without undefined behaviour.
  if (value >= limit)
    return std::nextafter(limit, 0.0);
  if (value < -limit)
    return -limit;
  return std::trunc(value);
}

double roundToType(double value, ElementType type) {
  switch (type) {
  case ElementType::F64:
    return value;
  case ElementType::F32:
    return static_cast<double>(static_cast<float>(value));
  case ElementType::F16:
    return roundToF16(value);
  case ElementType::BF16:
    return roundToBF16(value);
  case ElementType::I1:
    // NaN compares unequal to 0 but is mapped to 0 like other integer types.
    return (value != 0.0 && !std::isnan(value)) ? 1.0 : 0.0;
  case ElementType::I32:
    return roundToI32(value);
  case ElementType::I64:
    return roundToI64(value);
  }
  return value;
}

int64_t TensorSpec::numElements() const {
  int64_t product = 1;
  for (int64_t size : shape)
    product *= size;
  return product;
}

int TensorSpec::dimIndex(std::string_view name) const {
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] == name)
      return static_cast<int>(i);
  return -1;
}

int64_t TensorSpec::dimSize(std::string_view name) const {
  int index = dimIndex(name);
  assert(index >= 0 && "no dimension with this name");
  return shape[index];
}

Tensor::Tensor(TensorSpec tensorSpec, double fill)
    : spec(std::move(tensorSpec)),
      data(spec.numElements(), roundToType(fill, spec.type)) {
  assert(spec.dims.size() == spec.shape.size() && "dims and shape differ");
}

Tensor::Tensor(TensorSpec tensorSpec, std::vector<double> values)
    : spec(std::move(tensorSpec)), data(std::move(values)) {
  assert(spec.dims.size() == spec.shape.size() && "dims and shape differ");
  assert(static_cast<int64_t>(data.size()) == spec.numElements() &&
         "value count does not match the shape");
  for (double &value : data)
    value = roundToType(value, spec.type);
}

int64_t Tensor::offsetOf(const std::vector<int64_t> &index) const {
  assert(index.size() == spec.shape.size() && "index rank mismatch");
  int64_t offset = 0;
  for (size_t i = 0; i < index.size(); ++i) {
    assert(index[i] >= 0 && index[i] < spec.shape[i] && "index out of range");
    offset = offset * spec.shape[i] + index[i];
  }
  return offset;
}

int64_t Tensor::offsetOf(NamedIndex namedIndex) const {
  assert(namedIndex.size() == spec.dims.size() &&
         "every dimension must be indexed exactly once");
  std::vector<int64_t> index(spec.dims.size(), -1);
  for (const auto &[name, position] : namedIndex) {
    int dim = dimIndex(name);
    assert(dim >= 0 && index[dim] == -1 && "unknown or repeated dimension");
    index[dim] = position;
  }
  return offsetOf(index);
}

std::string describeIndex(const TensorSpec &spec,
                          const std::vector<int64_t> &index) {
  std::string text = "(";
  for (int d = 0; d < spec.rank(); ++d) {
    if (d > 0)
      text += ", ";
    text += spec.dims[d] + "=" + std::to_string(index[d]);
  }
  return text + ")";
}

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    strides[i - 1] = strides[i] * shape[i];
  return strides;
}

bool advanceIndex(std::vector<int64_t> &index,
                  const std::vector<int64_t> &shape) {
  for (size_t i = index.size(); i-- > 0;) {
    if (++index[i] < shape[i])
      return true;
    index[i] = 0;
  }
  return false;
}

NamedIndexMap::NamedIndexMap(const std::vector<std::string> &driverDims,
                             const std::vector<int64_t> &driverShape,
                             const TensorSpec &operand)
    : strides(driverDims.size(), 0) {
  (void)driverShape; // Only the asserts read it.
  assert(driverDims.size() == driverShape.size() && "driver rank mismatch");
  std::vector<int64_t> operandStrides = rowMajorStrides(operand.shape);
  int matched = 0;
  for (size_t i = 0; i < driverDims.size(); ++i) {
    int dim = operand.dimIndex(driverDims[i]);
    if (dim < 0)
      continue;
    assert(operand.shape[dim] == driverShape[i] &&
           "same-named dimensions must have the same size");
    strides[i] = operandStrides[dim];
    ++matched;
  }
  (void)matched;
  assert(matched == operand.rank() &&
         "operand has a dimension the iteration space lacks");
}

} // namespace tessel::ref
