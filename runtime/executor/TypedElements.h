//===- TypedElements.h - Buffer elements in their own C++ types -*- C++ -*-===//
//
// The loops of TypedElementwise.cpp and FastReduction.cpp read and write
// each element type in the C++ type that holds it in a buffer, and compute
// in double as the reference kernels do: `load` gives the reference's
// value exactly (loadElement) and `store` rounds once as ref::roundToType
// (storeElement), so that the loops give the reference's results.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_TYPEDELEMENTS_H
#define TESSEL_RUNTIME_EXECUTOR_TYPEDELEMENTS_H

#include "executor/Op.h"

#include "reference/Tensor.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>

namespace tessel::runtime {

/// A buffer's C++ element type, as a value for a generic lambda.
template <typename T> struct BufferType { using type = T; };

/// Calls `visit(BufferType<T>{})` with T the C++ type that holds `type`'s
/// elements in a buffer (i1 as one byte, 0 or 1); nothing for f16 and bf16,
/// which have no such type.
template <typename Visit>
std::optional<Kernel> byType(ref::ElementType type, Visit &&visit) {
  switch (type) {
  case ref::ElementType::F32:
    return visit(BufferType<float>{});
  case ref::ElementType::F64:
    return visit(BufferType<double>{});
  case ref::ElementType::I1:
    return visit(BufferType<uint8_t>{});
  case ref::ElementType::I32:
    return visit(BufferType<int32_t>{});
  case ref::ElementType::I64:
    return visit(BufferType<int64_t>{});
  case ref::ElementType::F16:
  case ref::ElementType::BF16:
    return std::nullopt;
  }
  return std::nullopt;
}

/// An element as the reference kernels see it, exactly (loadElement).
template <typename T> inline double loadValue(T value) {
  if constexpr (std::is_same_v<T, uint8_t>)
    return value != 0 ? 1.0 : 0.0;
  else
    return static_cast<double>(value);
}

/// `value` rounded to T's element type as ref::roundToType rounds it
/// (storeElement): integers wrap (i32) or saturate (i64), i1 is whether
/// the value is neither 0 nor NaN.
template <typename T> inline T storeValue(double value) {
  if constexpr (std::is_same_v<T, float>)
    return static_cast<float>(value);
  else if constexpr (std::is_same_v<T, double>)
    return value;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return value != 0.0 && !std::isnan(value) ? 1 : 0;
  else if constexpr (std::is_same_v<T, int32_t>)
    return static_cast<int32_t>(ref::roundToType(value, ref::ElementType::I32));
  else
    return static_cast<int64_t>(ref::roundToType(value, ref::ElementType::I64));
}

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_TYPEDELEMENTS_H
