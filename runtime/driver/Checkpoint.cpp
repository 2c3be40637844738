//===- Checkpoint.cpp - Safetensors checkpoints of the training state -----===//

#include "driver/Checkpoint.h"

#include "driver/Blocks.h"
#include "executor/Buffers.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <mpi.h>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fcntl.h>
#include <unistd.h>

namespace tessel::driver {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const char *safetensorsDtype(ref::ElementType type) {
  switch (type) {
  case ref::ElementType::F32:
    return "F32";
  case ref::ElementType::F64:
    return "F64";
  case ref::ElementType::BF16:
    return "BF16";
  case ref::ElementType::F16:
    return "F16";
  case ref::ElementType::I1:
    return "BOOL";
  case ref::ElementType::I32:
    return "I32";
  case ref::ElementType::I64:
    return "I64";
  }
  return "?";
}

/// Gathers a tensor's blocks to rank 0 and assembles the global tensor
/// there (replicas overwrite each other with the same bytes).
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

bool writeAll(int fd, const void *data, size_t bytes) {
  const char *at = static_cast<const char *>(data);
  while (bytes > 0) {
    ssize_t written = ::write(fd, at, bytes);
    if (written < 0)
      return false;
    at += written;
    bytes -= static_cast<size_t>(written);
  }
  return true;
}

/// Writes `parts` to `path` so that it appears whole or not at all: to a
/// temporary file first, fsync'd, renamed over `path`, and the directory
/// fsync'd so the rename itself survives a crash.
bool writeAtomically(const std::string &path,
                     const std::vector<std::pair<const void *, size_t>> &parts,
                     std::string &error) {
  fs::path target(path);
  std::string temporary =
      (target.parent_path() / ("." + target.filename().string() + ".tmp"))
          .string();
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    error =
        fmt::format("cannot create {}: {}", temporary, std::strerror(errno));
    return false;
  }
  bool ok = true;
  for (const auto &[data, bytes] : parts)
    ok = ok && writeAll(fd, data, bytes);
  ok = ok && ::fsync(fd) == 0;
  int savedErrno = errno;
  ok = ::close(fd) == 0 && ok;
  if (!ok || ::rename(temporary.c_str(), path.c_str()) != 0) {
    error = fmt::format("cannot write {}: {}", path,
                        std::strerror(ok ? errno : savedErrno));
    ::unlink(temporary.c_str());
    return false;
  }
  int dirFd = ::open(target.parent_path().c_str(), O_RDONLY | O_DIRECTORY);
  if (dirFd >= 0) {
    ::fsync(dirFd);
    ::close(dirFd);
  }
  return true;
}

/// The string at `key` of a JSON object, if it is one.
std::optional<std::string> stringField(const json &object,
                                       const std::string &key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string())
    return std::nullopt;
  return it->get<std::string>();
}

/// The list of integers at `key` of a JSON object; false if it is anything
/// else (a float would be cut to an integer, or overflow, if read as one).
bool integerList(const json &object, const char *key,
                 std::vector<int64_t> &values) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_array())
    return false;
  values.clear();
  for (const json &value : *it) {
    if (value.is_number_unsigned() &&
        value.get<uint64_t>() > uint64_t(INT64_MAX))
      return false;
    if (!value.is_number_integer())
      return false;
    values.push_back(value.get<int64_t>());
  }
  return true;
}

/// Parses a step count: decimal digits only, within int64_t.
bool parseCount(const std::string &text, int64_t &count) {
  const char *end = text.data() + text.size();
  auto [at, failure] = std::from_chars(text.data(), end, count);
  return failure == std::errc() && at == end && count >= 0;
}

/// The CRC-32 of a tensor's bytes, as the checkpoint's metadata spells it.
std::string crc32Of(const std::vector<unsigned char> &bytes) {
  uLong crc = ::crc32(0L, Z_NULL, 0);
  // zlib takes lengths as uInt; feed large tensors in pieces.
  for (size_t done = 0; done < bytes.size();) {
    uInt piece = static_cast<uInt>(
        std::min<size_t>(bytes.size() - done, size_t(1) << 30));
    crc = ::crc32(crc, bytes.data() + done, piece);
    done += piece;
  }
  return fmt::format("{:08x}", crc);
}

} // namespace

