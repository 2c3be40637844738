//===- Initializers.h - Deterministic parameter initial values --*- C++ -*-===//
//
// The initial value of every parameter element is a pure function of
// (kind, scale, seed, flat global index), where the flat global index is the
// element's row-major position in the full, unsharded parameter. Any device
// that holds any shard, in any layout, therefore computes bit-identical
// weights without communication, and the evaluator agrees with the runtime.
//
// This header is self-contained (standard library only) and header-only so
// that the runtime can share it without linking the evaluator.
//
// Exact formula:
//   mix64(z): z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
//             z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
//             return z ^ (z >> 31);            (all arithmetic mod 2^64)
//   randomBits(seed, counter) =
//       mix64(mix64(seed) + (counter + 1) * 0x9E3779B97F4A7C15)
//     which is output number `counter` (from 0) of SplitMix64 started from
//     state mix64(seed).
//   unitUniform(seed, counter) = (randomBits(seed, counter) >> 11) * 2^-53,
//     in [0, 1).
//   zeros:   0
//   ones:    1                                 (scale is ignored)
//   uniform: scale * (2 * u - 1), u = unitUniform(seed, 2 * index),
//            in [-scale, scale)
//   normal:  scale * sqrt(-2 * log(1 - u1)) * cos(2 * pi * u2), with
//            u1 = unitUniform(seed, 2 * index),
//            u2 = unitUniform(seed, 2 * index + 1)  (Box-Muller; 1 - u1 is
//            in (0, 1] so the log is finite), standard deviation `scale`.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_REFERENCE_INITIALIZERS_H
#define TESSEL_REFERENCE_INITIALIZERS_H

#include <cmath>
#include <cstdint>

namespace tessel::ref {

enum class InitKind { Zeros, Ones, Uniform, Normal };

/// The SplitMix64 output finalizer.
inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Output number `counter` of SplitMix64 seeded with mix64(seed); a
/// counter-based generator, so any element can be drawn independently.
inline uint64_t randomBits(uint64_t seed, uint64_t counter) {
  return mix64(mix64(seed) + (counter + 1) * 0x9E3779B97F4A7C15ull);
}

/// A double in [0, 1) from the top 53 bits of randomBits.
inline double unitUniform(uint64_t seed, uint64_t counter) {
  return static_cast<double>(randomBits(seed, counter) >> 11) *
         (1.0 / 9007199254740992.0);
}

/// The initial value of the element at `flatGlobalIndex` (row-major in the
/// full parameter); see the formula at the top of this file.
inline double initialValue(InitKind kind, double scale, uint64_t seed,
                           uint64_t flatGlobalIndex) {
  switch (kind) {
  case InitKind::Zeros:
    return 0.0;
  case InitKind::Ones:
    return 1.0;
  case InitKind::Uniform:
    return scale * (2.0 * unitUniform(seed, 2 * flatGlobalIndex) - 1.0);
  case InitKind::Normal: {
    constexpr double twoPi = 6.283185307179586476925286766559;
    double u1 = unitUniform(seed, 2 * flatGlobalIndex);
    double u2 = unitUniform(seed, 2 * flatGlobalIndex + 1);
    return scale * std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(twoPi * u2);
  }
  }
  return 0.0;
}

} // namespace tessel::ref

#endif // TESSEL_REFERENCE_INITIALIZERS_H
