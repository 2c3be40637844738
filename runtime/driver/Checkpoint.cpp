//===- Checkpoint.cpp - Safetensors checkpoints of the training state -----===//

#include "driver/Checkpoint.h"

#include "driver/Blocks.h"
#include "executor/Buffers.h"

#include <fmt/format.h>
#include <mpi.h>

#include <climits>
#include <cstdint>

namespace tessel::driver {

bool gatherGlobal(const StateTensor &tensor, const layout::Mesh &mesh,
                  int64_t rank, std::vector<unsigned char> &global,
                  std::string &error) {
  const ValueSpec &spec = *tensor.spec;
  int64_t localBytes = spec.local.numBytes();
  if (localBytes > INT_MAX) {
    error = fmt::format("tensor '{}' has a block of {} bytes, more than one "
                        "MPI message holds",
                        spec.name, localBytes);
    return false;
  }
  int64_t ranks = mesh.numRanks();
  std::vector<unsigned char> blocks(rank == 0 ? localBytes * ranks : 0);
  MPI_Gather(tensor.local, static_cast<int>(localBytes), MPI_BYTE,
             blocks.data(), static_cast<int>(localBytes), MPI_BYTE, 0,
             MPI_COMM_WORLD);
  if (rank != 0)
    return true;
  global.assign(spec.global.numBytes(), 0);
  size_t elementBytes = runtime::elementBytes(spec.global.type);
  for (int64_t r = 0; r < ranks; ++r)
    placeBlock(blocks.data() + r * localBytes, spec.local.shape,
               layout::shardOffset(mesh, spec.tensorLayout(), r),
               spec.global.shape, elementBytes, global.data());
  return true;
}

bool writeCheckpoint(const std::string &dir, int64_t step,
                     const std::vector<StateTensor> &tensors,
                     const layout::Mesh &mesh, int64_t rank,
                     std::string &error) {
  std::vector<std::vector<unsigned char>> globals(tensors.size());
  bool ok = true;
  for (size_t i = 0; i < tensors.size() && ok; ++i)
    ok = gatherGlobal(tensors[i], mesh, rank, globals[i], error);
  if (rank == 0 && ok) {
    std::vector<safetensors::CheckpointTensor> whole;
    for (size_t i = 0; i < tensors.size(); ++i)
      whole.push_back({tensors[i].spec->name, tensors[i].spec->global.spec(),
                       globals[i].data()});
    ok = safetensors::writeCheckpointFile(dir, step, whole, error);
  }
  int status = ok ? 1 : 0;
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return status == 1;
}

bool readCheckpoint(const std::string &path,
                    const std::vector<StateTensor> &tensors,
                    const layout::Mesh &mesh, int64_t rank, int64_t &step,
                    std::string &error) {
  safetensors::CheckpointFile file;
  return file.open(path, error) &&
         readCheckpoint(file, tensors, mesh, rank, step, error);
}

bool readCheckpoint(std::istream &stream, uint64_t fileSize,
                    const std::string &path,
                    const std::vector<StateTensor> &tensors,
                    const layout::Mesh &mesh, int64_t rank, int64_t &step,
                    std::string &error) {
  safetensors::CheckpointFile file;
  return file.open(stream, fileSize, path, error) &&
         readCheckpoint(file, tensors, mesh, rank, step, error);
}

bool readCheckpoint(safetensors::CheckpointFile &file,
                    const std::vector<StateTensor> &tensors,
                    const layout::Mesh &mesh, int64_t rank, int64_t &step,
                    std::string &error) {
  step = file.step();
  for (const std::string &name : file.names()) {
    bool known = false;
    for (const StateTensor &tensor : tensors)
      known = known || tensor.spec->name == name;
    if (!known) {
      error = fmt::format("checkpoint {}: it has tensor '{}', which the "
                          "program does not have (a different model or "
                          "optimizer?)",
                          file.filePath(), name);
      return false;
    }
  }
  return readBlocks(file, tensors, mesh, rank, error);
}

bool readBlocks(safetensors::CheckpointFile &file,
                const std::vector<StateTensor> &tensors,
                const layout::Mesh &mesh, int64_t rank, std::string &error) {
  std::vector<unsigned char> global;
  for (const StateTensor &tensor : tensors) {
    const ValueSpec &spec = *tensor.spec;
    if (!file.read(spec.name, spec.global.spec(), global, error))
      return false;
    extractBlock(global.data(), spec.global.shape,
                 layout::shardOffset(mesh, spec.tensorLayout(), rank),
                 spec.local.shape, runtime::elementBytes(spec.global.type),
                 tensor.local);
  }
  return true;
}

namespace {

/// Collective over MPI_COMM_WORLD: rank 0's `found` on every rank.
std::optional<std::string>
broadcastFromRankZero(const std::optional<std::string> &found, int64_t rank) {
  // The path's length, or all ones when rank 0 found none.
  uint64_t length = found ? found->size() : UINT64_MAX;
  MPI_Bcast(&length, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (length == UINT64_MAX || length > INT_MAX)
    return std::nullopt;
  std::string agreed = rank == 0 ? *found : std::string(length, '\0');
  MPI_Bcast(agreed.data(), static_cast<int>(length), MPI_CHAR, 0,
            MPI_COMM_WORLD);
  return agreed;
}

} // namespace

std::optional<std::string> agreedCheckpoint(const std::string &path,
                                            int64_t rank, std::string &error) {
  std::optional<std::string> found;
  if (rank == 0)
    found = resolveCheckpoint(path, error);
  return broadcastFromRankZero(found, rank);
}

std::optional<std::string> agreedLatestCheckpoint(const std::string &dir,
                                                  int64_t rank) {
  std::optional<std::string> found;
  if (rank == 0)
    found = latestCheckpoint(dir);
  return broadcastFromRankZero(found, rank);
}

} // namespace tessel::driver