std::string checkpointPath(const std::string &dir, int64_t step) {
  return (fs::path(dir) / fmt::format("step-{:08d}.safetensors", step))
      .string();
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
    json header = json::object();
    json metadata = {{"step", std::to_string(step)}, {"format", "tessel"}};
    size_t offset = 0;
    std::vector<std::pair<const void *, size_t>> parts;
    for (size_t i = 0; i < tensors.size(); ++i) {
      const ValueSpec &spec = *tensors[i].spec;
      header[spec.name] = {
          {"dtype", safetensorsDtype(spec.global.type)},
          {"shape", spec.global.shape},
          {"data_offsets", {offset, offset + globals[i].size()}}};
      // safetensors has no dim names; keeping them lets a resume say which
      // dims disagree.
      metadata["dims." + spec.name] =
          fmt::format("{}", fmt::join(spec.global.dims, ","));
      // The header says what the data are; the checksum, that they are
      // still what was written (a flipped byte is otherwise undetectable).
      metadata["crc32." + spec.name] = crc32Of(globals[i]);
      offset += globals[i].size();
    }
    header["__metadata__"] = metadata;
    std::string text = header.dump();
    // Data starts 8-byte aligned, as the format recommends.
    text.append((8 - text.size() % 8) % 8, ' ');
    uint64_t length = text.size();
    unsigned char lengthBytes[8];
    for (int i = 0; i < 8; ++i)
      lengthBytes[i] = static_cast<unsigned char>(length >> (8 * i));
    parts.push_back({lengthBytes, 8});
    parts.push_back({text.data(), text.size()});
    for (const auto &global : globals)
      parts.push_back({global.data(), global.size()});
    std::error_code ignored;
    fs::create_directories(dir, ignored);
    ok = writeAtomically(checkpointPath(dir, step), parts, error);
  }
  int status = ok ? 1 : 0;
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return status == 1;
}

