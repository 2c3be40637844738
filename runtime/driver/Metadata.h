//===- Metadata.h - The program's description of itself ---------*- C++ -*-===//
//
// A compiled program exports tessel_program_metadata (the format is in
// tessel/runtime/program.h): its mesh, and for each function the name,
// global and local type and layout of every argument and result. The driver
// learns from it which data to feed, which buffers carry over from step to
// step, and which block of each tensor this rank holds.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_METADATA_H
#define TESSEL_RUNTIME_DRIVER_METADATA_H

#include "executor/Descriptor.h"
#include "layouts/Mesh.h"
#include "layouts/Sharding.h"

#include <optional>
#include <string>
#include <vector>

namespace tessel::driver {

using runtime::TensorType;

/// One argument or result of a function.
struct ValueSpec {
  std::string name;
  TensorType global;
  TensorType local;
  /// The mesh axes that split each dim of `global`, in its dim order (empty
  /// for a replicated dim).
  std::vector<layout::AxisList> axes;
  /// What a trained tensor is ("parameter", "buffer", "optimizer_state");
  /// empty for data.
  std::string role;

  /// The layout maths' view of this value.
  layout::TensorLayout tensorLayout() const {
    return {global.dims, global.shape, axes};
  }
};

struct FunctionSpec {
  std::string name;
  std::string symbol;
  std::vector<ValueSpec> arguments;
  std::vector<ValueSpec> results;

  const ValueSpec *findArgument(const std::string &name) const;
};

/// The four functions of one pipeline stage (docs/pipeline.md).
struct PipelineStageSpec {
  std::string init;
  std::string forward;
  std::string backward;
  std::string apply;
  /// The stage's part of the model's evaluate (forward only); empty when
  /// the program has none.
  std::string evaluate;
};

/// A pipelined program's "pipeline" object: the stages are the coordinates
/// of `axis`, and every data argument of a stage function is one of the
/// `microbatches` micro-batches of a step.
struct PipelineSpec {
  std::string axis;
  int64_t microbatches = 1;
  /// "gpipe" or "1f1b".
  std::string schedule;
  bool remat = false;
  /// The dim of the data arguments that holds the examples.
  std::string batchDim;
  /// Stage s is stages[s]; as many as the axis is long.
  std::vector<PipelineStageSpec> stages;

  /// Whether the program evaluates: every stage has its part of evaluate.
  bool evaluates() const {
    for (const PipelineStageSpec &stage : stages)
      if (stage.evaluate.empty())
        return false;
    return !stages.empty();
  }
};

struct ProgramMetadata {
  layout::Mesh mesh;
  std::vector<FunctionSpec> functions;
  /// Present for a pipelined program, which has stage functions instead of
  /// init and train_step.
  std::optional<PipelineSpec> pipeline;

  const FunctionSpec *findFunction(const std::string &name) const;
};

/// Parses and checks the metadata: a valid mesh, and for every value a
/// layout that the mesh can apply to its global type and that gives its
/// local type; and for a pipelined program a stage per coordinate of an axis
/// of the mesh, each with functions that the metadata lists. Returns
/// nothing and says why in `error` otherwise.
std::optional<ProgramMetadata> parseMetadata(const char *text,
                                             std::string &error);

/// "data:2 x model:2", as the communicator spells a mesh.
std::string describeMesh(const layout::Mesh &mesh);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_METADATA_H
