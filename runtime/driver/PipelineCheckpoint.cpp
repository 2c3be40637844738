//===- PipelineCheckpoint.cpp - Checkpoints of a pipelined program --------===//

#include "driver/PipelineCheckpoint.h"

#include "driver/HostCopies.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>

namespace tessel::driver {

std::optional<PipelineState>
PipelineState::build(const ProgramMetadata &metadata, int64_t stage,
                     int64_t rank, std::string &error) {
  const layout::Mesh &mesh = metadata.mesh;
  const PipelineSpec &pipeline = *metadata.pipeline;
  unsigned axis = *mesh.axisIndex(pipeline.axis);
  PipelineState state;
  state.mesh = &metadata.mesh;
  state.rank = rank;
  std::map<std::string, size_t> index;
  // The stage that first holds each name, for the error below.
  std::vector<int64_t> firstStage;
  for (int64_t s = 0; s < static_cast<int64_t>(pipeline.stages.size()); ++s) {
    const FunctionSpec *init = metadata.findFunction(pipeline.stages[s].init);
    std::vector<int64_t> ranks;
    for (int64_t r = 0; r < mesh.numRanks(); ++r)
      if (mesh.coordinatesOf(r)[axis] == s)
        ranks.push_back(r);
    // Refused before training rather than at the first checkpoint.
    if (std::optional<std::string> why = uncheckpointableState(init->results)) {
      error = fmt::format("stage {}: {}", s, *why);
      return std::nullopt;
    }
    for (const ValueSpec &spec : init->results) {
      auto [it, added] = index.emplace(spec.name, state.entries.size());
      if (added) {
        state.entries.push_back({&spec, ranks, s == stage});
        firstStage.push_back(s);
        continue;
      }
      Entry &entry = state.entries[it->second];
      if (spec.global.shape != entry.spec->global.shape ||
          spec.global.dims != entry.spec->global.dims ||
          spec.global.type != entry.spec->global.type ||
          spec.axes != entry.spec->axes) {
        error = fmt::format(
            "stages {} and {} both hold '{}', in different types or "
            "layouts: it cannot be one tensor of a checkpoint",
            firstStage[it->second], s, spec.name);
        return std::nullopt;
      }
      std::vector<int64_t> holders;
      std::merge(entry.holders.begin(), entry.holders.end(), ranks.begin(),
                 ranks.end(), std::back_inserter(holders));
      entry.holders = std::move(holders);
      if (s == stage) {
        entry.spec = &spec;
        entry.mine = true;
      }
    }
  }
  return state;
}

std::vector<StateTensor> PipelineState::ownBuffers(
    const std::function<void *(const std::string &)> &bufferOf) const {
  std::vector<StateTensor> own;
  for (const Entry &entry : entries)
    if (entry.mine)
      own.push_back({entry.spec, bufferOf(entry.spec->name)});
  return own;
}

std::vector<StateTensor>
PipelineState::tensors(const std::vector<StateTensor> &blocks) const {
  std::vector<StateTensor> all;
  size_t next = 0;
  for (const Entry &entry : entries)
    all.push_back({entry.spec, entry.mine ? blocks[next++].local : nullptr,
                   entry.holders});
  return all;
}

bool PipelineState::write(
    tessel_context_t &context, const std::string &dir, int64_t step,
    const std::function<void *(const std::string &)> &bufferOf,
    std::string &error) const {
  HostCopies copies(context, ownBuffers(bufferOf));
  copies.fetch();
  return writeCheckpoint(dir, step, tensors(copies.tensors()), *mesh, rank,
                         error);
}

bool PipelineState::read(
    tessel_context_t &context, const std::string &path,
    const std::function<void *(const std::string &)> &bufferOf, int64_t &step,
    std::string &error) const {
  HostCopies copies(context, ownBuffers(bufferOf));
  if (!readCheckpoint(path, tensors(copies.tensors()), *mesh, rank, step,
                      error))
    return false;
  copies.store();
  return true;
}

} // namespace tessel::driver
