//===- ReportFormat.cpp - a cost report as text and as JSON ---------------===//
//
// The reports of tessel explain: a function's CostReport, and a pipelined
// step's PipelineCost.
//
//===----------------------------------------------------------------------===//

#include "analysis/CostReport.h"
#include "analysis/PipelineCost.h"
#include "analysis/StepTime.h"
#include "layouts/CheckedArithmetic.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

using ::tessel::analysis::CostReport;
using ::tessel::analysis::PipelineCost;
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

/// Spells a difference of bytes with its sign: "+1.50 MiB", "-12.00 KiB".
std::string signedBytesText(int64_t bytes) {
  if (bytes < 0)
    return "-" + bytesText(bytes == std::numeric_limits<int64_t>::min()
                               ? std::numeric_limits<int64_t>::max()
                               : -bytes);
  return "+" + bytesText(bytes);
}

/// Writes a report as indented JSON. A model's names are MLIR strings,
/// which may hold any bytes; JSON holds UTF-8 only, and nlohmann's default
/// is to throw on anything else, which in tessel's tools, built without
/// exceptions, aborts. Bytes that are not UTF-8 are written as U+FFFD, as
/// the driver's metrics file writes them.
std::string dumpJson(const nlohmann::ordered_json &json) {
  return json.dump(2, ' ', /*ensure_ascii=*/false,
                   nlohmann::ordered_json::error_handler_t::replace) +
         "\n";
}

std::string secondsText(double seconds) {
  if (seconds >= 1)
    return fmt::format("{:.3f} s", seconds);
  if (seconds >= 1e-3)
    return fmt::format("{:.3f} ms", seconds * 1e3);
  return fmt::format("{:.1f} us", seconds * 1e6);
}

std::string countText(int64_t count) {
  return saturated(count) ? std::string("2^63 - 1 or more")
                          : std::to_string(count);
}

/// The predicted time of the function on a rank, as tessel search ranks
/// layouts by it: its parts and its kernels by class.
std::string predictedStepText(const ::tessel::analysis::StepTime &step,
                              const std::string &profile) {
  std::string out = fmt::format(
      "predicted time per call, on the {}:\n"
      "  step         {} (compute {} + communication {} - hidden {})\n",
      profile.empty() ? std::string("built-in default profile") : profile,
      secondsText(step.totalSeconds()), secondsText(step.computeSeconds),
      secondsText(step.commSeconds), secondsText(step.hiddenSeconds));
  std::vector<std::string> classes;
  for (const auto &[opClass, seconds] : step.classSeconds)
    classes.push_back(fmt::format("{} {}", opClass, secondsText(seconds)));
  out += fmt::format(
      "  kernels      {}\n"
      "  runtime ops  {} ({})\n",
      classes.empty() ? std::string("none")
                      : fmt::format("{}", fmt::join(classes, ", ")),
      countText(step.runtimeOps), secondsText(step.runtimeOpSeconds));
  return out;
}

/// The first `count` of the step's call sites (costliest first).
std::vector<::tessel::analysis::SiteTime>
costliestSites(const ::tessel::analysis::StepTime &step, int64_t count) {
  size_t listed = std::min<size_t>(step.sites.size(), count);
  return {step.sites.begin(), step.sites.begin() + listed};
}

/// The step's costliest call sites, as the compiled program's --profile
/// lists the measured ones: time per step and share of the step.
std::string predictedSitesText(const ::tessel::analysis::StepTime &step,
                               int64_t count) {
  std::string out =
      "  costliest call sites (collectives whole, hidden or not):\n";
  out += fmt::format("  {:>9} {:>6}  {}\n", "ms/step", "%", "op");
  double total = step.totalSeconds();
  for (const ::tessel::analysis::SiteTime &site : costliestSites(step, count))
    out += fmt::format("  {:9.3f} {:6.1f}  {} at {}\n", site.seconds * 1e3,
                       total > 0 ? 100 * site.seconds / total : 0.0, site.op,
                       site.location);
  return out;
}

} // namespace

