//===- Tensor.h - named dimensions and tensors of the front end -*- C++ -*-===//
//
// The values a model is written with: a `Dim` is a named extent, a `Tensor`
// a value of the model being built, with named dimensions and an element
// type. These headers do not expose MLIR: a front-end user needs only them
// and libTesselFrontend.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_FRONTEND_TENSOR_H
#define TESSEL_FRONTEND_TENSOR_H

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessel {

class Model;
struct ModelState;

/// A mistake in a model: a dimension that does not match, a contraction
/// over a dimension no operand has, a tensor used outside its function.
/// The message names the op and the dimensions at fault.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Element types a tessel tensor may hold.
enum class DType { F32, F16, BF16, F64, I1, I32, I64 };

/// "f32", "bf16", "i1", ...
const char *dtypeName(DType type);
/// The inverse of dtypeName; throws Error naming `name` when it is none.
DType parseDType(const std::string &name);

/// A named dimension: `Dim("batch", 64)`. Two dims are the same dimension
/// when their names are; a size that differs between two tensors that
/// share a name is an error at the op that meets both.
struct Dim {
  Dim(std::string name, int64_t size);

  std::string name;
  int64_t size;

  /// The same extent under another name (attention's `seq` -> `key`).
  Dim renamed(std::string newName) const { return Dim(std::move(newName), size); }
  bool operator==(const Dim &other) const {
    return name == other.name && size == other.size;
  }
  bool operator!=(const Dim &other) const { return !(*this == other); }
};

using Dims = std::vector<Dim>;

/// "[batch:64, hidden:256]".
std::string formatDims(const Dims &dims);

/// `dims` without the ones named in `names`, in their order.
Dims withoutDims(const Dims &dims, const std::vector<std::string> &names);

/// A value of a model under construction. Copies refer to the same value.
/// A tensor belongs to the function it was made in: a layer receives its
/// inputs as arguments, never by reaching into its caller.
class Tensor {
public:
  Tensor() = default;

  const Dims &dims() const { return dimsValue; }
  DType dtype() const { return dtypeValue; }
  int64_t rank() const { return static_cast<int64_t>(dimsValue.size()); }
  /// Whether a dimension of this name exists.
  bool has(const std::string &name) const;
  /// The dimension of this name; throws Error when there is none.
  const Dim &dim(const std::string &name) const;
  /// The names of the dimensions, in order.
  std::vector<std::string> dimNames() const;
  /// "!tessel.tensor<[batch:64, hidden:256], f32>"-like description.
  std::string str() const;
  bool valid() const { return made && !state.expired(); }

  // Element-wise arithmetic, broadcasting by name (ops.h has the rest).
  Tensor operator+(const Tensor &rhs) const;
  Tensor operator-(const Tensor &rhs) const;
  Tensor operator*(const Tensor &rhs) const;
  Tensor operator/(const Tensor &rhs) const;
  Tensor operator-() const;
  Tensor operator+(double rhs) const;
  Tensor operator-(double rhs) const;
  Tensor operator*(double rhs) const;
  Tensor operator/(double rhs) const;

  /// The model and the opaque MLIR value behind this tensor (for the
  /// implementation and the bindings). The model is null once it has been
  /// destroyed: the tensor is then unusable, and says so.
  ModelState *modelState() const { return state.lock().get(); }
  bool orphaned() const { return made && state.expired(); }
  void *opaqueValue() const { return value; }
  /// The function body the tensor belongs to, as a number no other body of
  /// the model ever gets (not an address, which a later body could reuse).
  uint64_t owner() const { return ownerBody; }

  Tensor(std::weak_ptr<ModelState> state, void *value, uint64_t ownerBody,
         Dims dims, DType dtype)
      : state(std::move(state)), value(value), ownerBody(ownerBody),
        made(true), dimsValue(std::move(dims)), dtypeValue(dtype) {}

private:
  std::weak_ptr<ModelState> state;
  void *value = nullptr;
  uint64_t ownerBody = 0;
  bool made = false;
  Dims dimsValue;
  DType dtypeValue = DType::F32;
};

Tensor operator+(double lhs, const Tensor &rhs);
Tensor operator-(double lhs, const Tensor &rhs);
Tensor operator*(double lhs, const Tensor &rhs);
Tensor operator/(double lhs, const Tensor &rhs);

} // namespace tessel

#endif // TESSEL_FRONTEND_TENSOR_H
