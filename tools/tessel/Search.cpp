//===- Search.cpp - tessel search: choose a layout by its predicted cost --===//
//
// `search` builds the training step once (tessel-autodiff, as compile
// does), lists candidate layouts from the model's dimension names
// (SearchSpace.h) and, for a model whose @forward is a chain of layer
// calls, pipelined ones with stages balanced by their predicted times
// (SearchStages.h), evaluates each (SearchEvaluation.h: legality, memory,
// predicted step time on a machine profile), prints the candidates ranked
// by predicted step time and writes the best as a layout file
// (docs/search.md).
//
//===----------------------------------------------------------------------===//

#include "tools/tessel/Commands.h"
#include "tools/tessel/SearchEvaluation.h"
#include "tools/tessel/SearchSpace.h"
#include "tools/tessel/SearchStages.h"

#include "analysis/CostReport.h"
#include "analysis/MachineProfile.h"
#include "analysis/StepTime.h"
#include "codegen/Pipeline.h"
#include "layouts/LayoutFile.h"
#include "tools/support/ModelFile.h"
#include "tools/support/OptionValues.h"
#include "tools/support/OutputFile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <map>

using namespace mlir;
using namespace mlir::tessel;
using search::Evaluation;
using search::Evaluator;
namespace cl = llvm::cl;
namespace analysis = ::tessel::analysis;

cl::SubCommand mlir::tessel::searchCommand(
    "search", "choose a layout: rank candidate layouts by their predicted "
              "step time on a machine profile");

