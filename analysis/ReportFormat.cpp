//===- ReportFormat.cpp - a cost report as text and as JSON ---------------===//

#include "analysis/CostReport.h"
#include "layouts/CheckedArithmetic.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

using ::tessel::analysis::CostReport;
using ::tessel::analysis::TensorCost;

namespace {

/// Spells a shape with its dimension names: "[batch:64, hidden:256]".
std::string shapeText(const std::vector<std::string> &dims,
                      const std::vector<int64_t> &shape) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < dims.size(); ++i)
    parts.push_back(fmt::format("{}:{}", dims[i], shape[i]));
  return fmt::format("[{}]", fmt::join(parts, ", "));
}

/// Spells a layout: "batch->data, hidden->[data,model]" or "replicated".
std::string layoutText(const TensorCost &tensor) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < tensor.dims.size(); ++i) {
    const std::vector<std::string> &axes = tensor.axes[i];
    if (axes.size() == 1)
      parts.push_back(fmt::format("{}->{}", tensor.dims[i], axes[0]));
    else if (!axes.empty())
      parts.push_back(
          fmt::format("{}->[{}]", tensor.dims[i], fmt::join(axes, ",")));
  }
  return parts.empty() ? "replicated"
                       : fmt::format("{}", fmt::join(parts, ", "));
}

/// Whether a count reached the 2^63 - 1 at which CostReport's sums and
/// products saturate instead of wrapping.
bool saturated(int64_t count) { return count == ::tessel::kSaturatedCount; }

/// Spells a byte count with a binary unit.
std::string bytesText(int64_t bytes) {
  if (saturated(bytes))
    return "2^63 - 1 bytes or more";
  if (bytes >= (int64_t(1) << 30))
    return fmt::format("{:.2f} GiB", bytes / double(int64_t(1) << 30));
  if (bytes >= (int64_t(1) << 20))
    return fmt::format("{:.2f} MiB", bytes / double(1 << 20));
  if (bytes >= 1024)
    return fmt::format("{:.2f} KiB", bytes / 1024.0);
  return fmt::format("{} B", bytes);
}

} // namespace

std::string tessel::analysis::formatText(const CostReport &report) {
  std::vector<std::string> axes;
  for (size_t i = 0; i < report.meshAxes.size(); ++i)
    axes.push_back(
        fmt::format("{}:{}", report.meshAxes[i], report.meshSizes[i]));
  std::string out =
      fmt::format("function @{} on mesh [{}] ({} ranks)\n\n", report.function,
                  fmt::join(axes, ", "), report.numRanks);
  size_t nameWidth = 6, shapeWidth = 12, layoutWidth = 6;
  for (const TensorCost &tensor : report.tensors) {
    nameWidth = std::max(nameWidth, tensor.name.size());
    shapeWidth =
        std::max(shapeWidth, shapeText(tensor.dims, tensor.globalShape).size());
    layoutWidth = std::max(layoutWidth, layoutText(tensor).size());
  }
  out +=
      fmt::format("{:<{}}  {:<10}  {:<{}}  {:<{}}  {:<{}}  {:>12}\n", "tensor",
                  nameWidth, "kind", "global shape", shapeWidth, "layout",
                  layoutWidth, "local shape", shapeWidth, "bytes/rank");
  for (const TensorCost &tensor : report.tensors)
    out += fmt::format("{:<{}}  {:<10}  {:<{}}  {:<{}}  {:<{}}  {:>12}\n",
                       tensor.name, nameWidth, tensor.kind,
                       shapeText(tensor.dims, tensor.globalShape), shapeWidth,
                       layoutText(tensor), layoutWidth,
                       shapeText(tensor.dims, tensor.localShape), shapeWidth,
                       tensor.bytesPerRank);
  out += "\ncollectives:";
  if (report.collectives.empty())
    out += " none\n";
  else
    out += "\n";
  for (const auto &collective : report.collectives)
    out += fmt::format("  {:<18} over [{}]  {} per rank\n", collective.kind,
                       fmt::join(collective.axes, ", "),
                       bytesText(collective.bytesPerRank));
  out += fmt::format("\nper rank:\n"
                     "  parameters   {}\n"
                     "  opt. state   {}\n"
                     "  inputs       {}\n"
                     "  activations  {}\n"
                     "  peak memory  {}\n",
                     bytesText(report.parameterBytesPerRank),
                     bytesText(report.stateBytesPerRank),
                     bytesText(report.inputBytesPerRank),
                     bytesText(report.activationBytesPerRank),
                     bytesText(memoryBytesPerRank(report)));
  if (report.runtime)
    out += fmt::format("    step buffers  {} (liveness peak {})\n"
                       "    constants     {}\n"
                       "    scratch       {}\n"
                       "    data staging  {}\n"
                       "    data set      {} loading, {} after\n"
                       "    driver        {}\n",
                       bytesText(report.runtime->heldBytes),
                       bytesText(report.runtime->livePeakBytes),
                       bytesText(report.runtime->constantBytes),
                       bytesText(report.runtime->scratchBytes),
                       bytesText(report.runtime->stagingBytes),
                       bytesText(report.dataLoadBytes),
                       bytesText(report.dataResidentBytes),
                       bytesText(report.driverBytes));
  out += fmt::format("  comm / step  {}\n"
                     "  FLOPs        {}\n",
                     bytesText(report.commBytesPerRank),
                     saturated(report.flopsPerRank)
                         ? std::string("2^63 - 1 or more")
                         : std::to_string(report.flopsPerRank));
  return out;
}

