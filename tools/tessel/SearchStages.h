//===- SearchStages.h - where tessel search cuts stages ---------*- C++ -*-===//
//
// A pipeline's stages are cut at the layer calls of the model's @forward
// (docs/pipeline.md). `tessel search` reads those calls from the model
// before they are inlined, groups them into segments that each hold a
// parameter (a stage without parameters is an error), and cuts the
// sequence of segments into p contiguous stages whose predicted times are
// as even as they can be (balanceStages: a dynamic program over the cut
// points, minimising the slowest stage).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_TESSEL_SEARCHSTAGES_H
#define TESSEL_TOOLS_TESSEL_SEARCHSTAGES_H

#include "dialect/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>
#include <vector>

namespace mlir::tessel::search {

/// A run of @forward's layer calls that a stage may start with: the scopes
/// of the first call of each layer it holds, in @forward's order. The
/// first segment also holds what comes before the first call (an
/// embedding's position table), the last what comes after (the loss).
struct LayerSegment {
  std::vector<std::string> scopes;
};

/// Returns the segments of `forward` (its body's scoped calls, before
/// tessel-inline-layers): each scope's first call starts a segment, and a
/// segment that reads no parameter joins the one before it (the first
/// joins the next). Fewer than two segments: the model cannot be
/// pipelined.
std::vector<LayerSegment> layerSegments(func::FuncOp forward);

/// Cuts `seconds` (one figure per segment, in order) into `stages`
/// contiguous runs, none empty, so that the largest sum of a run is the
/// smallest possible; returns the index of the first segment of each run.
/// Needs 1 <= stages <= seconds.size().
std::vector<size_t> balanceStages(const std::vector<double> &seconds,
                                  size_t stages);

/// The scopes of each stage when stage i starts at segment `starts[i]`.
std::vector<std::vector<std::string>>
stageScopes(const std::vector<LayerSegment> &segments,
            const std::vector<size_t> &starts);

/// The index of the segment each stage of `stages` (scopes, as
/// stageScopes returns them) starts with; empty when a stage does not
/// start a segment of `segments`.
std::vector<size_t>
stageStarts(const std::vector<LayerSegment> &segments,
            const std::vector<std::vector<std::string>> &stages);

/// The cuts one boundary away from `starts` (each boundary but the first
/// stage's moved one segment earlier or later, no stage left empty) among
/// `segmentCount` segments.
std::vector<std::vector<size_t>>
neighbouringCuts(const std::vector<size_t> &starts, size_t segmentCount);

} // namespace mlir::tessel::search

#endif // TESSEL_TOOLS_TESSEL_SEARCHSTAGES_H