namespace {

cl::opt<std::string> modelPath(cl::Positional, cl::desc("<model.mlir>"),
                               cl::Required, cl::sub(searchCommand));
cl::opt<int64_t> numRanks("n", cl::desc("number of ranks (required)"),
                          cl::init(0), cl::sub(searchCommand));
cl::opt<std::string> memoryPerRank(
    "memory-per-rank",
    cl::desc("memory budget of one rank: bytes, or with K, M, G (KiB, MiB, "
             "GiB)"),
    cl::sub(searchCommand));
cl::opt<std::string> profilePath(
    "profile",
    cl::desc("machine profile from tessel calibrate (default: the built-in "
             "one)"),
    cl::sub(searchCommand));
cl::opt<int> top("top", cl::desc("candidates to list"), cl::init(10),
                 cl::sub(searchCommand));
enum class Format { Text, Json };
cl::opt<Format>
    format("format", cl::desc("output format"), cl::init(Format::Text),
           cl::values(clEnumValN(Format::Text, "text", "a ranked table"),
                      clEnumValN(Format::Json, "json", "one JSON object")),
           cl::sub(searchCommand));
cl::opt<std::string> outputPath("o",
                                cl::desc("write the best layout (YAML) here"),
                                cl::value_desc("path"), cl::sub(searchCommand));
cl::opt<std::string> optimizer("optimizer",
                               cl::desc("sgd, momentum, adam or adamw (as "
                                        "for compile: sets the optimizer "
                                        "state each rank holds)"),
                               cl::init("sgd"), cl::sub(searchCommand));
cl::opt<std::string> precision(
    "precision",
    cl::desc("f32, or bf16 / f16 mixed precision (as for compile: the "
             "step's types, so the memory it holds and the bytes it sends; "
             "kernels are timed at the profile's f32 rates)"),
    cl::init("f32"), cl::sub(searchCommand));
cl::opt<int64_t> batchSize("batch",
                           cl::desc("resize the model's 'batch' dimension "
                                    "and every dimension that holds it "
                                    "under another name"),
                           cl::init(0), cl::sub(searchCommand));
cl::list<std::string>
    compareFiles("compare",
                 cl::desc("a layout file to predict and rank beside the "
                          "candidates (repeatable): how a hand-written "
                          "layout compares"),
                 cl::sub(searchCommand));
cl::list<std::string> dimSizes("dim-size",
                               cl::desc("NAME=SIZE: resize a named dimension "
                                        "(repeatable)"),
                               cl::sub(searchCommand));

/// Seeds of the second stage (a second model axis): of the unpipelined
/// layouts, and of the pipelined ones, whose every refinement has its
/// micro-batch counts and cuts searched too.
constexpr size_t kRefinedSeeds = 3;
constexpr size_t kRefinedPipelinedSeeds = 1;

/// Reads "1048576", "512K", "64MiB", "2G"; nullopt if malformed.
std::optional<int64_t> parseBytes(StringRef text) {
  StringRef number = text.take_while([](char c) { return std::isdigit(c); });
  StringRef unit = text.drop_front(number.size()).trim();
  uint64_t value = 0;
  if (number.empty() || number.getAsInteger(10, value))
    return std::nullopt;
  int shift = 0;
  if (unit.empty() || unit.equals_insensitive("b"))
    shift = 0;
  else if (unit.equals_insensitive("k") || unit.equals_insensitive("kib"))
    shift = 10;
  else if (unit.equals_insensitive("m") || unit.equals_insensitive("mib"))
    shift = 20;
  else if (unit.equals_insensitive("g") || unit.equals_insensitive("gib"))
    shift = 30;
  else
    return std::nullopt;
  if (value > (uint64_t(INT64_MAX) >> shift))
    return std::nullopt;
  return static_cast<int64_t>(value << shift);
}

nlohmann::ordered_json toJson(const Evaluation &evaluation) {
  const search::Candidate &candidate = evaluation.candidate;
  nlohmann::ordered_json mesh = nlohmann::ordered_json::object();
  for (const search::Axis &axis : candidate.mesh)
    mesh[axis.name] = axis.size;
  nlohmann::ordered_json rules = nlohmann::ordered_json::object();
  for (const auto &[dim, axis] : candidate.rules)
    rules[dim] = axis;
  nlohmann::ordered_json overrides = nlohmann::ordered_json::object();
  for (const auto &[tensor, rule] : candidate.overrides)
    overrides[tensor] = {{rule.first, rule.second}};
  nlohmann::ordered_json json;
  if (!evaluation.file.empty())
    json = {{"file", evaluation.file}, {"mesh", mesh}};
  else
    json = {{"mesh", mesh},
            {"layout", rules},
            {"overrides", overrides},
            {"zero", candidate.zero},
            {"pad_uneven", candidate.padUneven}};
  if (candidate.pipeline || evaluation.pipeline) {
    // The layout's pipeline section and, once compiled, what explain
    // reports of it.
    nlohmann::ordered_json pipeline;
    if (candidate.pipeline) {
      pipeline["axis"] = candidate.pipeline->axis;
      pipeline["microbatches"] = candidate.pipeline->microbatches;
      pipeline["schedule"] = "1f1b";
      pipeline["remat"] = candidate.pipeline->remat;
      pipeline["batch_dim"] = candidate.pipeline->batchDim;
      pipeline["stages"] = candidate.pipeline->stages;
    }
    if (const auto &cost = evaluation.pipeline) {
      pipeline["axis"] = cost->axis;
      pipeline["microbatches"] = cost->microbatches;
      pipeline["schedule"] = cost->schedule;
      pipeline["remat"] = cost->remat;
      pipeline["bubble"] = cost->bubbleFraction;
      pipeline["slowest_stage"] = cost->slowestStage;
      nlohmann::ordered_json stageSeconds = nlohmann::ordered_json::array(),
                             stageOps = nlohmann::ordered_json::array(),
                             stageMemory = nlohmann::ordered_json::array();
      for (const analysis::StageCost &stage : cost->stages) {
        stageSeconds.push_back(stage.forwardSeconds + stage.backwardSeconds);
        stageOps.push_back(stage.forwardOps + stage.backwardOps);
        stageMemory.push_back(stage.memoryBytes);
      }
      pipeline["stage_seconds_per_microbatch"] = stageSeconds;
      pipeline["stage_ops_per_microbatch"] = stageOps;
      pipeline["per_op_seconds"] = cost->perOpSeconds;
      pipeline["stage_memory_bytes"] = stageMemory;
      pipeline["driver_bytes"] = cost->driverBytes;
    }
    json["pipeline"] = pipeline;
  }
  if (evaluation.status == Evaluation::Ranked) {
    nlohmann::ordered_json classes = nlohmann::ordered_json::object();
    for (const auto &[opClass, seconds] : evaluation.step.classSeconds)
      classes[opClass] = seconds;
    json["step_seconds"] = evaluation.step.totalSeconds();
    json["compute_seconds"] = evaluation.step.computeSeconds;
    json["comm_seconds"] = evaluation.step.commSeconds;
    json["hidden_comm_seconds"] = evaluation.step.hiddenSeconds;
    json["kernel_seconds"] = classes;
    if (!evaluation.pipeline) {
      json["runtime_ops"] = evaluation.step.runtimeOps;
      json["runtime_op_seconds"] = evaluation.step.runtimeOpSeconds;
    }
    json["memory_bytes_per_rank"] = evaluation.memoryBytes;
    json["comm_bytes_per_rank"] = evaluation.commBytes;
    json["flops_per_rank"] = evaluation.flops;
  } else {
    json["status"] =
        evaluation.status == Evaluation::Illegal ? "illegal" : "over_budget";
    json["reason"] = evaluation.reason;
    if (evaluation.status == Evaluation::OverBudget) {
      json["memory_bytes_per_rank"] = evaluation.memoryBytes;
      json["memory_is_lower_bound"] = evaluation.memoryIsLowerBound;
    }
  }
  return json;
}

/// The pipelined part of the space: where stages may start, each
/// segment's predicted time, the stage counts tried and their candidates.
struct PipelineSpace {
  std::vector<search::LayerSegment> segments;
  /// Forward and backward of one step's batch through each segment alone.
  std::vector<double> segmentSeconds;
  std::vector<int64_t> stageCounts;
  /// Why no stage axis was tried, when none was.
  std::string reason;
  std::vector<search::Candidate> candidates;
};

/// Lists the pipelined candidates of a model whose @forward is a chain of
/// layer calls: for each stage count p dividing the ranks (at most one
/// stage per segment), the stages cut where the segments' predicted times
/// are most even, with data and model axes on the other ranks.
PipelineSpace searchStages(ModuleOp layered, const search::ModelDims &dims,
                           const std::vector<Evaluation> &evaluations,
                           Evaluator &evaluator, const std::string &scratch) {
  PipelineSpace space;
  if (auto forward = layered.lookupSymbol<func::FuncOp>("forward"))
    space.segments = search::layerSegments(forward);
  if (space.segments.size() < 2) {
    space.reason = "@forward does not call two or more layers that hold "
                   "parameters, where stages could start";
    return space;
  }
  // The dimension micro-batches cut: `batch`, else the first batch-like.
  const search::Dim *batch = nullptr;
  for (const search::Dim &dim : dims.batchDims)
    if (dim.name == "batch" || !batch)
      batch = &dim;
  if (!batch) {
    space.reason = "no batch dimension to cut into micro-batches";
    return space;
  }
  int64_t ranks = numRanks;
  for (int64_t p = 2; p <= ranks && p <= int64_t(space.segments.size()); ++p)
    if (ranks % p == 0)
      space.stageCounts.push_back(p);
  if (space.stageCounts.empty()) {
    space.reason = fmt::format("no stage count from 2 to {} (one per "
                               "segment) divides {} ranks",
                               space.segments.size(), ranks);
    return space;
  }

  // Each segment's time: one stage per segment, one micro-batch, nothing
  // split, costed as explain costs a pipeline. Other axes and micro-batch
  // sizes scale the segments alike, so their ratios place the cuts.
  search::Candidate probe;
  probe.mesh.push_back({"stage", int64_t(space.segments.size())});
  search::PipelinePlan plan;
  plan.batchDim = batch->name;
  for (const search::LayerSegment &segment : space.segments)
    plan.stages.push_back(segment.scopes);
  probe.pipeline = plan;
  {
    std::error_code code;
    llvm::raw_fd_ostream out(scratch, code);
    out << probe.yaml("");
  }
  std::string error;
  std::optional<analysis::PipelineCost> cost =
      evaluator.pipelineCost(scratch, /*padUneven=*/false, plan.stages, error);
  if (!cost) {
    space.reason = "one stage per segment does not compile: " + error;
    return space;
  }
  for (const analysis::StageCost &stage : cost->stages)
    space.segmentSeconds.push_back(stage.forwardSeconds +
                                   stage.backwardSeconds);

  // The model axis beside the stages splits the dims that split best
  // without them.
  std::vector<const Evaluation *> ranked;
  for (const Evaluation &evaluation : evaluations)
    if (evaluation.status == Evaluation::Ranked)
      ranked.push_back(&evaluation);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const Evaluation *a, const Evaluation *b) {
                     return search::faster(*a, *b);
                   });
  std::vector<std::vector<std::string>> modelSets;
  for (const Evaluation *evaluation : ranked) {
    std::vector<std::string> set;
    for (const auto &[dim, axis] : evaluation->candidate.rules)
      if (axis == "model")
        set.push_back(dim);
    if (!set.empty() &&
        std::find(modelSets.begin(), modelSets.end(), set) == modelSets.end())
      modelSets.push_back(set);
  }
  for (int64_t p : space.stageCounts) {
    std::vector<std::vector<std::string>> stages = search::stageScopes(
        space.segments, search::balanceStages(space.segmentSeconds, p));
    for (search::Candidate &candidate :
         search::pipelinedCandidates(dims, ranks, stages, *batch, modelSets))
      space.candidates.push_back(std::move(candidate));
  }
  return space;
}

