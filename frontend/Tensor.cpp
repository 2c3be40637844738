//===- Tensor.cpp - dims, element types, tensor accessors -----------------===//

#include "tessel/frontend/Tensor.h"
#include "tessel/frontend/Ops.h"

#include <fmt/format.h>

#include <algorithm>

namespace tessel {

namespace {
struct DTypeSpelling {
  DType type;
  const char *name;
};
constexpr DTypeSpelling kDTypes[] = {
    {DType::F32, "f32"}, {DType::F16, "f16"}, {DType::BF16, "bf16"},
    {DType::F64, "f64"}, {DType::I1, "i1"},   {DType::I32, "i32"},
    {DType::I64, "i64"}};
} // namespace

const char *dtypeName(DType type) {
  for (const DTypeSpelling &spelling : kDTypes)
    if (spelling.type == type)
      return spelling.name;
  return "?";
}

DType parseDType(const std::string &name) {
  for (const DTypeSpelling &spelling : kDTypes)
    if (name == spelling.name)
      return spelling.type;
  throw Error(fmt::format("unknown element type '{}' (f32, f16, bf16, f64, "
                          "i1, i32 or i64)",
                          name));
}

Dim::Dim(std::string name, int64_t size) : name(std::move(name)), size(size) {
  if (this->name.empty())
    throw Error("a dimension needs a name");
  if (size <= 0)
    throw Error(fmt::format("dimension '{}' has size {}; sizes are positive",
                            this->name, size));
}

std::string formatDims(const Dims &dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    text += fmt::format("{}{}:{}", i ? ", " : "", dims[i].name, dims[i].size);
  return text + "]";
}

Dims withoutDims(const Dims &dims, const std::vector<std::string> &names) {
  Dims kept;
  for (const Dim &dim : dims)
    if (std::find(names.begin(), names.end(), dim.name) == names.end())
      kept.push_back(dim);
  return kept;
}

bool Tensor::has(const std::string &name) const {
  for (const Dim &dim : dimsValue)
    if (dim.name == name)
      return true;
  return false;
}

const Dim &Tensor::dim(const std::string &name) const {
  for (const Dim &dim : dimsValue)
    if (dim.name == name)
      return dim;
  throw Error(fmt::format("tensor {} has no dimension '{}'", str(), name));
}

std::vector<std::string> Tensor::dimNames() const {
  std::vector<std::string> names;
  for (const Dim &dim : dimsValue)
    names.push_back(dim.name);
  return names;
}

std::string Tensor::str() const {
  return fmt::format("{} {}", formatDims(dimsValue), dtypeName(dtypeValue));
}

Tensor Tensor::operator+(const Tensor &rhs) const { return add(*this, rhs); }
Tensor Tensor::operator-(const Tensor &rhs) const { return sub(*this, rhs); }
Tensor Tensor::operator*(const Tensor &rhs) const { return mul(*this, rhs); }
Tensor Tensor::operator/(const Tensor &rhs) const { return div(*this, rhs); }
Tensor Tensor::operator-() const { return neg(*this); }

namespace {
/// A rank-0 constant of `like`'s model and element type.
Tensor scalarLike(const Tensor &like, double value) {
  return constant(Model::of(like), value, {}, like.dtype());
}
} // namespace

Tensor Tensor::operator+(double rhs) const {
  return add(*this, scalarLike(*this, rhs));
}
Tensor Tensor::operator-(double rhs) const {
  return sub(*this, scalarLike(*this, rhs));
}
Tensor Tensor::operator*(double rhs) const {
  return mul(*this, scalarLike(*this, rhs));
}
Tensor Tensor::operator/(double rhs) const {
  return div(*this, scalarLike(*this, rhs));
}
Tensor operator+(double lhs, const Tensor &rhs) {
  return add(scalarLike(rhs, lhs), rhs);
}
Tensor operator-(double lhs, const Tensor &rhs) {
  return sub(scalarLike(rhs, lhs), rhs);
}
Tensor operator*(double lhs, const Tensor &rhs) {
  return mul(scalarLike(rhs, lhs), rhs);
}
Tensor operator/(double lhs, const Tensor &rhs) {
  return div(scalarLike(rhs, lhs), rhs);
}

} // namespace tessel