std::string tessel::analysis::formatJson(const CostReport &report) {
  nlohmann::ordered_json json;
  json["function"] = report.function;
  nlohmann::ordered_json mesh = nlohmann::ordered_json::object();
  for (size_t i = 0; i < report.meshAxes.size(); ++i)
    mesh[report.meshAxes[i]] = report.meshSizes[i];
  json["mesh"] = mesh;
  json["ranks"] = report.numRanks;
  json["tensors"] = nlohmann::ordered_json::array();
  for (const TensorCost &tensor : report.tensors) {
    nlohmann::ordered_json layout = nlohmann::ordered_json::object();
    for (size_t i = 0; i < tensor.dims.size(); ++i)
      if (!tensor.axes[i].empty())
        layout[tensor.dims[i]] = tensor.axes[i];
    json["tensors"].push_back({{"name", tensor.name},
                               {"kind", tensor.kind},
                               {"dims", tensor.dims},
                               {"global_shape", tensor.globalShape},
                               {"element_type", tensor.elementType},
                               {"layout", layout},
                               {"local_shape", tensor.localShape},
                               {"bytes_per_rank", tensor.bytesPerRank}});
  }
  json["collectives"] = nlohmann::ordered_json::array();
  for (const auto &collective : report.collectives)
    json["collectives"].push_back(
        {{"kind", collective.kind},
         {"axes", collective.axes},
         {"bytes_per_rank", collective.bytesPerRank}});
  json["totals"] = {
      {"parameter_bytes_per_rank", report.parameterBytesPerRank},
      {"optimizer_state_bytes_per_rank", report.stateBytesPerRank},
      {"input_bytes_per_rank", report.inputBytesPerRank},
      {"activation_bytes_per_rank", report.activationBytesPerRank},
      {"memory_bytes_per_rank", memoryBytesPerRank(report)},
      {"comm_bytes_per_rank", report.commBytesPerRank},
      {"flops_per_rank", report.flopsPerRank}};
  if (report.runtime)
    json["memory"] = {
        {"live_values_peak_bytes", report.peakBytesPerRank},
        {"step_buffer_bytes", report.runtime->heldBytes},
        {"step_liveness_peak_bytes", report.runtime->livePeakBytes},
        {"argument_bytes", report.runtime->argumentBytes},
        {"constant_bytes", report.runtime->constantBytes},
        {"kernel_scratch_bytes", report.runtime->scratchBytes},
        {"data_staging_bytes", report.runtime->stagingBytes},
        {"data_load_bytes", report.dataLoadBytes},
        {"data_resident_bytes", report.dataResidentBytes},
        {"driver_bytes", report.driverBytes}};
  return json.dump(2) + "\n";
}
