//===- Checkpoint.h - Safetensors checkpoints of training state -*- C++ -*-===//
//
// A checkpoint holds every tensor that carries over from step to step (the
// results of init: parameters, optimizer state, step count) in its global
// form, in the safetensors format (safetensors/CheckpointFile.h, shared with
// the tools that import and export weights). Because tensors are global, a
// checkpoint written under one layout or rank count resumes under any
// other. It is written in parallel as a sharded checkpoint: each tensor has
// one owner rank, which assembles it from the ranks holding its distinct
// blocks and writes it into its own shard file (tensors are spread over the
// ranks by size); on reading, each rank reads only the bytes of its blocks.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_CHECKPOINT_H
#define TESSEL_RUNTIME_DRIVER_CHECKPOINT_H

#include "driver/Metadata.h"
#include "safetensors/CheckpointFile.h"

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace tessel::driver {

/// One tensor of the state: what it is, and this rank's block.
struct StateTensor {
  const ValueSpec *spec;
  void *local;
  /// The ranks that hold a block of it, in increasing order; empty: every
  /// rank of the mesh. A pipelined program's state lives on the ranks of
  /// the stages that use it; on the others `local` is null.
  std::vector<int64_t> holders = {};

  /// Whether `rank` holds a block of the tensor.
  bool heldBy(int64_t rank) const;
};

/// Collective over MPI_COMM_WORLD: gathers a tensor's blocks to rank 0 and
/// assembles the global tensor there in `global` (one copy of each distinct
/// block travels; other ranks leave `global` alone). `tensor.local` is host
/// memory. Blocks of any size travel (in pieces of at most 1 GiB, as MPI
/// counts are ints); returns true.
bool gatherGlobal(const StateTensor &tensor, const layout::Mesh &mesh,
                  int64_t rank, std::vector<unsigned char> &global,
                  std::string &error);

using safetensors::checkpointDirectory;
using safetensors::checkpointPath;
using safetensors::latestCheckpoint;
using safetensors::resolveCheckpoint;

/// Collective over MPI_COMM_WORLD: the checkpoint file that rank 0 finds
/// for `path` (resolveCheckpoint), on every rank. Ranks that looked for
/// themselves could take different files: a directory whose training job
/// writes a newer checkpoint between their looks would give each rank its
/// block of other weights. Nullopt on every rank when rank 0 found none,
/// with the reason in `error` on rank 0.
std::optional<std::string> agreedCheckpoint(const std::string &path,
                                            int64_t rank, std::string &error);

/// Collective over MPI_COMM_WORLD: the newest checkpoint in `dir` that rank
/// 0 finds (latestCheckpoint), on every rank; nullopt on every rank when
/// rank 0 finds none. --resume uses it so that no rank resumes another step
/// than the others (and then waits in another collective for ever).
std::optional<std::string> agreedLatestCheckpoint(const std::string &dir,
                                                  int64_t rank);

/// Why a training state of `state`'s tensors cannot be checkpointed by
/// name: a tensor of the name safetensors reserves, or two of one name,
/// would vanish from the file at the first checkpoint. None when it can;
/// the trainers refuse such a state before training.
std::optional<std::string>
uncheckpointableState(const std::vector<ValueSpec> &state);

/// The rank that assembles and writes each of `tensors` into its shard:
/// the largest tensors first, each to the rank holding it with the fewest
/// bytes so far (the lowest of them on a tie). The same on every rank.
std::vector<int64_t> checkpointOwners(const std::vector<StateTensor> &tensors,
                                      int64_t ranks);

/// Collective over MPI_COMM_WORLD: writes the sharded checkpoint after
/// `step` steps into `dir` (rank 0's `dir`, on every rank: they must share
/// its file system). Each tensor's owner (checkpointOwners) assembles it
/// from the ranks that hold its distinct blocks and writes its tensors to
/// its shard in a temporary directory; rank 0 then writes the index and
/// renames the directory into place (safetensors/CheckpointDirectory.h), so
/// a crash while writing leaves the previous checkpoints whole. A tensor
/// named '__metadata__' or two of one name are refused before anything is
/// written. Returns false on every rank when writing failed, with the
/// reason (of the lowest rank that failed) in `error` on every rank.
bool writeCheckpoint(const std::string &dir, int64_t step,
                     const std::vector<StateTensor> &tensors,
                     const layout::Mesh &mesh, int64_t rank,
                     std::string &error);

/// Reads `path` (a sharded checkpoint's directory or index, or a single
/// file) into the local block of each tensor this rank holds (buffers of
/// its local type) and its step count into `step`. `tensors` are the
/// program's whole state: every tensor of the file must be among them. A tensor
/// missing from the file or the program, with another dtype, shape or dims,
/// with data beyond the file's end (a truncated file) or data that fail their
/// CRC-32, a missing shard, an index that names a tensor twice, and a header
/// that is not what tessel writes, are errors naming the file and the tensor;
/// nothing in the file is trusted before it is checked. Every rank reads the
/// bytes of its own blocks (readBlocks).
bool readCheckpoint(const std::string &path,
                    const std::vector<StateTensor> &tensors,
                    const layout::Mesh &mesh, int64_t rank, int64_t &step,
                    std::string &error);

/// The same from a stream of `fileSize` bytes that `path` names in errors;
/// the checkpoint fuzzer (tests/fuzz) feeds it arbitrary bytes.
bool readCheckpoint(std::istream &file, uint64_t fileSize,
                    const std::string &path,
                    const std::vector<StateTensor> &tensors,
                    const layout::Mesh &mesh, int64_t rank, int64_t &step,
                    std::string &error);

/// The same from a checkpoint already opened.
bool readCheckpoint(safetensors::CheckpointFile &file,
                    const std::vector<StateTensor> &tensors,
                    const layout::Mesh &mesh, int64_t rank, int64_t &step,
                    std::string &error);

/// Reads the block of each tensor this rank holds from a checkpoint already
/// opened, as readCheckpoint does, but lets the file hold tensors that are not
/// among `tensors`: a forward-only or decode function reads the parameters it
/// takes out of a training checkpoint that also holds optimizer state. Only
/// the CRC chunks holding the block are read (CheckpointFile::readRuns).
bool readBlocks(safetensors::CheckpointFile &file,
                const std::vector<StateTensor> &tensors,
                const layout::Mesh &mesh, int64_t rank, std::string &error);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_CHECKPOINT_H
