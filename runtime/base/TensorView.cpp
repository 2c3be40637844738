//===- TensorView.cpp - Checked views of tensor descriptors ---------------===//

#include "base/TensorView.h"

#include "base/ElementType.h"
#include "base/Status.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <limits>

namespace tessel::runtime {

std::string shapeString(const Shape &shape) {
  return fmt::format("[{}]", fmt::join(shape, ", "));
}

std::string describe(const TensorView &tensor) {
  return fmt::format("{} x {}", shapeString(tensor.shape),
                     elementTypeName(tensor.type));
}

tessel_status_t viewOf(const tessel_tensor_t *descriptor, const char *op,
                       const char *role, TensorView &out) {
  if (!descriptor)
    return failf(TESSEL_STATUS_INVALID_ARGUMENT, "{}: the {} is NULL", op,
                 role);
  if (!isValidElementType(descriptor->element_type))
    return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                 "{}: the {} has unknown element type {}", op, role,
                 static_cast<int>(descriptor->element_type));
  if (descriptor->rank < 0 || (descriptor->rank > 0 && !descriptor->shape))
    return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                 "{}: the {} has rank {} but {}", op, role, descriptor->rank,
                 descriptor->rank < 0 ? "a rank cannot be negative"
                                      : "no shape");
  out.data = descriptor->data;
  out.type = descriptor->element_type;
  out.shape.assign(descriptor->shape, descriptor->shape + descriptor->rank);
  // Sizes are checked one by one so that the element count cannot overflow,
  // and the bytes of the widest element type stay addressable.
  constexpr int64_t kMostElements =
      std::numeric_limits<int64_t>::max() / int64_t(sizeof(double));
  int64_t count = 1;
  for (int64_t size : out.shape) {
    if (size < 0)
      return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                   "{}: the {} has shape {}; sizes cannot be negative", op,
                   role, shapeString(out.shape));
    if (__builtin_mul_overflow(count, size, &count) || count > kMostElements)
      return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                   "{}: the {} of shape {} is too large to address", op, role,
                   shapeString(out.shape));
  }
  if (count > 0 && !out.data)
    return failf(TESSEL_STATUS_INVALID_ARGUMENT, "{}: the {} ({}) has no data",
                 op, role, describe(out));
  return TESSEL_STATUS_OK;
}

tessel_status_t notADim(const TensorView &tensor, int32_t dim, const char *op,
                        const char *role) {
  return failf(TESSEL_STATUS_INVALID_ARGUMENT,
               "{}: {} {} is not a dim of the input {} (rank {})", op, role,
               dim, describe(tensor), tensor.rank());
}

tessel_status_t checkOutput(const TensorView &input, const TensorView &output,
                            const Shape &expectedShape, const char *op,
                            bool allowInPlace) {
  if (output.type != input.type || output.shape != expectedShape)
    return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                 "{}: the output is {} but the input {} gives {} x {}", op,
                 describe(output), describe(input), shapeString(expectedShape),
                 elementTypeName(input.type));
  if (allowInPlace && output.data == input.data)
    return TESSEL_STATUS_OK;
  auto begin = [](const TensorView &t) {
    return reinterpret_cast<uintptr_t>(t.data);
  };
  if (input.numBytes() > 0 && output.numBytes() > 0 &&
      begin(input) < begin(output) + output.numBytes() &&
      begin(output) < begin(input) + input.numBytes())
    return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                 "{}: the output overlaps the input{}", op,
                 allowInPlace ? " (only an output that is exactly the input "
                                "may share its memory)"
                              : "");
  return TESSEL_STATUS_OK;
}

} // namespace tessel::runtime