std::string tessel::analysis::formatText(const CostReport &report,
                                         const StepTime *step,
                                         const std::string &profile,
                                         int64_t sites) {
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
    out += fmt::format(
        "    step buffers  {} (liveness peak {})\n"
        "    constants     {}\n"
        "    scratch       {}\n"
        "    f32 copies    {}\n"
        "    in flight     {}\n"
        "    data staging  {}\n"
        "    data set      {} loading, {} after\n"
        "    driver        {}\n"
        "    call sites    {} ({} beyond the driver's)\n",
        bytesText(report.runtime->heldBytes),
        bytesText(report.runtime->livePeakBytes),
        bytesText(report.runtime->constantBytes),
        bytesText(report.runtime->scratchBytes),
        bytesText(report.runtime->widenedCopyBytes),
        bytesText(report.runtime->inFlightBytes),
        bytesText(report.runtime->stagingBytes),
        bytesText(report.dataLoadBytes), bytesText(report.dataResidentBytes),
        bytesText(report.driverBytes), countText(report.runtime->callSites),
        signedBytesText(report.callSiteBytes));
  out += fmt::format("  comm / step  {}\n"
                     "  FLOPs        {}\n",
                     bytesText(report.commBytesPerRank),
                     saturated(report.flopsPerRank)
                         ? std::string("2^63 - 1 or more")
                         : std::to_string(report.flopsPerRank));
  if (step)
    out += predictedStepText(*step, profile);
  if (step && sites > 0)
    out += predictedSitesText(*step, sites);
  return out;
}

std::string tessel::analysis::formatJson(const CostReport &report,
                                         const StepTime *step,
                                         const std::string &profile,
                                         int64_t sites) {
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
        {"widened_copy_bytes", report.runtime->widenedCopyBytes},
        {"collective_in_flight_bytes", report.runtime->inFlightBytes},
        {"data_staging_bytes", report.runtime->stagingBytes},
        {"data_load_bytes", report.dataLoadBytes},
        {"data_resident_bytes", report.dataResidentBytes},
        {"driver_bytes", report.driverBytes},
        {"call_sites", report.runtime->callSites},
        {"call_site_bytes", report.callSiteBytes}};
  if (step) {
    nlohmann::ordered_json kernels = nlohmann::ordered_json::object();
    for (const auto &[opClass, seconds] : step->classSeconds)
      kernels[opClass] = seconds;
    json["step_time"] = {{"profile", profile},
                         {"step_seconds", step->totalSeconds()},
                         {"compute_seconds", step->computeSeconds},
                         {"comm_seconds", step->commSeconds},
                         {"hidden_comm_seconds", step->hiddenSeconds},
                         {"kernel_seconds", kernels},
                         {"runtime_ops", step->runtimeOps},
                         {"runtime_op_seconds", step->runtimeOpSeconds}};
    if (sites > 0) {
      nlohmann::ordered_json listed = nlohmann::ordered_json::array();
      for (const SiteTime &site : costliestSites(*step, sites))
        listed.push_back({{"op", site.op},
                          {"location", site.location},
                          {"seconds", site.seconds}});
      json["step_time"]["sites"] = listed;
    }
  }
  return dumpJson(json);
}

//===----------------------------------------------------------------------===//
// A pipelined step's cost (PipelineCost.h)
//===----------------------------------------------------------------------===//