std::optional<std::string> latestCheckpoint(const std::string &dir) {
  std::error_code failure;
  std::optional<std::string> best;
  int64_t bestStep = -1;
  for (const fs::directory_entry &entry :
       fs::directory_iterator(dir, failure)) {
    std::string name = entry.path().filename().string();
    const std::string prefix = "step-", suffix = ".safetensors";
    if (name.size() <= prefix.size() + suffix.size() ||
        name.compare(0, prefix.size(), prefix) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    std::string digits =
        name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    if (digits.find_first_not_of("0123456789") != std::string::npos ||
        digits.size() > 18)
      continue;
    int64_t step = std::stoll(digits);
    if (step > bestStep) {
      bestStep = step;
      best = entry.path().string();
    }
  }
  return best;
}

bool readCheckpoint(const std::string &path,
                    const std::vector<StateTensor> &tensors,
                    const layout::Mesh &mesh, int64_t rank, int64_t &step,
                    std::string &error) {
  std::ifstream file(path, std::ios::binary);
  std::error_code sizeError;
  uint64_t fileSize = fs::file_size(path, sizeError);
  if (!file || sizeError) {
    error = fmt::format("checkpoint {}: cannot read it", path);
    return false;
  }
  return readCheckpoint(file, fileSize, path, tensors, mesh, rank, step, error);
}

bool readCheckpoint(std::istream &file, uint64_t fileSize,
                    const std::string &path,
                    const std::vector<StateTensor> &tensors,
                    const layout::Mesh &mesh, int64_t rank, int64_t &step,
                    std::string &error) {
  auto fail = [&](const std::string &why) {
    error = fmt::format("checkpoint {}: {}", path, why);
    return false;
  };
  unsigned char lengthBytes[8];
  if (fileSize < 8 || !file.read(reinterpret_cast<char *>(lengthBytes), 8))
    return fail(fmt::format("it has {} bytes, too few for a safetensors "
                            "header (truncated?)",
                            fileSize));
  uint64_t length = 0;
  for (int i = 7; i >= 0; --i)
    length = length << 8 | lengthBytes[i];
  if (length > fileSize - 8)
    return fail(fmt::format("its header length {} runs past the end of its {} "
                            "bytes (truncated, or not a safetensors file)",
                            length, fileSize));
  std::string text(length, '\0');
  if (!file.read(text.data(), static_cast<std::streamsize>(length)))
    return fail("cannot read its header");
  json header = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (header.is_discarded() || !header.is_object())
    return fail("its header is not a JSON object");
  uint64_t dataStart = 8 + length;
  uint64_t dataBytes = fileSize - dataStart;

  // Every value below is checked for its JSON type before it is read:
  // nlohmann's accessors throw on a mismatch, and a tampered header must be
  // an error message, not an uncaught exception.
  auto metadataEntry = header.find("__metadata__");
  if (metadataEntry == header.end() || !metadataEntry->is_object())
    return fail("its header has no __metadata__ object (not a checkpoint "
                "tessel wrote?)");
  const json &metadata = *metadataEntry;
  std::optional<std::string> stepText = stringField(metadata, "step");
  if (!stepText || !parseCount(*stepText, step))
    return fail("its __metadata__ has no step number");
  for (const auto &[name, entry] : header.items()) {
    if (name == "__metadata__")
      continue;
    bool known = false;
    for (const StateTensor &tensor : tensors)
      known = known || tensor.spec->name == name;
    if (!known)
      return fail(fmt::format("it has tensor '{}', which the program does not "
                              "have (a different model or optimizer?)",
                              name));
    if (!entry.is_object())
      return fail(
          fmt::format("tensor '{}' is not described by a JSON object", name));
  }
  for (const StateTensor &tensor : tensors) {
    const ValueSpec &spec = *tensor.spec;
    auto entry = header.find(spec.name);
    if (entry == header.end())
      return fail(fmt::format("it has no tensor '{}', which the program needs",
                              spec.name));
    std::string dtype = stringField(*entry, "dtype").value_or("");
    std::vector<int64_t> shape;
    std::vector<int64_t> offsets;
    if (!integerList(*entry, "shape", shape) ||
        !integerList(*entry, "data_offsets", offsets))
      return fail(fmt::format("tensor '{}' has no valid shape or data_offsets",
                              spec.name));
    if (dtype != safetensorsDtype(spec.global.type))
      return fail(fmt::format("tensor '{}' is {}, but the program has it as {}",
                              spec.name, dtype.empty() ? "of no dtype" : dtype,
                              safetensorsDtype(spec.global.type)));
    if (shape != spec.global.shape)
      return fail(fmt::format("tensor '{}' has shape [{}], but the program has "
                              "it as {}",
                              spec.name, fmt::join(shape, ", "),
                              spec.global.str()));
    std::string expectedDims =
        fmt::format("{}", fmt::join(spec.global.dims, ","));
    if (metadata.contains("dims." + spec.name)) {
      std::optional<std::string> dims =
          stringField(metadata, "dims." + spec.name);
      if (dims != expectedDims)
        return fail(fmt::format("tensor '{}' has dims [{}], but the program "
                                "has it as {}",
                                spec.name, dims.value_or("?"),
                                spec.global.str()));
    }
    uint64_t bytes = static_cast<uint64_t>(spec.global.numBytes());
    if (offsets.size() != 2 || offsets[0] < 0 || offsets[1] < offsets[0] ||
        static_cast<uint64_t>(offsets[1] - offsets[0]) != bytes)
      return fail(fmt::format("tensor '{}' has data_offsets [{}] that do not "
                              "hold its {} bytes",
                              spec.name, fmt::join(offsets, ", "), bytes));
    if (static_cast<uint64_t>(offsets[1]) > dataBytes)
      return fail(
          fmt::format("tensor '{}' ends at byte {} of the data, but the "
                      "file holds {} bytes of data (truncated?)",
                      spec.name, offsets[1], dataBytes));
    std::vector<unsigned char> global(bytes);
    file.clear();
    file.seekg(static_cast<std::streamoff>(dataStart + offsets[0]));
    if (!file.read(reinterpret_cast<char *>(global.data()),
                   static_cast<std::streamsize>(bytes)))
      return fail(fmt::format("cannot read tensor '{}'", spec.name));
    // Checkpoints written before the checksums were added have none.
    if (metadata.contains("crc32." + spec.name) &&
        stringField(metadata, "crc32." + spec.name) != crc32Of(global))
      return fail(fmt::format("tensor '{}' fails its CRC-32 check: its data "
                              "are damaged",
                              spec.name));
    extractBlock(global.data(), spec.global.shape,
                 layout::shardOffset(mesh, spec.tensorLayout(), rank),
                 spec.local.shape, runtime::elementBytes(spec.global.type),
                 tensor.local);
  }
  return true;
}

} // namespace tessel::driver
