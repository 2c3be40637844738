//===- Buffers.h - Typed buffers to and from reference tensors --*- C++ -*-===//
//
// Compiled programs hold tensors as dense row-major buffers of their element
// type; the reference kernels hold doubles. These convert between the two.
// Every element type's values are exactly representable as doubles, so
// loading is exact, and storing rounds once with ref::roundToType, as the
// reference evaluator does.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_BUFFERS_H
#define TESSEL_RUNTIME_EXECUTOR_BUFFERS_H

#include "reference/Tensor.h"
#include "tessel/runtime/types.h"

#include <cstddef>
#include <optional>

namespace tessel::runtime {

struct TensorType;

/// Bytes per element: i1 is stored as one byte, bf16 and f16 as two.
size_t elementBytes(ref::ElementType type);

/// Element `index` of a buffer of `type`, as a double.
double loadElement(ref::ElementType type, const void *data, int64_t index);
/// Rounds `value` to `type` and stores it as element `index`.
void storeElement(ref::ElementType type, void *data, int64_t index,
                  double value);

/// The communicator's name for an element type; none for i1, which it does
/// not move.
std::optional<tessel_element_type_t> commElementType(ref::ElementType type);

/// Reads a buffer laid out as `type` into a reference tensor.
ref::Tensor loadTensor(const TensorType &type, const void *data);

/// Writes `tensor` into a buffer laid out as `type`: the same dims, possibly
/// in another order (kernels that keep their input's order), and the same
/// sizes. An OpError when they differ.
void storeTensor(const ref::Tensor &tensor, const TensorType &type, void *data);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_BUFFERS_H