std::string tessel::analysis::formatPipelineText(const PipelineCost &cost) {
  using ::tessel::analysis::StageCost;
  int64_t p = static_cast<int64_t>(cost.stages.size());
  int64_t m = cost.microbatches;
  std::vector<std::string> axes;
  for (size_t i = 0; i < cost.meshAxes.size(); ++i)
    axes.push_back(fmt::format("{}:{}", cost.meshAxes[i], cost.meshSizes[i]));
  std::string out = fmt::format(
      "pipelined training step on mesh [{}] ({} ranks): {} stages over "
      "'{}', {} micro-batches, schedule {}{}\n"
      "per rank of each stage; \"/ mb\": per micro-batch, else per step\n\n",
      fmt::join(axes, ", "), cost.numRanks, p, cost.axis, m, cost.schedule,
      cost.remat ? ", remat" : "");
  for (const StageCost &stage : cost.stages) {
    out += fmt::format("stage {}: {}", stage.stage,
                       stage.layers.empty()
                           ? std::string("(no layer calls)")
                           : fmt::format("{}", fmt::join(stage.layers, ", ")));
    if (!stage.sharedParameters.empty())
      out += fmt::format("; held by other stages too: {}",
                         fmt::join(stage.sharedParameters, ", "));
    out += "\n";
  }

  // One row per figure, one column per stage.
  std::vector<std::pair<std::string, std::vector<std::string>>> rows;
  auto row = [&](std::string label, auto cell) {
    std::vector<std::string> cells;
    for (const StageCost &stage : cost.stages)
      cells.push_back(cell(stage));
    rows.emplace_back(std::move(label), std::move(cells));
  };
  row("parameters", [](const StageCost &s) {
    return fmt::format("{} ({} elements)", s.parameterTensors,
                       countText(s.parameterElements));
  });
  row("  bytes",
      [](const StageCost &s) { return bytesText(s.parameterBytes); });
  row("opt. state", [](const StageCost &s) { return bytesText(s.stateBytes); });
  row("gradient sums",
      [](const StageCost &s) { return bytesText(s.gradientSumBytes); });
  row("FLOPs forward / mb",
      [](const StageCost &s) { return countText(s.forwardFlops); });
  row("FLOPs backward / mb",
      [](const StageCost &s) { return countText(s.backwardFlops); });
  row("FLOPs apply",
      [](const StageCost &s) { return countText(s.applyFlops); });
  row("residuals / mb",
      [](const StageCost &s) { return bytesText(s.residualBytes); });
  row("kept / mb", [](const StageCost &s) { return bytesText(s.keptBytes); });
  row("micro-batches held",
      [](const StageCost &s) { return std::to_string(s.microbatchesHeld); });
  row("activations held",
      [](const StageCost &s) { return bytesText(s.heldBytes); });
  row("sent forward",
      [](const StageCost &s) { return bytesText(s.sentForwardBytes); });
  row("sent back",
      [](const StageCost &s) { return bytesText(s.sentBackBytes); });
  row("collectives", [](const StageCost &s) {
    return fmt::format("{} ({})", countText(s.collectivesPerStep),
                       bytesText(s.collectiveBytesPerStep));
  });
  row("working forward",
      [](const StageCost &s) { return bytesText(s.forwardWorkingBytes); });
  row("working backward",
      [](const StageCost &s) { return bytesText(s.backwardWorkingBytes); });
  row("working apply",
      [](const StageCost &s) { return bytesText(s.applyWorkingBytes); });
  row("buffers cached",
      [](const StageCost &s) { return bytesText(s.cachedWorkingBytes); });
  row("call sites",
      [](const StageCost &s) { return signedBytesText(s.callSiteBytes); });
  row("peak memory", [](const StageCost &s) { return bytesText(s.peakBytes); });
  row("rank memory",
      [](const StageCost &s) { return bytesText(s.memoryBytes); });
  row("ops forward / mb",
      [](const StageCost &s) { return countText(s.forwardOps); });
  row("ops backward / mb",
      [](const StageCost &s) { return countText(s.backwardOps); });
  row("ops apply", [](const StageCost &s) { return countText(s.applyOps); });
  row("time forward / mb",
      [](const StageCost &s) { return secondsText(s.forwardSeconds); });
  row("time backward / mb",
      [](const StageCost &s) { return secondsText(s.backwardSeconds); });
  row("time apply",
      [](const StageCost &s) { return secondsText(s.applySeconds); });
  row("send forward / mb",
      [](const StageCost &s) { return secondsText(s.sendForwardSeconds); });
  row("send back / mb",
      [](const StageCost &s) { return secondsText(s.sendBackSeconds); });
  row("messages / mb",
      [](const StageCost &s) { return secondsText(s.messageSeconds); });
  row("gradient sum / mb",
      [](const StageCost &s) { return secondsText(s.gradientSumSeconds); });

  size_t labelWidth = 0, cellWidth = 8;
  for (const auto &[label, cells] : rows) {
    labelWidth = std::max(labelWidth, label.size());
    for (const std::string &cell : cells)
      cellWidth = std::max(cellWidth, cell.size());
  }
  out += fmt::format("\n{:<{}}", "", labelWidth);
  for (const StageCost &stage : cost.stages)
    out += fmt::format("  {:>{}}", fmt::format("stage {}", stage.stage),
                       cellWidth);
  out += "\n";
  for (const auto &[label, cells] : rows) {
    out += fmt::format("{:<{}}", label, labelWidth);
    for (const std::string &cell : cells)
      out += fmt::format("  {:>{}}", cell, cellWidth);
    out += "\n";
  }

  const StageCost &slowest = cost.stages[cost.slowestStage];
  out += fmt::format(
      "\nbubble       (p - 1) / (m + p - 1) = {} / {} = {:.3f}\n"
      "step time    {}\n"
      "             = {} x ({} + {} + {}) + {} x ({} + {}) + {} x {} "
      "(stage {}) + {} = {}\n"
      "per op       {} outside each op's kernel, in every time above\n"
      "driver       {} per rank besides the peak memory above (in rank "
      "memory, with the call sites')\n",
      p - 1, m + p - 1, cost.bubbleFraction, stepTimeFormula(), p - 1,
      secondsText(cost.fillSlotSeconds), secondsText(cost.sendForwardSeconds),
      secondsText(cost.sendBackSeconds), m,
      secondsText(slowest.forwardSeconds + slowest.backwardSeconds),
      secondsText(slowest.messageSeconds), m - 1,
      secondsText(slowest.gradientSumSeconds), cost.slowestStage,
      secondsText(cost.applySeconds), secondsText(cost.stepSeconds),
      fmt::format("{:.3f} us", cost.perOpSeconds * 1e6),
      bytesText(cost.driverBytes));
  return out;
}

