//===- Buffers.cpp - Typed buffers to and from reference tensors ----------===//

#include "executor/Buffers.h"

#include "base/Float16.h"
#include "reference/Shape.h"
#include "executor/Descriptor.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace tessel::runtime {

size_t elementBytes(ref::ElementType type) {
  switch (type) {
  case ref::ElementType::F64:
  case ref::ElementType::I64:
    return 8;
  case ref::ElementType::F32:
  case ref::ElementType::I32:
    return 4;
  case ref::ElementType::F16:
  case ref::ElementType::BF16:
    return 2;
  case ref::ElementType::I1:
    return 1;
  }
  return 1;
}

double loadElement(ref::ElementType type, const void *data, int64_t index) {
  switch (type) {
  case ref::ElementType::F32:
    return static_cast<const float *>(data)[index];
  case ref::ElementType::F64:
    return static_cast<const double *>(data)[index];
  case ref::ElementType::BF16:
    return bf16ToFloat(static_cast<const uint16_t *>(data)[index]);
  case ref::ElementType::F16:
    return f16ToFloat(static_cast<const uint16_t *>(data)[index]);
  case ref::ElementType::I1:
    return static_cast<const uint8_t *>(data)[index] != 0 ? 1.0 : 0.0;
  case ref::ElementType::I32:
    return static_cast<const int32_t *>(data)[index];
  case ref::ElementType::I64:
    return static_cast<double>(static_cast<const int64_t *>(data)[index]);
  }
  return 0.0;
}

void storeElement(ref::ElementType type, void *data, int64_t index,
                  double value) {
  // f32, by far the most common, is a conversion to float: what
  // roundToType does for it, without the general rounding's cost (a batch
  // of images goes through here element by element).
  if (type == ref::ElementType::F32) {
    static_cast<float *>(data)[index] = static_cast<float>(value);
    return;
  }
  // After roundToType the value is exactly representable in the type, so
  // the narrowing conversions below are exact (bf16 and f16 go through an
  // f32 that holds the value exactly).
  double rounded = ref::roundToType(value, type);
  switch (type) {
  case ref::ElementType::F32:
    static_cast<float *>(data)[index] = static_cast<float>(rounded);
    return;
  case ref::ElementType::F64:
    static_cast<double *>(data)[index] = rounded;
    return;
  case ref::ElementType::BF16:
    static_cast<uint16_t *>(data)[index] =
        floatToBf16(static_cast<float>(rounded));
    return;
  case ref::ElementType::F16:
    static_cast<uint16_t *>(data)[index] =
        floatToF16(static_cast<float>(rounded));
    return;
  case ref::ElementType::I1:
    static_cast<uint8_t *>(data)[index] = rounded != 0.0 ? 1 : 0;
    return;
  case ref::ElementType::I32:
    static_cast<int32_t *>(data)[index] = static_cast<int32_t>(rounded);
    return;
  case ref::ElementType::I64:
    static_cast<int64_t *>(data)[index] = static_cast<int64_t>(rounded);
    return;
  }
}

std::optional<tessel_element_type_t> commElementType(ref::ElementType type) {
  switch (type) {
  case ref::ElementType::F32:
    return TESSEL_ELEMENT_TYPE_F32;
  case ref::ElementType::F64:
    return TESSEL_ELEMENT_TYPE_F64;
  case ref::ElementType::BF16:
    return TESSEL_ELEMENT_TYPE_BF16;
  case ref::ElementType::F16:
    return TESSEL_ELEMENT_TYPE_F16;
  case ref::ElementType::I32:
    return TESSEL_ELEMENT_TYPE_I32;
  case ref::ElementType::I64:
    return TESSEL_ELEMENT_TYPE_I64;
  case ref::ElementType::I1:
    return std::nullopt;
  }
  return std::nullopt;
}

ref::Tensor loadTensor(const TensorType &type, const void *data) {
  // Built field by field: the values are already of the type, so the
  // rounding constructor would only cost time.
  ref::Tensor tensor;
  tensor.spec = type.spec();
  int64_t count = type.numElements();
  tensor.data.resize(count);
  if (type.type == ref::ElementType::F32) {
    const float *values = static_cast<const float *>(data);
    std::copy(values, values + count, tensor.data.begin());
  } else {
    for (int64_t i = 0; i < count; ++i)
      tensor.data[i] = loadElement(type.type, data, i);
  }
  return tensor;
}

void storeTensor(const ref::Tensor &tensor, const TensorType &type,
                 void *data) {
  const ref::Tensor *source = &tensor;
  ref::Tensor reordered;
  if (tensor.spec.dims != type.dims) {
    std::vector<std::string> sortedHave = tensor.spec.dims,
                             sortedWant = type.dims;
    std::sort(sortedHave.begin(), sortedHave.end());
    std::sort(sortedWant.begin(), sortedWant.end());
    if (sortedHave != sortedWant)
      throw OpError(
          fmt::format("the kernel computed dims that differ from the result {}",
                      type.str()));
    ref::TensorSpec spec = type.spec();
    spec.type = tensor.spec.type;
    for (int i = 0; i < type.rank(); ++i)
      spec.shape[i] = tensor.spec.dimSize(type.dims[i]);
    reordered = ref::transpose(tensor, spec);
    source = &reordered;
  }
  if (source->spec.shape != type.shape)
    throw OpError(fmt::format(
        "the kernel computed a shape that differs from the result {}",
        type.str()));
  int64_t count = type.numElements();
  if (type.type == ref::ElementType::F32) {
    float *values = static_cast<float *>(data);
    for (int64_t i = 0; i < count; ++i)
      values[i] = static_cast<float>(source->data[i]);
    return;
  }
  for (int64_t i = 0; i < count; ++i)
    storeElement(type.type, data, i, source->data[i]);
}

} // namespace tessel::runtime
