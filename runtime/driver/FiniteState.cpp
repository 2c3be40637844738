//===- FiniteState.cpp - Whether the trained state is finite --------------===//

#include "driver/FiniteState.h"

#include "driver/Agreement.h"
#include "driver/Metadata.h"
#include "executor/Buffers.h"

#include <fmt/format.h>

#include <cmath>

namespace tessel::driver {

std::optional<std::string>
firstNonFiniteElement(const std::vector<StateTensor> &tensors) {
  for (const StateTensor &tensor : tensors) {
    ref::ElementType type = tensor.spec->local.type;
    if (type != ref::ElementType::F32 && type != ref::ElementType::F16 &&
        type != ref::ElementType::BF16 && type != ref::ElementType::F64)
      continue;
    int64_t count = tensor.spec->local.numElements();
    for (int64_t i = 0; i < count; ++i) {
      double value = runtime::loadElement(type, tensor.local, i);
      if (std::isfinite(value))
        continue;
      return fmt::format(
          "'{}' holds {} (element {} of this rank's block)", tensor.spec->name,
          std::isnan(value) ? "nan" : fmt::format("{}", value), i);
    }
  }
  return std::nullopt;
}

std::string nonFiniteStep(double loss, std::optional<double> gradientNorm) {
  auto spell = [](double value) {
    return std::isnan(value) ? std::string("nan") : fmt::format("{}", value);
  };
  return std::isfinite(loss)
             ? "the gradient norm is " + spell(gradientNorm.value_or(0))
             : "the loss is " + spell(loss);
}

bool stateIsNotFinite(const std::vector<StateTensor> &tensors, int64_t rank,
                      const std::string &when, const std::string &then) {
  std::optional<std::string> element = firstNonFiniteElement(tensors);
  return anyRankFailed(
      rank, element ? std::optional<std::string>(fmt::format(
                          "{}: the trained state is not finite: {} on rank "
                          "{}; an update overflowed (a learning rate too "
                          "large?); {}",
                          when, *element, rank, then))
                    : std::nullopt);
}

} // namespace tessel::driver