std::string tessel::analysis::formatPipelineJson(const PipelineCost &cost) {
  nlohmann::ordered_json json;
  json["pipeline"] = {{"axis", cost.axis},
                      {"stages", cost.stages.size()},
                      {"microbatches", cost.microbatches},
                      {"schedule", cost.schedule},
                      {"remat", cost.remat}};
  nlohmann::ordered_json mesh = nlohmann::ordered_json::object();
  for (size_t i = 0; i < cost.meshAxes.size(); ++i)
    mesh[cost.meshAxes[i]] = cost.meshSizes[i];
  json["mesh"] = mesh;
  json["ranks"] = cost.numRanks;
  json["stages"] = nlohmann::ordered_json::array();
  for (const auto &stage : cost.stages)
    json["stages"].push_back({
        {"stage", stage.stage},
        {"layers", stage.layers},
        {"parameter_tensors", stage.parameterTensors},
        {"parameter_elements", stage.parameterElements},
        {"parameter_bytes_per_rank", stage.parameterBytes},
        {"shared_parameters", stage.sharedParameters},
        {"optimizer_state_bytes_per_rank", stage.stateBytes},
        {"gradient_sum_bytes_per_rank", stage.gradientSumBytes},
        {"forward_flops_per_microbatch", stage.forwardFlops},
        {"backward_flops_per_microbatch", stage.backwardFlops},
        {"apply_flops", stage.applyFlops},
        {"forward_ops_per_microbatch", stage.forwardOps},
        {"backward_ops_per_microbatch", stage.backwardOps},
        {"apply_ops", stage.applyOps},
        {"residual_bytes_per_microbatch", stage.residualBytes},
        {"kept_bytes_per_microbatch", stage.keptBytes},
        {"microbatches_held", stage.microbatchesHeld},
        {"held_bytes", stage.heldBytes},
        {"sent_forward_bytes_per_step", stage.sentForwardBytes},
        {"sent_back_bytes_per_step", stage.sentBackBytes},
        {"collectives_per_step", stage.collectivesPerStep},
        {"collective_bytes_per_step", stage.collectiveBytesPerStep},
        {"forward_working_bytes", stage.forwardWorkingBytes},
        {"backward_working_bytes", stage.backwardWorkingBytes},
        {"apply_working_bytes", stage.applyWorkingBytes},
        {"cached_working_bytes", stage.cachedWorkingBytes},
        {"other_working_bytes", stage.otherWorkingBytes},
        {"call_site_bytes", stage.callSiteBytes},
        {"peak_bytes_per_rank", stage.peakBytes},
        {"memory_bytes_per_rank", stage.memoryBytes},
        {"forward_seconds_per_microbatch", stage.forwardSeconds},
        {"backward_seconds_per_microbatch", stage.backwardSeconds},
        {"apply_seconds", stage.applySeconds},
        {"send_forward_seconds_per_microbatch", stage.sendForwardSeconds},
        {"send_back_seconds_per_microbatch", stage.sendBackSeconds},
        {"message_seconds_per_microbatch", stage.messageSeconds},
        {"gradient_sum_seconds_per_microbatch", stage.gradientSumSeconds},
    });
  json["bubble_fraction"] = cost.bubbleFraction;
  json["step"] = {{"formula", stepTimeFormula()},
                  {"slowest_stage", cost.slowestStage},
                  {"fill_slot_seconds", cost.fillSlotSeconds},
                  {"send_forward_seconds", cost.sendForwardSeconds},
                  {"send_back_seconds", cost.sendBackSeconds},
                  {"apply_seconds", cost.applySeconds},
                  {"per_op_seconds", cost.perOpSeconds},
                  {"seconds", cost.stepSeconds}};
  json["driver_bytes"] = cost.driverBytes;
  return dumpJson(json);
}
