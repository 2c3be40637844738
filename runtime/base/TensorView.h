//===- TensorView.h - Checked views of tensor descriptors -------*- C++ -*-===//
//
// The C descriptors (tessel_tensor_t) come from generated code or from a
// person's C program; each is checked once on entry and turned into a view
// that the collectives can trust.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_BASE_TENSORVIEW_H
#define TESSEL_RUNTIME_BASE_TENSORVIEW_H

#include "base/ElementType.h"
#include "tessel/runtime/types.h"

#include <boost/container/small_vector.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tessel::runtime {

/// A tensor's sizes, inline up to eight dims (longer shapes go to the
/// heap). A collective makes views and the shapes it expects on every call;
/// as heap vectors they made a 4 KiB all_gather between two ranks about 7%
/// slower than the bare MPI call.
using Shape = boost::container::small_vector<int64_t, 8>;

/// The product of the sizes.
inline int64_t elementCount(const Shape &shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

struct TensorView {
  void *data = nullptr;
  tessel_element_type_t type = TESSEL_ELEMENT_TYPE_F32;
  Shape shape;

  int64_t numElements() const { return elementCount(shape); }
  size_t elementBytes() const { return elementSize(type); }
  size_t numBytes() const { return size_t(numElements()) * elementBytes(); }
  unsigned rank() const { return static_cast<unsigned>(shape.size()); }
  /// The sizes as a vector, for code that plans with std::vector shapes.
  std::vector<int64_t> shapeVector() const {
    return {shape.begin(), shape.end()};
  }
};

/// "[4, 8, 2] x f32"
std::string describe(const TensorView &tensor);
std::string shapeString(const Shape &shape);

/// Checks a descriptor (non-null, known type, sizes >= 0, data present when
/// there are elements) and makes a view of it. `op` and `role` ("input",
/// "output") name it in messages.
tessel_status_t viewOf(const tessel_tensor_t *descriptor, const char *op,
                       const char *role, TensorView &out);

/// Checks that `dim` is a dim of `tensor` (inline, the message out of
/// line: every collective call passes here).
tessel_status_t notADim(const TensorView &tensor, int32_t dim, const char *op,
                        const char *role);
inline tessel_status_t checkDim(const TensorView &tensor, int32_t dim,
                                const char *op, const char *role) {
  if (dim < 0 || unsigned(dim) >= tensor.rank())
    return notADim(tensor, dim, op, role);
  return TESSEL_STATUS_OK;
}

/// Checks that `output` has the input's element type and exactly
/// `expectedShape`, and that it does not overlap the input unless
/// `allowInPlace` and it is the very same buffer.
tessel_status_t checkOutput(const TensorView &input, const TensorView &output,
                            const Shape &expectedShape, const char *op,
                            bool allowInPlace = false);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_BASE_TENSORVIEW_H
