//===- CheckpointFile.h - tessel's checkpoints as files ---------*- C++ -*-===//
//
// A tessel checkpoint holds global tensors (whole, not one rank's block) in
// the safetensors format, either as one file (step-N.safetensors) or, as
// training writes them, as a directory in Hugging Face's sharded format
// (step-N/ holding model.safetensors.index.json and the shard files
// model-0000K-of-0000M.safetensors, ShardIndex.h). Each file's __metadata__
// holds "format": "tessel", the step count, each tensor's dim names
// ("dims.NAME": "pixels,hidden"), the CRC-32 of its bytes ("crc32.NAME")
// and, for tensors over one chunk, the CRC-32 of each 1 MiB chunk
// ("crc32_chunks.NAME"), so that a reader taking only part of a tensor
// checks only the chunks it reads. Because the tensors are global, a
// checkpoint resumes under any layout and rank count. The driver's
// checkpoints (driver/Checkpoint.h, which moves the blocks over MPI) and
// `tessel import-weights` / `export-weights` / `tessel-eval --checkpoint`
// read them through this file. Every message starts "checkpoint PATH: ",
// PATH being the file at fault (the shard, or the index).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_SAFETENSORS_CHECKPOINTFILE_H
#define TESSEL_RUNTIME_SAFETENSORS_CHECKPOINTFILE_H

#include "reference/Tensor.h"
#include "safetensors/Safetensors.h"
#include "safetensors/ShardIndex.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel::safetensors {

/// The safetensors dtype of a tessel element type ("F32", "BOOL" for i1).
const char *dtypeOf(ref::ElementType type);
/// The element type of a safetensors dtype that tessel has, if any.
std::optional<ref::ElementType> elementTypeOf(const std::string &dtype);
/// Bytes of a tensor of `spec` as stored (i1 as one byte).
uint64_t storedBytes(const ref::TensorSpec &spec);
/// "[pixels:4, classes:3] f32", for messages.
std::string describe(const ref::TensorSpec &spec);

/// One tensor of a checkpoint, global, with its bytes (storedBytes(spec)
/// of them at `data`).
struct CheckpointTensor {
  std::string name;
  ref::TensorSpec spec;
  const void *data;
};

/// The single file a checkpoint after `step` steps has in `dir`.
std::string checkpointPath(const std::string &dir, int64_t step);
/// The directory a sharded checkpoint after `step` steps has in `dir`.
std::string checkpointDirectory(const std::string &dir, int64_t step);

/// Whether `path` is a sharded checkpoint's directory: it holds an index
/// that is a regular file (a FIFO is not read).
bool isShardedCheckpoint(const std::string &path);

/// The checkpoint of the most steps in `dir`, if any: a regular file
/// step-N.safetensors or a directory step-N holding an index (a directory
/// being written, .step-N.tmp, has neither name). A directory wins over a
/// file of the same step.
std::optional<std::string> latestCheckpoint(const std::string &dir);

/// The checkpoint that `path` (a file or directory a user gives) names:
/// the file itself, a sharded checkpoint's directory, or the latest
/// checkpoint of a directory of them. Nullopt with the reason, starting
/// with `path`, in `error` when there is none; a path the system refuses
/// (too long, not searchable) is such a reason.
std::optional<std::string> resolveCheckpoint(const std::string &path,
                                             std::string &error);

/// The __metadata__ of a checkpoint file holding `tensors` after `step`
/// steps: format, step, each tensor's dims and CRC-32s.
std::map<std::string, std::string>
checkpointMetadata(int64_t step, const std::vector<CheckpointTensor> &tensors);

/// Writes `tensors` to the file `path` with checkpointMetadata, atomically
/// (safetensors::write). False with the reason in `error`.
bool writeCheckpointTensors(const std::string &path, int64_t step,
                            const std::vector<CheckpointTensor> &tensors,
                            std::string &error);

/// Writes the single-file checkpoint after `step` steps into `dir` (created
/// if need be), atomically. False with the reason in `error`.
bool writeCheckpointFile(const std::string &dir, int64_t step,
                         const std::vector<CheckpointTensor> &tensors,
                         std::string &error);

/// A run of bytes of a tensor to read: `bytes` bytes from byte `tensorAt`
/// of the tensor's data to byte `outAt` of the reader's buffer.
struct ByteRun {
  uint64_t tensorAt;
  uint64_t bytes;
  uint64_t outAt;
};

/// A checkpoint opened for reading: one file, or a sharded checkpoint whose
/// shards are opened (and their headers checked) when a tensor of theirs
/// is first read.
class CheckpointFile {
public:
  CheckpointFile();
  ~CheckpointFile();

  /// Opens `path`: a regular safetensors file whose __metadata__ has a step
  /// count, or a sharded checkpoint (its directory or its index), whose
  /// index must name a step and shard files that exist and are regular
  /// files (a FIFO or device is refused before it is opened).
  bool open(const std::string &path, std::string &error);
  /// The same for a single file read from a stream of `fileSize` bytes
  /// that `path` names.
  bool open(std::istream &file, uint64_t fileSize, const std::string &path,
            std::string &error);

  /// The file, or the sharded checkpoint's directory.
  const std::string &filePath() const { return path; }
  /// Every file the checkpoint is made of (the index and the shards).
  std::vector<std::string> files() const;
  int64_t step() const { return stepCount; }
  const std::vector<std::string> &names() const { return tensorNames; }
  bool has(const std::string &name) const;

  /// Reads tensor `name`, which must have `expected`'s dtype, shape and
  /// (when the file records them) dims, into `bytes`, checking its extent
  /// and its CRC-32.
  bool read(const std::string &name, const ref::TensorSpec &expected,
            std::vector<unsigned char> &bytes, std::string &error);
  /// Reads tensor `name` as it was written: its spec (dims from the
  /// metadata, which must have them) and bytes.
  bool read(const std::string &name, ref::TensorSpec &spec,
            std::vector<unsigned char> &bytes, std::string &error);
  /// Reads the `runs` (sorted by tensorAt, not overlapping, within the
  /// tensor) of tensor `name`, checked as read() checks it, into `out`.
  /// Only the CRC chunks the runs touch are read and checked (the whole
  /// tensor when the file has only its whole CRC, as files written before
  /// the chunks were added).
  bool readRuns(const std::string &name, const ref::TensorSpec &expected,
                const std::vector<ByteRun> &runs, void *out,
                std::string &error);

private:
  struct Shard;
  bool fail(const std::string &why, std::string &error) const;
  bool openSharded(const std::string &directory, const std::string &index,
                   std::string &error);
  /// The opened shard holding `name`, or null with the reason in `error`.
  Shard *shardOf(const std::string &name, std::string &error);
  bool openShard(Shard &shard, std::string &error);
  /// The entry of `name`, checked against `expected` (dtype, shape, dims).
  bool checkedEntry(const std::string &name, const ref::TensorSpec &expected,
                    Shard *&shard, TensorEntry &entry, std::string &error);
  bool readChecked(Shard &shard, const TensorEntry &entry,
                   std::vector<unsigned char> &bytes, std::string &error);

  std::string path;
  std::string indexPath;
  std::vector<std::unique_ptr<Shard>> shards;
  std::map<std::string, size_t> shardOfTensor;
  std::vector<std::string> tensorNames;
  int64_t stepCount = 0;
};

} // namespace tessel::safetensors

#endif // TESSEL_RUNTIME_SAFETENSORS_CHECKPOINTFILE_H