/// A pipelined candidate's layout whatever its micro-batch count: its
/// mesh, rules, overrides and cut.
std::string layoutOfAnyCount(const search::Candidate &candidate) {
  search::Candidate anyCount = candidate;
  anyCount.pipeline->microbatches = 0;
  return anyCount.canonicalKey();
}

/// One pipelined layout (mesh, rules, overrides and cut) as evaluated at
/// its micro-batch counts, plain (no ZeRO, no remat) and legal.
struct PipelinedLayout {
  /// The count with the most micro-batches.
  const Evaluation *most = nullptr;
  /// The fastest count that fits the budget; none when none does.
  const Evaluation *fastest = nullptr;
};

/// The plain pipelined layouts among `evaluations` from `first` on.
std::map<std::string, PipelinedLayout>
pipelinedLayouts(const std::vector<Evaluation> &evaluations, size_t first) {
  std::map<std::string, PipelinedLayout> layouts;
  for (size_t i = first; i < evaluations.size(); ++i) {
    const Evaluation &evaluation = evaluations[i];
    const search::Candidate &candidate = evaluation.candidate;
    if (!candidate.pipeline || candidate.zero || candidate.pipeline->remat ||
        evaluation.status == Evaluation::Illegal)
      continue;
    PipelinedLayout &layout = layouts[layoutOfAnyCount(candidate)];
    if (!layout.most || candidate.pipeline->microbatches >
                            layout.most->candidate.pipeline->microbatches)
      layout.most = &evaluation;
    if (evaluation.status == Evaluation::Ranked &&
        (!layout.fastest || search::faster(evaluation, *layout.fastest)))
      layout.fastest = &evaluation;
  }
  return layouts;
}

