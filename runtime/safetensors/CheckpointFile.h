//===- CheckpointFile.h - tessel's checkpoints as files ----------*- C++
//-*-===//
//
// A tessel checkpoint is a safetensors file of global tensors (whole, not
// one rank's block) whose __metadata__ holds "format": "tessel", the step
// count, each tensor's dim names ("dims.NAME": "pixels,hidden") and the
// CRC-32 of its bytes ("crc32.NAME"). Because the tensors are global, a
// checkpoint resumes under any layout and rank count. The driver's
// checkpoints (driver/Checkpoint.h, which gathers and scatters the blocks
// over MPI) and `tessel import-weights` / `export-weights` both write and
// read them through this file. Every message starts "checkpoint PATH: ".
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_SAFETENSORS_CHECKPOINTFILE_H
#define TESSEL_RUNTIME_SAFETENSORS_CHECKPOINTFILE_H

#include "reference/Tensor.h"
#include "safetensors/Safetensors.h"

#include <fstream>
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

/// The file a checkpoint after `step` steps has in `dir`.
std::string checkpointPath(const std::string &dir, int64_t step);

/// The checkpoint of the most steps in `dir`, if any.
std::optional<std::string> latestCheckpoint(const std::string &dir);

/// The checkpoint file that `path` (a file or directory a user gives) names:
/// the file itself, or the latest checkpoint of a directory. Nullopt with
/// the reason, starting with `path`, in `error` when there is none; a path
/// the system refuses (too long, not searchable) is such a reason.
std::optional<std::string> resolveCheckpoint(const std::string &path,
                                             std::string &error);

/// Writes the checkpoint after `step` steps into `dir` (created if need
/// be), atomically (safetensors::write). False with the reason in `error`.
bool writeCheckpointFile(const std::string &dir, int64_t step,
                         const std::vector<CheckpointTensor> &tensors,
                         std::string &error);

/// A checkpoint opened for reading.
class CheckpointFile {
public:
  /// Opens `path`: a regular safetensors file (a FIFO or device is refused
  /// before it is opened) whose __metadata__ has a step count.
  bool open(const std::string &path, std::string &error);
  /// The same from a stream of `fileSize` bytes that `path` names.
  bool open(std::istream &file, uint64_t fileSize, const std::string &path,
            std::string &error);

  const std::string &filePath() const { return path; }
  int64_t step() const { return stepCount; }
  const std::vector<std::string> &names() const { return reader.names(); }
  bool has(const std::string &name) const { return reader.has(name); }

  /// Reads tensor `name`, which must have `expected`'s dtype, shape and
  /// (when the file records them) dims, into `bytes`, checking its extent
  /// and its CRC-32.
  bool read(const std::string &name, const ref::TensorSpec &expected,
            std::vector<unsigned char> &bytes, std::string &error);
  /// Reads tensor `name` as it was written: its spec (dims from the
  /// metadata, which must have them) and bytes.
  bool read(const std::string &name, ref::TensorSpec &spec,
            std::vector<unsigned char> &bytes, std::string &error);

private:
  bool fail(const std::string &why, std::string &error) const;
  bool readChecked(const TensorEntry &entry, std::vector<unsigned char> &bytes,
                   std::string &error);

  std::string path;
  std::unique_ptr<std::ifstream> owned;
  Reader reader;
  int64_t stepCount = 0;
};

} // namespace tessel::safetensors

#endif // TESSEL_RUNTIME_SAFETENSORS_CHECKPOINTFILE_H
