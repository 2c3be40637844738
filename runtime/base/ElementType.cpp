//===- ElementType.cpp - Element types: sizes, names, values --------------===//

#include "base/ElementType.h"

#include "base/Float16.h"
#include "base/HalfFloatBlocks.h"

#include <algorithm>
#include <cassert>

namespace tessel::runtime {

bool isValidElementType(tessel_element_type_t type) {
  switch (type) {
  case TESSEL_ELEMENT_TYPE_F32:
  case TESSEL_ELEMENT_TYPE_F64:
  case TESSEL_ELEMENT_TYPE_BF16:
  case TESSEL_ELEMENT_TYPE_F16:
  case TESSEL_ELEMENT_TYPE_I32:
  case TESSEL_ELEMENT_TYPE_I64:
    return true;
  }
  return false;
}

const char *elementTypeName(tessel_element_type_t type) {
  switch (type) {
  case TESSEL_ELEMENT_TYPE_F32:
    return "f32";
  case TESSEL_ELEMENT_TYPE_F64:
    return "f64";
  case TESSEL_ELEMENT_TYPE_BF16:
    return "bf16";
  case TESSEL_ELEMENT_TYPE_F16:
    return "f16";
  case TESSEL_ELEMENT_TYPE_I32:
    return "i32";
  case TESSEL_ELEMENT_TYPE_I64:
    return "i64";
  }
  return "<invalid element type>";
}

bool isFloating(tessel_element_type_t type) {
  return type == TESSEL_ELEMENT_TYPE_F32 || type == TESSEL_ELEMENT_TYPE_F64 ||
         isHalfFloat(type);
}

bool isHalfFloat(tessel_element_type_t type) {
  return type == TESSEL_ELEMENT_TYPE_BF16 || type == TESSEL_ELEMENT_TYPE_F16;
}

template <typename T>
static void fillTyped(void *data, int64_t count, T value) {
  std::fill_n(static_cast<T *>(data), count, value);
}

void fillWith(void *data, int64_t count, tessel_element_type_t type,
              double value) {
  switch (type) {
  case TESSEL_ELEMENT_TYPE_F32:
    return fillTyped(data, count, static_cast<float>(value));
  case TESSEL_ELEMENT_TYPE_F64:
    return fillTyped(data, count, value);
  case TESSEL_ELEMENT_TYPE_BF16:
    return fillTyped(data, count, floatToBf16(static_cast<float>(value)));
  case TESSEL_ELEMENT_TYPE_F16:
    return fillTyped(data, count, floatToF16(static_cast<float>(value)));
  case TESSEL_ELEMENT_TYPE_I32:
    return fillTyped(data, count, static_cast<int32_t>(value));
  case TESSEL_ELEMENT_TYPE_I64:
    return fillTyped(data, count, static_cast<int64_t>(value));
  }
}

void widenHalfToFloat(const void *source, int64_t count,
                      tessel_element_type_t type, float *destination) {
  const auto *bits = static_cast<const uint16_t *>(source);
  (type == TESSEL_ELEMENT_TYPE_BF16 ? widenBf16 : widenF16)(bits, destination,
                                                            count);
}

void narrowFloatToHalf(const float *source, int64_t count,
                       tessel_element_type_t type, void *destination) {
  auto *bits = static_cast<uint16_t *>(destination);
  (type == TESSEL_ELEMENT_TYPE_BF16 ? narrowToBf16 : narrowToF16)(source, bits,
                                                                  count);
}

} // namespace tessel::runtime
