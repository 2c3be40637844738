//===- TensorTestUtils.h - Helpers for the reference kernel tests -*- C++
//-*-===//

#ifndef TESSEL_TESTS_UNIT_TENSORTESTUTILS_H
#define TESSEL_TESTS_UNIT_TENSORTESTUTILS_H

#include "reference/Tensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

namespace tessel::ref::testing {

inline TensorSpec spec(std::vector<std::string> dims,
                       std::vector<int64_t> shape,
                       ElementType type = ElementType::F64) {
  return TensorSpec{std::move(dims), std::move(shape), type};
}

inline Tensor tensor(std::vector<std::string> dims, std::vector<int64_t> shape,
                     std::vector<double> values,
                     ElementType type = ElementType::F64) {
  return Tensor(spec(std::move(dims), std::move(shape), type),
                std::move(values));
}

/// Succeeds when `actual` has exactly the given dims and shape and every
/// value is within `tolerance` (relative to the larger magnitude, or
/// absolute below 1) of the expected one; NaN matches NaN and infinities
/// must match exactly.
inline ::testing::AssertionResult
hasValues(const Tensor &actual, const std::vector<std::string> &dims,
          const std::vector<int64_t> &shape,
          const std::vector<double> &expected, double tolerance = 1e-12) {
  if (actual.spec.dims != dims || actual.spec.shape != shape)
    return ::testing::AssertionFailure() << "dims or shape differ";
  if (actual.data.size() != expected.size())
    return ::testing::AssertionFailure()
           << "got " << actual.data.size() << " values, expected "
           << expected.size();
  for (size_t i = 0; i < expected.size(); ++i) {
    double got = actual.data[i], want = expected[i];
    bool same;
    if (std::isnan(want) || std::isnan(got))
      same = std::isnan(want) && std::isnan(got);
    else if (std::isinf(want) || std::isinf(got))
      same = got == want;
    else
      same =
          std::fabs(got - want) <=
          tolerance * std::max(1.0, std::max(std::fabs(got), std::fabs(want)));
    if (!same) {
      std::ostringstream message;
      message.precision(17);
      message << "value #" << i << " is " << got << ", expected " << want;
      return ::testing::AssertionFailure() << message.str();
    }
  }
  return ::testing::AssertionSuccess();
}

} // namespace tessel::ref::testing

#endif // TESSEL_TESTS_UNIT_TENSORTESTUTILS_H
