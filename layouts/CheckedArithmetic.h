//===- CheckedArithmetic.h - sizes and counts that do not wrap --*- C++ -*-===//
//
// Sizes, byte counts and FLOP counts are int64_t products and sums of tensor
// and mesh sizes, and a signed overflow is undefined behaviour, not a wrong
// number. Code that must refuse an overflow uses checkedMul / checkedAdd
// (nullopt on overflow) and names what overflowed; code that only reports a
// count (tessel explain) saturates at kSaturatedCount, which it prints as
// "2^63 - 1 or more". No MLIR dependency: the runtime shares it.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_LAYOUTS_CHECKEDARITHMETIC_H
#define TESSEL_LAYOUTS_CHECKEDARITHMETIC_H

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>

namespace tessel {

/// The largest count; a saturated count means "this many or more".
constexpr int64_t kSaturatedCount = std::numeric_limits<int64_t>::max();

/// a * b, or nullopt if it does not fit int64_t.
inline std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t product;
  if (__builtin_mul_overflow(a, b, &product))
    return std::nullopt;
  return product;
}

/// a + b, or nullopt if it does not fit int64_t.
inline std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
  int64_t sum;
  if (__builtin_add_overflow(a, b, &sum))
    return std::nullopt;
  return sum;
}

/// The product of `sizes`, or nullopt if it does not fit int64_t.
template <typename Range>
std::optional<int64_t> checkedProduct(const Range &sizes) {
  int64_t product = 1;
  for (int64_t size : sizes)
    if (__builtin_mul_overflow(product, size, &product))
      return std::nullopt;
  return product;
}

/// For non-negative counts: a * b, or kSaturatedCount if it does not fit.
inline int64_t saturatingMul(int64_t a, int64_t b) {
  return checkedMul(a, b).value_or(kSaturatedCount);
}

template <typename... Counts>
int64_t saturatingMul(int64_t a, int64_t b, Counts... rest) {
  return saturatingMul(saturatingMul(a, b), rest...);
}

/// For non-negative counts: a + b, or kSaturatedCount if it does not fit.
/// A saturated count stays saturated.
inline int64_t saturatingAdd(int64_t a, int64_t b) {
  return checkedAdd(a, b).value_or(kSaturatedCount);
}

/// For non-negative counts: a - b, except that a saturated count (an
/// unknown amount past the limit) stays saturated.
inline int64_t saturatingSub(int64_t a, int64_t b) {
  return a == kSaturatedCount ? kSaturatedCount : a - b;
}

/// For a non-negative count `a` and a `delta` of either sign: a + delta,
/// saturating above and never below 0.
inline int64_t saturatingAdjust(int64_t a, int64_t delta) {
  if (delta >= 0)
    return saturatingAdd(a, delta);
  return a == kSaturatedCount ? a : std::max<int64_t>(0, a + delta);
}

/// For a >= 0 and b > 0: ceil(a / b), computed without a + b - 1, which
/// passes int64_t for a dimension near 2^63 - 1.
inline int64_t ceilDiv(int64_t a, int64_t b) {
  return a / b + (a % b != 0 ? 1 : 0);
}

} // namespace tessel

#endif // TESSEL_LAYOUTS_CHECKEDARITHMETIC_H
