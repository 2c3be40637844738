//===- Safetensors.h - The safetensors file format --------------*- C++ -*-===//
//
// A safetensors file is an 8-byte little-endian header length, a JSON
// header naming each tensor with its dtype, shape and byte range in the
// data, an optional "__metadata__" object of strings, then the raw data.
// PyTorch and Hugging Face save weights in it, and tessel's checkpoints are
// written in it (CheckpointFile.h). This is the one reader and writer of the
// format in tessel: the runtime's checkpoints and the tools that import and
// export weights both use it. Nothing in a file is trusted before it is
// checked; messages say what is wrong without the file's name, which the
// caller puts in front.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_SAFETENSORS_SAFETENSORS_H
#define TESSEL_RUNTIME_SAFETENSORS_SAFETENSORS_H

#include <cstdint>
#include <istream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel::safetensors {

/// The longest JSON header a safetensors file may have (100 MB, as the
/// format's reference implementation allows).
constexpr uint64_t kMaxHeaderBytes = 100'000'000;

/// Bytes per element of a safetensors dtype ("F32", "BF16", "I64", "BOOL",
/// ...), or 0 for a dtype the format does not define.
size_t dtypeBytes(const std::string &dtype);

/// The elements of a tensor of `dtype` stored in `bytes` (little-endian),
/// as doubles: exact for every dtype but 64-bit integers beyond 2^53.
/// False for a dtype this cannot read (the F8 ones, unknown ones).
bool decode(const std::string &dtype, const std::vector<unsigned char> &bytes,
            std::vector<double> &values);
/// Stores `values` as `dtype`: floats rounded to the nearest (f16 and bf16
/// by way of f32, so values already rounded to them, as ref::roundToType
/// rounds, are stored exactly), integers truncated toward zero. False for a
/// dtype this cannot write.
bool encode(const std::string &dtype, const std::vector<double> &values,
            std::vector<unsigned char> &bytes);

/// A tensor as its header entry describes it.
struct TensorEntry {
  std::string name;
  /// Empty when the entry's dtype is not a string.
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<int64_t> dataOffsets;
};

/// A file opened for reading: the header parsed, the data read on demand.
class Reader {
public:
  Reader();
  ~Reader();

  /// Reads the header from `file` of `fileSize` bytes: its length must lie
  /// within the file and kMaxHeaderBytes and it must be a JSON object, with
  /// "__metadata__", if present, an object. False with the reason in `why`
  /// otherwise.
  bool open(std::istream &file, uint64_t fileSize, std::string &why);

  /// The tensors' names, sorted.
  const std::vector<std::string> &names() const { return tensorNames; }
  bool has(const std::string &name) const;

  bool hasMetadata() const;
  bool hasMetadataKey(const std::string &key) const;
  /// The metadata value at `key`, if it is there and a string.
  std::optional<std::string> metadataString(const std::string &key) const;

  /// The entry of tensor `name`: it must be a JSON object whose shape and
  /// data_offsets are lists of integers (a dtype that is not a string is
  /// left empty, for the caller to name).
  bool entry(const std::string &name, TensorEntry &result,
             std::string &why) const;
  /// Checks that `entry`'s dtype is known and its data_offsets hold exactly
  /// its elements and lie within the data.
  bool checkExtent(const TensorEntry &entry, std::string &why) const;
  /// Reads the bytes of an entry that passed checkExtent.
  bool read(const TensorEntry &entry, std::vector<unsigned char> &bytes,
            std::string &why);
  /// Reads `bytes` bytes from `offset` bytes into the data of an entry that
  /// passed checkExtent (the range must lie within it) to `out`.
  bool readRange(const TensorEntry &entry, uint64_t offset, uint64_t bytes,
                 void *out, std::string &why);

private:
  /// Checks that no two tensors' data_offsets share a byte.
  bool checkNoOverlap(std::string &why) const;

  /// The parsed header (JSON stays out of this header: the MLIR tools that
  /// include it build without exceptions).
  struct Header;
  std::unique_ptr<Header> parsed;
  std::istream *file = nullptr;
  std::vector<std::string> tensorNames;
  uint64_t dataStart = 0;
  uint64_t dataBytes = 0;
};

/// A tensor to write: its bytes are `bytes` bytes at `data`.
struct TensorData {
  std::string name;
  std::string dtype;
  std::vector<int64_t> shape;
  const void *data;
  size_t bytes;
};

/// Writes the tensors and `metadata` to `path` so that the file appears
/// whole or not at all: to a temporary file in the same directory first,
/// fsync'd, renamed over `path`, and the directory fsync'd so that the
/// rename itself survives a crash. False with the reason in `error`.
bool write(const std::string &path, const std::vector<TensorData> &tensors,
           const std::map<std::string, std::string> &metadata,
           std::string &error);

/// A piece of a file to write: `bytes` bytes at `data`.
struct FilePiece {
  const void *data;
  size_t bytes;
};

/// Writes the pieces, one after the other, to `path` as write() does: a
/// temporary file beside it (".NAME.tmp"), fsync'd and renamed over `path`,
/// the directory fsync'd. False with the reason in `error`.
bool writeAtomically(const std::string &path,
                     const std::vector<FilePiece> &pieces, std::string &error);

} // namespace tessel::safetensors

#endif // TESSEL_RUNTIME_SAFETENSORS_SAFETENSORS_H