/// More micro-batches shrink the bubble and each stage's activations, and
/// cost more calls of smaller kernels: the pipelined layouts among
/// `evaluations` from `first` on whose most micro-batches tried are their
/// fastest, or none of whose counts fits the budget (its activations, not
/// its parameters and state alone), with twice those micro-batches, where
/// the batch allows and they are not in `seen`.
std::vector<search::Candidate>
moreMicrobatches(const std::vector<Evaluation> &evaluations, size_t first,
                 const search::ModelDims &dims,
                 const std::set<std::string> &seen) {
  std::vector<search::Candidate> more;
  for (const auto &[key, layout] : pipelinedLayouts(evaluations, first)) {
    if (layout.fastest ? layout.fastest != layout.most
                       : layout.most->memoryIsLowerBound)
      continue;
    if (std::optional<search::Candidate> twice =
            search::withTwiceTheMicrobatches(dims, layout.most->candidate))
      if (!seen.count(twice->canonicalKey()))
        more.push_back(std::move(*twice));
  }
  return more;
}

/// A pipelined candidate's layout whatever its micro-batch count and
/// wherever its stages are cut: its mesh, rules and overrides.
std::string layoutOfAnyCut(const search::Candidate &candidate) {
  search::Candidate anyCut = candidate;
  anyCut.pipeline->microbatches = 0;
  anyCut.pipeline->stages.clear();
  return anyCut.canonicalKey();
}

/// The fastest fitting candidate of each plain pipelined layout among
/// `layouts` (pipelinedLayouts), whatever its micro-batch count and cut.
std::map<std::string, const Evaluation *>
fastestOfEachLayout(const std::map<std::string, PipelinedLayout> &layouts) {
  std::map<std::string, const Evaluation *> fastest;
  for (const auto &[key, layout] : layouts)
    if (layout.fastest) {
      const Evaluation *&best =
          fastest[layoutOfAnyCut(layout.fastest->candidate)];
      if (!best || search::faster(*layout.fastest, *best))
        best = layout.fastest;
    }
  return fastest;
}

/// The stages are cut where the segments' times, predicted once for the
/// whole model unsplit, are most even; a layout's axes split the segments
/// unevenly (a model axis over the vocabulary shrinks the embedding's
/// segment, not the blocks'), so its best cut may lie elsewhere. For each
/// plain pipelined layout among `evaluations` from `first` on, the
/// candidates with one stage boundary of its fastest fitting candidate's
/// cut moved by one segment, at that candidate's micro-batch count, that
/// are not in `seen`: search evaluates them and climbs on from the faster
/// until no neighbour is faster.
std::vector<search::Candidate>
neighbouringCuts(const std::vector<Evaluation> &evaluations, size_t first,
                 const std::vector<search::LayerSegment> &segments,
                 const std::set<std::string> &seen) {
  std::vector<search::Candidate> neighbours;
  for (const auto &[key, best] :
       fastestOfEachLayout(pipelinedLayouts(evaluations, first))) {
    std::vector<size_t> starts =
        search::stageStarts(segments, best->candidate.pipeline->stages);
    for (const std::vector<size_t> &cut :
         search::neighbouringCuts(starts, segments.size())) {
      search::Candidate moved = best->candidate;
      moved.pipeline->stages = search::stageScopes(segments, cut);
      if (!seen.count(moved.canonicalKey()))
        neighbours.push_back(std::move(moved));
    }
  }
  return neighbours;
}

/// ZeRO and remat beside the stages of the plain pipelined layouts among
/// `evaluations` from `first` on. A layout that fits the budget is tried
/// at its fastest micro-batch count and cut with ZeRO's overrides over its data
/// axis: they gather each stage's weights, but each data rank updates
/// only its share of the parameters and optimizer state; which wins
/// depends on the model and the machine (a wider GPT with Adam on data:2 x
/// stage:2: faster on one machine, slower on another, docs/search.md). A
/// layout that no count fits is tried at its most micro-batches (the least
/// held) with what holds less (lessMemoryVariants): ZeRO, recomputing each
/// stage's forward in its backward, and both. Remat costs one more forward
/// a micro-batch and saves no time, so it is not tried where the plain
/// layout fits.
std::vector<search::Candidate>
variantsBesideStages(const std::vector<Evaluation> &evaluations, size_t first,
                     const search::ModelDims &dims) {
  std::map<std::string, PipelinedLayout> layouts =
      pipelinedLayouts(evaluations, first);
  std::vector<search::Candidate> variants;
  for (const auto &[key, best] : fastestOfEachLayout(layouts))
    if (std::optional<search::Candidate> zero =
            search::withZero(dims, best->candidate))
      variants.push_back(std::move(*zero));
  for (const auto &[key, layout] : layouts) {
    if (layout.fastest)
      continue;
    for (search::Candidate &variant : search::lessMemoryVariants(
             dims, layout.most->candidate, layout.most->memoryIsLowerBound))
      variants.push_back(std::move(variant));
  }
  return variants;
}

