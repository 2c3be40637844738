//===- CarriedState.cpp - State decode passes to its next call ---------===//

#include "driver/CarriedState.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

namespace tessel::driver {

std::string describeLayout(const ValueSpec &value) {
  std::vector<std::string> splits;
  for (size_t d = 0; d < value.axes.size() && d < value.global.dims.size(); ++d)
    if (!value.axes[d].empty())
      splits.push_back(fmt::format("{} over {}", value.global.dims[d],
                                   fmt::join(value.axes[d], " x ")));
  if (splits.empty())
    return value.global.str() + ", replicated";
  return fmt::format("{}, {}", value.global.str(), fmt::join(splits, ", "));
}

std::optional<std::string> checkCarriedState(const ValueSpec &taken,
                                             const ValueSpec &returned) {
  // An argument without axes lists none per dim; compare dim by dim with
  // missing entries as replicated.
  auto axesOf = [](const ValueSpec &value, size_t d) {
    return d < value.axes.size() ? value.axes[d] : layout::AxisList{};
  };
  bool same = returned.global.dims == taken.global.dims &&
              returned.global.shape == taken.global.shape &&
              returned.global.type == taken.global.type;
  for (size_t d = 0; same && d < taken.global.dims.size(); ++d)
    same = axesOf(returned, d) == axesOf(taken, d);
  if (same)
    return std::nullopt;
  return fmt::format("decode returns '{}' as {} but takes it as {}; state "
                     "carried from call to call must keep its dims, type "
                     "and layout",
                     taken.name, describeLayout(returned),
                     describeLayout(taken));
}

} // namespace tessel::driver
