//===- PipelineCheckpoint.h - Checkpoints of pipelined programs -*- C++ -*-===//
//
// A pipelined program's state is spread over its stages: each stage's ranks
// hold the parameters and optimizer state of its layers, and a weight two
// stages share (a tied embedding), like the step count, is held by both.
// Its checkpoint is the one an unpipelined program of the same model
// writes (Checkpoint.h): every tensor once, in its global form, under the
// same names, so that a checkpoint of either resumes the other, under any
// layout.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_PIPELINECHECKPOINT_H
#define TESSEL_RUNTIME_DRIVER_PIPELINECHECKPOINT_H

#include "driver/Checkpoint.h"
#include "driver/Metadata.h"
#include "tessel/runtime/program.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tessel::driver {

class PipelineState {
public:
  /// The state of every stage of `metadata`'s pipeline (the results of the
  /// stages' init functions), each name once, held by the ranks of the
  /// stages that have it; this rank, `rank`, holds those of `stage`. Two
  /// stages that give one name different types or layouts are an error.
  static std::optional<PipelineState> build(const ProgramMetadata &metadata,
                                            int64_t stage, int64_t rank,
                                            std::string &error);

  /// Collective over MPI_COMM_WORLD: writes the checkpoint after `step`
  /// steps into `dir`, this rank's blocks read from `bufferOf` (its
  /// stage's state buffers by name).
  bool write(tessel_context_t &context, const std::string &dir, int64_t step,
             const std::function<void *(const std::string &)> &bufferOf,
             std::string &error) const;

  /// Reads the checkpoint `path` into this rank's state buffers
  /// (`bufferOf`) and its step count into `step`. Every tensor of the file
  /// must be in some stage's state.
  bool read(tessel_context_t &context, const std::string &path,
            const std::function<void *(const std::string &)> &bufferOf,
            int64_t &step, std::string &error) const;

private:
  struct Entry {
    /// This rank's stage's spec where it holds the tensor, else the first
    /// holding stage's.
    const ValueSpec *spec;
    std::vector<int64_t> holders;
    bool mine;
  };

  /// `blocks`: this rank's host copies of its own tensors, in entries'
  /// order.
  std::vector<StateTensor>
  tensors(const std::vector<StateTensor> &blocks) const;
  std::vector<StateTensor>
  ownBuffers(const std::function<void *(const std::string &)> &bufferOf) const;

  const layout::Mesh *mesh = nullptr;
  int64_t rank = 0;
  std::vector<Entry> entries;
};

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_PIPELINECHECKPOINT_H