/// The first `most` of `seeds` whose model axis has 4 ranks or more, the
/// best first (by time among those that fit; by memory when none fits):
/// the layouts whose model axis search::refine splits into `model` and
/// `model2`, so that a 3-D (or, beside a stage axis, 4-D) mesh is tried
/// without listing every factorization.
std::vector<const Evaluation *>
bestWithAModelAxis(std::vector<const Evaluation *> seeds, size_t most) {
  llvm::erase_if(seeds, [](const Evaluation *seed) {
    return seed->candidate.axisSize("model") < 4;
  });
  std::sort(seeds.begin(), seeds.end(),
            [](const Evaluation *a, const Evaluation *b) {
              if ((a->status == Evaluation::Ranked) !=
                  (b->status == Evaluation::Ranked))
                return a->status == Evaluation::Ranked;
              if (a->status == Evaluation::Ranked)
                return search::faster(*a, *b);
              // A lower bound (the state alone is over the budget) after
              // every figure that is the whole memory.
              if (a->memoryIsLowerBound != b->memoryIsLowerBound)
                return b->memoryIsLowerBound;
              return a->memoryBytes < b->memoryBytes;
            });
  if (seeds.size() > most)
    seeds.resize(most);
  return seeds;
}

/// search::refine of the best of the unpipelined `seeds`.
std::vector<search::Candidate>
secondModelAxis(const std::vector<const Evaluation *> &seeds,
                const search::ModelDims &dims) {
  std::vector<search::Candidate> refined;
  for (const Evaluation *seed : bestWithAModelAxis(seeds, kRefinedSeeds))
    for (search::Candidate &candidate : search::refine(dims, seed->candidate))
      refined.push_back(std::move(candidate));
  return refined;
}

/// search::refine of the best plain pipelined layout among `evaluations`
/// from `first` on (each at its fastest micro-batch count, or where none
/// fits at its most), each refinement at every count that layout was
/// evaluated at (p, 2p, 4p where the batch allows): the data axis, and so
/// the counts the batch allows, are the seed's, and smaller shards may run
/// best at another count than the seed's fastest.
std::vector<search::Candidate>
secondModelAxisBesideStages(const std::vector<Evaluation> &evaluations,
                            size_t first, const search::ModelDims &dims) {
  std::vector<const Evaluation *> seeds;
  for (const auto &[key, layout] : pipelinedLayouts(evaluations, first))
    seeds.push_back(layout.fastest ? layout.fastest : layout.most);
  std::vector<search::Candidate> refined;
  for (const Evaluation *seed :
       bestWithAModelAxis(seeds, kRefinedPipelinedSeeds)) {
    std::set<int64_t> counts;
    std::string layout = layoutOfAnyCount(seed->candidate);
    for (size_t i = first; i < evaluations.size(); ++i) {
      const search::Candidate &candidate = evaluations[i].candidate;
      if (candidate.pipeline && !candidate.zero && !candidate.pipeline->remat &&
          layoutOfAnyCount(candidate) == layout)
        counts.insert(candidate.pipeline->microbatches);
    }
    for (const search::Candidate &candidate :
         search::refine(dims, seed->candidate))
      for (int64_t count : counts) {
        search::Candidate counted = candidate;
        counted.pipeline->microbatches = count;
        refined.push_back(std::move(counted));
      }
  }
  return refined;
}

/// Writes `text` through a temporary file renamed over `path` when whole.
bool writeText(StringRef path, const std::string &text) {
  return writeFileAtomically("tessel search", path,
                             [&](raw_ostream &os) { os << text; });
}

} // namespace

