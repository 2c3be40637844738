//===- ElementType.h - Element types: sizes, names, values ------*- C++ -*-===//

#ifndef TESSEL_RUNTIME_BASE_ELEMENTTYPE_H
#define TESSEL_RUNTIME_BASE_ELEMENTTYPE_H

#include "tessel/runtime/types.h"

#include <cassert>
#include <cstddef>
#include <cstdint>

namespace tessel::runtime {

bool isValidElementType(tessel_element_type_t type);
/// "f32", "bf16", ...
const char *elementTypeName(tessel_element_type_t type);
/// Inline: every collective call asks it a few times.
inline size_t elementSize(tessel_element_type_t type) {
  switch (type) {
  case TESSEL_ELEMENT_TYPE_BF16:
  case TESSEL_ELEMENT_TYPE_F16:
    return 2;
  case TESSEL_ELEMENT_TYPE_F32:
  case TESSEL_ELEMENT_TYPE_I32:
    return 4;
  case TESSEL_ELEMENT_TYPE_F64:
  case TESSEL_ELEMENT_TYPE_I64:
    return 8;
  }
  assert(false && "invalid element type");
  return 0;
}
bool isFloating(tessel_element_type_t type);
/// bf16 or f16, which MPI cannot do arithmetic on.
bool isHalfFloat(tessel_element_type_t type);

/// Sets `count` elements at `data` to `value` converted to the type.
void fillWith(void *data, int64_t count, tessel_element_type_t type,
              double value);

/// Converts `count` bf16 or f16 elements to f32, and back (rounding to
/// nearest even), sixteen elements an instruction where the CPU has
/// AVX-512 (HalfFloatBlocks.h).
void widenHalfToFloat(const void *source, int64_t count,
                      tessel_element_type_t type, float *destination);
void narrowFloatToHalf(const float *source, int64_t count,
                       tessel_element_type_t type, void *destination);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_BASE_ELEMENTTYPE_H