int mlir::tessel::runSearch() {
  auto started = std::chrono::steady_clock::now();
  if (numRanks < 1) {
    llvm::errs() << "tessel search: give the number of ranks with -n N (at "
                    "least 1)\n";
    return 1;
  }
  // A mesh has at most 2^31 ranks (validateMesh); larger counts only made
  // the search of the rank count's factors run for hours.
  if (numRanks > ::tessel::layout::Mesh::kMaxRanks) {
    llvm::errs() << fmt::format("tessel search: -n {}: a mesh has at most "
                                "2^31 ranks\n",
                                numRanks.getValue());
    return 1;
  }
  StepOptionValues values;
  values.batch = &batchSize;
  if (!checkStepOptionValues("tessel search", values))
    return 1;
  if (top < 1) {
    llvm::errs() << "tessel search: --top must be at least 1\n";
    return 1;
  }
  // The model and --compare layouts are checked below, where they are read.
  if (!outputPath.empty() &&
      outputIsAnInput("tessel search", outputPath,
                      {{profilePath, "the machine profile"}}))
    return 1;
  std::optional<int64_t> budget;
  // Given but empty is an error too, not "no budget".
  if (memoryPerRank.getNumOccurrences()) {
    budget = parseBytes(memoryPerRank);
    if (!budget || *budget <= 0) {
      llvm::errs() << "tessel search: --memory-per-rank '" << memoryPerRank
                   << "' is not a byte count (e.g. 1048576, 512K, 64M, 2G)\n";
      return 1;
    }
  }
  std::optional<analysis::MachineProfile> loaded;
  if (!profilePath.empty()) {
    std::string error;
    loaded = analysis::readMachineProfile(profilePath, error);
    if (!loaded) {
      llvm::errs() << "tessel search: " << error << "\n";
      return 1;
    }
  }
  const analysis::MachineProfile &profile =
      loaded ? *loaded : analysis::defaultMachineProfile();
  // A profile calibrated on one rank has no collectives: communication
  // would cost nothing and every layout would look free to split.
  if (profile.collectives.empty() && numRanks > 1) {
    llvm::errs() << "tessel search: " << profile.source
                 << " times no collectives (calibrate with --max-ranks 2 or "
                    "more) and cannot weigh communication\n";
    return 1;
  }
  if (!outputPath.empty() && llvm::sys::fs::equivalent(outputPath, modelPath)) {
    llvm::errs() << "tessel search: -o " << outputPath
                 << " would overwrite the model\n";
    return 1;
  }
  // The layout files to compare, read (and their mesh checked) before any
  // work.
  std::vector<std::pair<std::string, std::vector<search::Axis>>> toCompare;
  for (const std::string &path : compareFiles) {
    std::vector<::tessel::layout::Diagnostic> diagnostics;
    std::optional<::tessel::layout::LayoutSpec> spec =
        ::tessel::layout::parseLayoutFile(path, diagnostics);
    for (const ::tessel::layout::Diagnostic &diagnostic : diagnostics)
      if (diagnostic.severity == ::tessel::layout::Diagnostic::Error)
        llvm::errs() << "tessel search: " << diagnostic.str() << "\n";
    if (!spec)
      return 1;
    if (spec->mesh.numRanks() != numRanks) {
      llvm::errs() << fmt::format("tessel search: --compare {}: its mesh has "
                                  "{} ranks, not {}\n",
                                  path, spec->mesh.numRanks(),
                                  numRanks.getValue());
      return 1;
    }
    if (!outputPath.empty() && llvm::sys::fs::equivalent(outputPath, path)) {
      llvm::errs() << "tessel search: -o " << outputPath
                   << " would overwrite a layout file to compare\n";
      return 1;
    }
    std::vector<search::Axis> mesh;
    for (unsigned i = 0; i < spec->mesh.numAxes(); ++i)
      mesh.push_back({spec->mesh.axisNames()[i], spec->mesh.axisSizes()[i]});
    toCompare.emplace_back(path, std::move(mesh));
  }

  if (precision != "f32" && precision != "bf16" && precision != "f16") {
    llvm::errs() << "tessel search: --precision " << precision
                 << ": expected f32, bf16 or f16\n";
    return 1;
  }
  // Read with its layer calls: a pipelined candidate is compiled from them.
  ModelFile model(modelPath, /*inlineLayers=*/false);
  if (!model.module())
    return 1;
  MLIRContext &context = model.context();
  OwningOpRef<ModuleOp> layered = model.module().clone();
  // The training step, once, as compile builds it; candidates differ only
  // from the layout on.
  CompilePipelineOptions options;
  options.mode = "train";
  options.optimizer = optimizer;
  options.precision = precision;
  std::vector<std::string> sizes(dimSizes.begin(), dimSizes.end());
  options.dimSizes = sizes;
  options.batchSize = batchSize;
  // The evaluator fuses each candidate's partitioned step and orders it for
  // overlap, as compile does after partitioning (countStep).
  options.fuseElementwise = false;
  options.overlapCommunication = false;
  options.lower = false;
  PassManager pm(&context);
  buildCompilePipeline(pm, options);
  if (failed(pm.run(model.module())))
    return 1;
  auto trainStep = model.module().lookupSymbol<func::FuncOp>("train_step");
  if (!trainStep) {
    llvm::errs() << "tessel search: " << modelPath
                 << " has no training step to lay out\n";
    return 1;
  }
  search::ModelDims dims = search::analyzeTrainStep(trainStep);

  llvm::SmallString<128> scratch;
  if (std::error_code code = llvm::sys::fs::createTemporaryFile(
          "tessel-search", "yaml", scratch)) {
    llvm::errs() << "tessel search: no temporary file: " << code.message()
                 << "\n";
    return 1;
  }
  Evaluator evaluator(model.module(), profile, budget, std::string(scratch));
  evaluator.allowPipelines(*layered, optimizer, precision, sizes, batchSize);

  std::vector<Evaluation> evaluations;
  std::set<std::string> seen;
  auto evaluateAll = [&](const std::vector<search::Candidate> &candidates) {
    for (const search::Candidate &candidate : candidates) {
      if (!seen.insert(candidate.canonicalKey()).second)
        continue;
      evaluations.push_back(evaluator.evaluate(candidate, dims));
    }
  };
  evaluateAll(search::baseCandidates(dims, numRanks));
  // Second stage: a second model axis, around the best of the first.
  std::vector<const Evaluation *> seeds;
  for (const Evaluation &evaluation : evaluations)
    if (evaluation.status != Evaluation::Illegal)
      seeds.push_back(&evaluation);
  evaluateAll(secondModelAxis(seeds, dims));
  size_t unpipelined = evaluations.size();
  PipelineSpace pipelineSpace = searchStages(*layered, dims, evaluations,
                                             evaluator, std::string(scratch));
  evaluateAll(pipelineSpace.candidates);
  // A second model axis beside the stages (data x stage x model x model2),
  // whose micro-batch counts and cuts are then searched as the others' are.
  evaluateAll(secondModelAxisBesideStages(evaluations, unpipelined, dims));
  // More micro-batches for the layouts whose most are their fastest, the
  // cuts next to each layout's fastest, then ZeRO beside the stages, and
  // what holds less for those over the budget.
  for (std::vector<search::Candidate> more;
       !(more = moreMicrobatches(evaluations, unpipelined, dims, seen))
            .empty();)
    evaluateAll(more);
  for (std::vector<search::Candidate> moved;
       !(moved = neighbouringCuts(evaluations, unpipelined,
                                  pipelineSpace.segments, seen))
            .empty();)
    evaluateAll(moved);
  evaluateAll(variantsBesideStages(evaluations, unpipelined, dims));
  size_t pipelined = evaluations.size() - unpipelined;
  llvm::sys::fs::remove(scratch);
  std::vector<Evaluation> compared;
  for (const auto &[path, mesh] : toCompare)
    compared.push_back(evaluator.evaluateFile(path, mesh));

  std::vector<Evaluation> ranked;
  const Evaluation *smallest = nullptr;
  size_t illegal = 0, overBudget = 0;
  for (const Evaluation &evaluation : evaluations) {
    if (evaluation.status == Evaluation::Ranked)
      ranked.push_back(evaluation);
    else if (evaluation.status == Evaluation::Illegal)
      ++illegal;
    else
      ++overBudget;
    if (evaluation.status != Evaluation::Illegal &&
        (!smallest || evaluation.memoryBytes < smallest->memoryBytes))
      smallest = &evaluation;
  }
  std::stable_sort(ranked.begin(), ranked.end(), search::faster);
  double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
          .count();

  if (ranked.empty()) {
    if (smallest && budget)
      llvm::errs() << fmt::format(
          "tessel search: no layout of {} on {} ranks fits "
          "--memory-per-rank {} ({} bytes): the smallest needs {}{} "
          "({} on mesh {}; {} candidates tried)\n",
          modelPath.getValue(), numRanks.getValue(), memoryPerRank.getValue(),
          *budget, smallest->memoryIsLowerBound ? "at least " : "",
          search::bytesText(smallest->memoryBytes),
          smallest->candidate.rulesText(), smallest->candidate.meshText(),
          evaluations.size());
    else if (evaluations.empty()) {
      // Every factorization of the rank count has an axis larger than any
      // dim it could split.
      search::Dim largest;
      for (const auto *list : {&dims.batchDims, &dims.modelDims})
        for (const search::Dim &dim : *list)
          if (dim.size > largest.size)
            largest = dim;
      llvm::errs() << fmt::format(
          "tessel search: no layout of {} on {} ranks to try: every mesh of "
          "{} ranks has an axis larger than any dimension it could split{}\n",
          modelPath.getValue(), numRanks.getValue(), numRanks.getValue(),
          largest.size ? fmt::format(" (the largest is {}, of size {})",
                                     largest.name, largest.size)
                       : "");
    } else
      llvm::errs() << fmt::format(
          "tessel search: no legal layout of {} on {} ranks among {} "
          "candidates; the first failed with: {}\n",
          modelPath.getValue(), numRanks.getValue(), evaluations.size(),
          evaluations.front().reason);
    return 1;
  }

  const Evaluation &best = ranked.front();
  // f32, the default, goes unsaid.
  std::string precisionNote =
      precision == "f32" ? "" : ", precision " + precision.getValue();
  std::string header = fmt::format(
      "# Chosen by tessel search for {} on {} ranks (optimizer {}{}): "
      "predicted step {:.3f} ms, {} per rank, on the profile {}.\n",
      llvm::sys::path::filename(modelPath).str(), numRanks.getValue(),
      optimizer.getValue(), precisionNote, best.step.totalSeconds() * 1e3,
      search::bytesText(best.memoryBytes), profile.source);
  std::string bestYaml = best.candidate.yaml(header);
  if (!outputPath.empty() && !writeText(outputPath, bestYaml))
    return 1;

  size_t shown = std::min<size_t>(ranked.size(), top);
  // Where a compared layout would stand among the candidates.
  auto rankAmongCandidates = [&](const Evaluation &evaluation) {
    return 1 + std::count_if(ranked.begin(), ranked.end(),
                             [&](const Evaluation &candidate) {
                               return search::faster(candidate, evaluation);
                             });
  };
  if (format == Format::Json) {
    nlohmann::ordered_json json;
    json["model"] = modelPath.getValue();
    json["ranks"] = numRanks.getValue();
    json["optimizer"] = optimizer.getValue();
    json["precision"] = precision.getValue();
    json["profile"] = profile.source;
    if (budget)
      json["memory_per_rank"] = *budget;
    json["evaluated"] = evaluations.size();
    json["ranked"] = ranked.size();
    json["illegal"] = illegal;
    json["over_budget"] = overBudget;
    json["pipelined"] = pipelined;
    nlohmann::ordered_json stagesJson;
    stagesJson["segments"] = nlohmann::ordered_json::array();
    for (const search::LayerSegment &segment : pipelineSpace.segments)
      stagesJson["segments"].push_back(segment.scopes);
    stagesJson["segment_seconds"] = pipelineSpace.segmentSeconds;
    stagesJson["stage_counts"] = pipelineSpace.stageCounts;
    if (!pipelineSpace.reason.empty())
      stagesJson["not_searched"] = pipelineSpace.reason;
    json["stage_axis"] = stagesJson;
    json["seconds"] = elapsed;
    json["candidates"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < shown; ++i)
      json["candidates"].push_back(toJson(ranked[i]));
    // What was left out and why: apply-layout's or partition's first
    // error, or the memory needed.
    json["dropped"] = nlohmann::ordered_json::array();
    for (const Evaluation &evaluation : evaluations)
      if (evaluation.status != Evaluation::Ranked)
        json["dropped"].push_back(toJson(evaluation));
    json["compared"] = nlohmann::ordered_json::array();
    for (const Evaluation &evaluation : compared) {
      nlohmann::ordered_json entry = toJson(evaluation);
      if (evaluation.status == Evaluation::Ranked)
        entry["rank"] = rankAmongCandidates(evaluation);
      json["compared"].push_back(entry);
    }
    json["best"] = toJson(best);
    json["best_yaml"] = bestYaml;
    llvm::outs() << json.dump(2) << "\n";
    return 0;
  }

  llvm::outs() << fmt::format(
      "tessel search: {} on {} ranks (optimizer {}{}), profile: {}{}\n"
      "{} candidates: {} ranked, {} illegal, {} over the memory budget "
      "({:.2f} s)\n",
      modelPath.getValue(), numRanks.getValue(), optimizer.getValue(),
      precisionNote, profile.source,
      profile.description.empty() ? "" : " (" + profile.description + ")",
      evaluations.size(), ranked.size(), illegal, overBudget, elapsed);
  if (pipelineSpace.reason.empty()) {
    std::vector<std::string> starts;
    for (const search::LayerSegment &segment : pipelineSpace.segments)
      starts.push_back(segment.scopes.front());
    llvm::outs() << fmt::format(
        "stage axis: {} of them pipelined, {} stages over {} segments "
        "({})\n\n",
        pipelined, fmt::join(pipelineSpace.stageCounts, ", "),
        pipelineSpace.segments.size(), fmt::join(starts, " | "));
  } else {
    llvm::outs() << "stage axis: not searched: " << pipelineSpace.reason
                 << "\n\n";
  }
  size_t meshWidth = 4, rulesWidth = 5;
  for (size_t i = 0; i < shown; ++i) {
    meshWidth = std::max(meshWidth, ranked[i].meshText().size());
    rulesWidth = std::max(rulesWidth, ranked[i].rulesText().size());
  }
  llvm::outs() << fmt::format(
      "{:>3}  {:<{}}  {:<{}}  {:>10}  {:>10}  {:>10}  {:>10}  {:>11}  "
      "{:>11}\n",
      "#", "mesh", meshWidth, "rules", rulesWidth, "step ms", "compute",
      "comm", "hidden", "memory", "comm/step");
  for (size_t i = 0; i < shown; ++i) {
    const Evaluation &e = ranked[i];
    llvm::outs() << fmt::format(
        "{:>3}  {:<{}}  {:<{}}  {:>10.3f}  {:>10.3f}  {:>10.3f}  {:>10.3f}  "
        "{:>11}  {:>11}\n",
        i + 1, e.meshText(), meshWidth, e.rulesText(), rulesWidth,
        e.step.totalSeconds() * 1e3, e.step.computeSeconds * 1e3,
        e.step.commSeconds * 1e3, e.step.hiddenSeconds * 1e3,
        search::bytesText(e.memoryBytes), search::bytesText(e.commBytes));
  }
  if (!compared.empty())
    llvm::outs() << "\ncompared:\n";
  for (const Evaluation &e : compared) {
    if (e.status != Evaluation::Ranked) {
      llvm::outs() << fmt::format(
          "  {}: {}: {}\n", e.file,
          e.status == Evaluation::Illegal ? "illegal" : "over the budget",
          e.reason);
      continue;
    }
    llvm::outs() << fmt::format(
        "  {} (mesh {}): step {:.3f} ms (compute {:.3f}, comm {:.3f}, "
        "hidden {:.3f}), {} per rank, {} sent per step; would rank #{} of "
        "{}\n",
        e.file, e.meshText(), e.step.totalSeconds() * 1e3,
        e.step.computeSeconds * 1e3, e.step.commSeconds * 1e3,
        e.step.hiddenSeconds * 1e3,
        search::bytesText(e.memoryBytes), search::bytesText(e.commBytes),
        rankAmongCandidates(e), ranked.size() + 1);
  }
  llvm::outs() << "\nbest layout"
               << (outputPath.empty() ? "" : " (written to " + outputPath + ")")
               << ":\n"
               << bestYaml;
  return 0;
}
