//===- CheckpointFile.cpp - tessel's checkpoints as files -----------------===//

#include "safetensors/CheckpointFile.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace tessel::safetensors {

namespace fs = std::filesystem;

const char *dtypeOf(ref::ElementType type) {
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

std::optional<ref::ElementType> elementTypeOf(const std::string &dtype) {
  for (ref::ElementType type :
       {ref::ElementType::F32, ref::ElementType::F64, ref::ElementType::BF16,
        ref::ElementType::F16, ref::ElementType::I1, ref::ElementType::I32,
        ref::ElementType::I64})
    if (dtype == dtypeOf(type))
      return type;
  return std::nullopt;
}

uint64_t storedBytes(const ref::TensorSpec &spec) {
  uint64_t bytes = dtypeBytes(dtypeOf(spec.type));
  for (int64_t size : spec.shape)
    bytes *= static_cast<uint64_t>(size);
  return bytes;
}

std::string describe(const ref::TensorSpec &spec) {
  std::vector<std::string> dims;
  for (size_t i = 0; i < spec.dims.size() && i < spec.shape.size(); ++i)
    dims.push_back(fmt::format("{}:{}", spec.dims[i], spec.shape[i]));
  std::string type = dtypeOf(spec.type);
  std::transform(type.begin(), type.end(), type.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return fmt::format("[{}] {}", fmt::join(dims, ", "),
                     spec.type == ref::ElementType::I1 ? "i1" : type);
}

namespace {

/// The CRC-32 of a tensor's bytes, as the checkpoint's metadata spells it.
std::string crc32Of(const void *data, size_t size) {
  const Bytef *bytes = static_cast<const Bytef *>(data);
  uLong crc = ::crc32(0L, Z_NULL, 0);
  // zlib takes lengths as uInt; feed large tensors in pieces.
  for (size_t done = 0; done < size;) {
    uInt piece =
        static_cast<uInt>(std::min<size_t>(size - done, size_t(1) << 30));
    crc = ::crc32(crc, bytes + done, piece);
    done += piece;
  }
  return fmt::format("{:08x}", crc);
}

/// Parses a step count: decimal digits only, within int64_t.
bool parseCount(const std::string &text, int64_t &count) {
  const char *end = text.data() + text.size();
  auto [at, failure] = std::from_chars(text.data(), end, count);
  return failure == std::errc() && at == end && count >= 0;
}

std::string joinDims(const std::vector<std::string> &dims) {
  return fmt::format("{}", fmt::join(dims, ","));
}

/// The bytes each "crc32_chunks.NAME" checksum covers (the last chunk of a
/// tensor may be shorter). A reader of part of a tensor reads and checks
/// whole chunks, so a chunk is small enough to read a little extra, and
/// large enough that the metadata stays small (10 hex digits a MiB).
constexpr uint64_t kCrcChunkBytes = uint64_t(1) << 20;

/// The bytes read at once when a tensor is read in parts: whole chunks up
/// to this many (or one chunk, if larger).
constexpr uint64_t kReadWindowBytes = uint64_t(64) << 20;

/// Splits "a,b,c" at its commas.
std::vector<std::string> splitCommas(const std::string &text) {
  std::vector<std::string> parts;
  if (text.empty())
    return parts;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    parts.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos)
      return parts;
    start = comma + 1;
  }
}

/// A regular file (or a link to one): a FIFO or a device would block or
/// never end when read.
bool isRegularFile(const fs::path &path) {
  std::error_code ignored;
  return fs::is_regular_file(path, ignored);
}

} // namespace

std::string checkpointPath(const std::string &dir, int64_t step) {
  return (fs::path(dir) / fmt::format("step-{:08d}.safetensors", step))
      .string();
}

std::string checkpointDirectory(const std::string &dir, int64_t step) {
  return (fs::path(dir) / fmt::format("step-{:08d}", step)).string();
}

bool isShardedCheckpoint(const std::string &path) {
  std::error_code failure;
  return fs::is_directory(path, failure) &&
         isRegularFile(fs::path(path) / kIndexFileName);
}

std::optional<std::string> latestCheckpoint(const std::string &dir) {
  std::error_code failure;
  std::optional<std::string> best;
  int64_t bestStep = -1;
  bool bestIsDirectory = false;
  for (const fs::directory_entry &entry :
       fs::directory_iterator(dir, failure)) {
    std::string name = entry.path().filename().string();
    const std::string prefix = "step-", suffix = ".safetensors";
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix))
      continue;
    // Only regular files (or links to them) and directories holding an
    // index: opening a FIFO named like a checkpoint would wait for a writer
    // forever, and a directory without an index is not a whole checkpoint.
    bool isFile =
        name.size() > prefix.size() + suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    std::string digits =
        name.substr(prefix.size(),
                    name.size() - prefix.size() - (isFile ? suffix.size() : 0));
    if (digits.empty() ||
        digits.find_first_not_of("0123456789") != std::string::npos ||
        digits.size() > 18)
      continue;
    if (isFile ? !isRegularFile(entry.path())
               : !isShardedCheckpoint(entry.path().string()))
      continue;
    int64_t step = std::stoll(digits);
    if (step > bestStep || (step == bestStep && !isFile && !bestIsDirectory)) {
      bestStep = step;
      bestIsDirectory = !isFile;
      best = entry.path().string();
    }
  }
  return best;
}

std::optional<std::string> resolveCheckpoint(const std::string &path,
                                             std::string &error) {
  std::error_code failure;
  if (fs::is_directory(path, failure)) {
    if (isShardedCheckpoint(path))
      return path;
    std::optional<std::string> latest = latestCheckpoint(path);
    if (!latest)
      error = fmt::format("{}: the directory holds no checkpoint "
                          "(step-*.safetensors, or step-* with {})",
                          path, kIndexFileName);
    return latest;
  }
  if (!fs::exists(path, failure)) {
    error = fmt::format("{}: {}", path,
                        failure ? failure.message()
                                : std::string("no such file or directory"));
    return std::nullopt;
  }
  return path;
}

std::map<std::string, std::string>
checkpointMetadata(int64_t step, const std::vector<CheckpointTensor> &tensors) {
  std::map<std::string, std::string> metadata = {
      {"step", std::to_string(step)},
      {"format", "tessel"},
      {"crc32_chunk_bytes", std::to_string(kCrcChunkBytes)}};
  for (const CheckpointTensor &tensor : tensors) {
    uint64_t bytes = storedBytes(tensor.spec);
    const auto *data = static_cast<const unsigned char *>(tensor.data);
    // safetensors has no dim names; keeping them lets a resume say which
    // dims disagree, and an export permute them by name.
    metadata["dims." + tensor.name] = joinDims(tensor.spec.dims);
    // The header says what the data are; the checksums, that they are
    // still what was written (a flipped byte is otherwise undetectable).
    // The whole tensor's CRC is combined from its chunks'.
    std::vector<std::string> chunks;
    uLong whole = ::crc32(0L, Z_NULL, 0);
    for (uint64_t at = 0; at < bytes; at += kCrcChunkBytes) {
      uint64_t length = std::min(kCrcChunkBytes, bytes - at);
      std::string chunk = crc32Of(data + at, length);
      whole = ::crc32_combine(whole, std::stoul(chunk, nullptr, 16),
                              static_cast<z_off_t>(length));
      chunks.push_back(std::move(chunk));
    }
    metadata["crc32." + tensor.name] = fmt::format("{:08x}", whole);
    if (chunks.size() > 1)
      metadata["crc32_chunks." + tensor.name] =
          fmt::format("{}", fmt::join(chunks, ","));
  }
  return metadata;
}

bool writeCheckpointTensors(const std::string &path, int64_t step,
                            const std::vector<CheckpointTensor> &tensors,
                            std::string &error) {
  std::vector<TensorData> data;
  for (const CheckpointTensor &tensor : tensors)
    data.push_back({tensor.name, dtypeOf(tensor.spec.type), tensor.spec.shape,
                    tensor.data, storedBytes(tensor.spec)});
  return write(path, data, checkpointMetadata(step, tensors), error);
}

bool writeCheckpointFile(const std::string &dir, int64_t step,
                         const std::vector<CheckpointTensor> &tensors,
                         std::string &error) {
  std::error_code ignored;
  fs::create_directories(dir, ignored);
  return writeCheckpointTensors(checkpointPath(dir, step), step, tensors,
                                error);
}

/// One file of a checkpoint, opened when first needed.
struct CheckpointFile::Shard {
  std::string path;
  /// The file's name in the index (sharded checkpoints).
  std::string name;
  std::unique_ptr<std::ifstream> owned;
  Reader reader;
  bool opened = false;

  bool fail(const std::string &why, std::string &error) const {
    error = fmt::format("checkpoint {}: {}", path, why);
    return false;
  }
  /// The value of "KEY.NAME" in the metadata, if it is a string.
  std::optional<std::string> perTensor(const char *key,
                                       const std::string &tensor) const {
    return reader.metadataString(std::string(key) + "." + tensor);
  }
};

CheckpointFile::CheckpointFile() = default;
CheckpointFile::~CheckpointFile() = default;

bool CheckpointFile::fail(const std::string &why, std::string &error) const {
  error = fmt::format("checkpoint {}: {}", path, why);
  return false;
}

bool CheckpointFile::has(const std::string &name) const {
  return shardOfTensor.count(name) > 0;
}

std::vector<std::string> CheckpointFile::files() const {
  std::vector<std::string> all;
  if (!indexPath.empty())
    all.push_back(indexPath);
  for (const std::unique_ptr<Shard> &shard : shards)
    all.push_back(shard->path);
  return all;
}

bool CheckpointFile::open(const std::string &filePath, std::string &error) {
  path = filePath;
  indexPath.clear();
  std::error_code failure;
  if (fs::is_directory(filePath, failure)) {
    if (fs::exists(fs::path(filePath) / kIndexFileName, failure))
      return openSharded(filePath,
                         (fs::path(filePath) / kIndexFileName).string(), error);
    return fail("cannot read it: it is not a regular file", error);
  }
  const std::string indexSuffix = ".index.json";
  if (filePath.size() >= indexSuffix.size() &&
      filePath.compare(filePath.size() - indexSuffix.size(), indexSuffix.size(),
                       indexSuffix) == 0) {
    std::string directory = fs::path(filePath).parent_path().string();
    return openSharded(directory.empty() ? "." : directory, filePath, error);
  }
  // A regular file only: opening a FIFO would wait for a writer forever.
  if (fs::exists(filePath, failure) && !isRegularFile(filePath))
    return fail("cannot read it: it is not a regular file", error);
  auto shard = std::make_unique<Shard>();
  shard->path = filePath;
  shard->owned = std::make_unique<std::ifstream>(filePath, std::ios::binary);
  uint64_t fileSize = fs::file_size(filePath, failure);
  if (!*shard->owned || failure)
    return fail("cannot read it", error);
  std::istream &stream = *shard->owned;
  shards.clear();
  shards.push_back(std::move(shard));
  return open(stream, fileSize, filePath, error);
}

bool CheckpointFile::open(std::istream &file, uint64_t fileSize,
                          const std::string &filePath, std::string &error) {
  path = filePath;
  indexPath.clear();
  if (shards.empty() || shards.front()->path != filePath) {
    shards.clear();
    shards.push_back(std::make_unique<Shard>());
    shards.front()->path = filePath;
  }
  Shard &shard = *shards.front();
  std::string why;
  if (!shard.reader.open(file, fileSize, why))
    return fail(why, error);
  if (!shard.reader.hasMetadata())
    return fail("its header has no __metadata__ object (not a checkpoint "
                "tessel wrote?)",
                error);
  std::optional<std::string> stepText = shard.reader.metadataString("step");
  if (!stepText || !parseCount(*stepText, stepCount))
    return fail("its __metadata__ has no step number", error);
  shard.opened = true;
  tensorNames = shard.reader.names();
  shardOfTensor.clear();
  for (const std::string &name : tensorNames)
    shardOfTensor[name] = 0;
  return true;
}

bool CheckpointFile::openSharded(const std::string &directory,
                                 const std::string &index, std::string &error) {
  path = directory;
  indexPath = index;
  shards.clear();
  shardOfTensor.clear();
  tensorNames.clear();
  // What is wrong with the index names the index.
  auto fail = [&](const std::string &why, std::string &error) {
    error = fmt::format("checkpoint {}: {}", indexPath, why);
    return false;
  };
  std::error_code failure;
  if (!isRegularFile(index))
    return fail(fs::exists(index, failure)
                    ? "cannot read it: it is not a regular file"
                    : "cannot read it: no such file",
                error);
  uint64_t size = fs::file_size(index, failure);
  if (failure)
    return fail("cannot read it: " + failure.message(), error);
  if (size > kMaxHeaderBytes)
    return fail(fmt::format("it has {} bytes, more than the {} an index may "
                            "have (not an index?)",
                            size, kMaxHeaderBytes),
                error);
  std::ifstream file(index, std::ios::binary);
  std::string text(size, '\0');
  if (!file || !file.read(text.data(), static_cast<std::streamsize>(size)))
    return fail("cannot read it", error);
  ShardIndex parsed;
  std::string why;
  if (!parseShardIndex(text, parsed, why))
    return fail(why, error);
  if (!parsed.step)
    return fail("its metadata has no step number (not a checkpoint tessel "
                "wrote?)",
                error);
  stepCount = *parsed.step;
  std::map<std::string, size_t> shardOfFile;
  for (const std::string &name : parsed.files) {
    shardOfFile[name] = shards.size();
    auto shard = std::make_unique<Shard>();
    shard->name = name;
    shard->path = (fs::path(directory) / name).string();
    shards.push_back(std::move(shard));
  }
  for (const auto &[tensor, file] : parsed.weightMap) {
    tensorNames.push_back(tensor);
    shardOfTensor[tensor] = shardOfFile[file];
  }
  // Every shard must be there before any is read: a missing one is a
  // checkpoint that cannot be resumed, whichever rank would read it.
  for (const std::unique_ptr<Shard> &shard : shards) {
    if (isRegularFile(shard->path))
      continue;
    std::string holds;
    for (const auto &[tensor, file] : parsed.weightMap)
      if (file == shard->name) {
        holds = tensor;
        break;
      }
    bool exists = fs::exists(shard->path, failure);
    return fail(fmt::format("its shard {}, which holds tensor '{}', {}",
                            shard->path, holds,
                            exists ? "is not a regular file" : "is missing"),
                error);
  }
  return true;
}

bool CheckpointFile::openShard(Shard &shard, std::string &error) {
  if (shard.opened)
    return true;
  // Checked again: the file may have been replaced since the index was
  // read, and a FIFO would block.
  if (!isRegularFile(shard.path))
    return shard.fail("cannot read it: it is missing or not a regular file",
                      error);
  std::error_code failure;
  uint64_t size = fs::file_size(shard.path, failure);
  shard.owned = std::make_unique<std::ifstream>(shard.path, std::ios::binary);
  if (!*shard.owned || failure)
    return shard.fail("cannot read it", error);
  std::string why;
  if (!shard.reader.open(*shard.owned, size, why))
    return shard.fail(why, error);
  int64_t shardStep = 0;
  std::optional<std::string> stepText = shard.reader.metadataString("step");
  if (stepText && (!parseCount(*stepText, shardStep) || shardStep != stepCount))
    return shard.fail(fmt::format("its step '{}' is not the step {} of {} (a "
                                  "shard of another checkpoint?)",
                                  *stepText, stepCount, indexPath),
                      error);
  // A tensor the index gives to another file, or does not name, would be
  // read from one file and not the other without a word.
  for (const std::string &name : shard.reader.names()) {
    auto it = shardOfTensor.find(name);
    if (it == shardOfTensor.end())
      return shard.fail(fmt::format("it holds tensor '{}', which {} does not "
                                    "name",
                                    name, indexPath),
                        error);
    if (shards[it->second].get() != &shard)
      return shard.fail(fmt::format("it holds tensor '{}', which {} gives to "
                                    "{}",
                                    name, indexPath, shards[it->second]->name),
                        error);
  }
  shard.opened = true;
  return true;
}

CheckpointFile::Shard *CheckpointFile::shardOf(const std::string &name,
                                               std::string &error) {
  auto it = shardOfTensor.find(name);
  if (it == shardOfTensor.end())
    return nullptr;
  Shard &shard = *shards[it->second];
  if (!openShard(shard, error))
    return nullptr;
  if (!shard.reader.has(name)) {
    shard.fail(fmt::format("it has no tensor '{}', which {} says it holds",
                           name, indexPath),
               error);
    return nullptr;
  }
  return &shard;
}

bool CheckpointFile::readChecked(Shard &shard, const TensorEntry &entry,
                                 std::vector<unsigned char> &bytes,
                                 std::string &error) {
  std::string why;
  if (!shard.reader.checkExtent(entry, why) ||
      !shard.reader.read(entry, bytes, why))
    return shard.fail(why, error);
  // Checkpoints written before the checksums were added have none.
  std::optional<std::string> crc = shard.perTensor("crc32", entry.name);
  if (shard.reader.hasMetadataKey("crc32." + entry.name) &&
      crc != crc32Of(bytes.data(), bytes.size()))
    return shard.fail(fmt::format("tensor '{}' fails its CRC-32 check: its "
                                  "data are damaged",
                                  entry.name),
                      error);
  return true;
}

bool CheckpointFile::checkedEntry(const std::string &name,
                                  const ref::TensorSpec &expected,
                                  Shard *&shard, TensorEntry &entry,
                                  std::string &error) {
  if (!has(name))
    return fail(
        fmt::format("it has no tensor '{}', which the program needs", name),
        error);
  shard = shardOf(name, error);
  if (!shard)
    return false;
  std::string why;
  if (!shard->reader.entry(name, entry, why))
    return shard->fail(why, error);
  std::string dtype = dtypeOf(expected.type);
  if (entry.dtype != dtype)
    return shard->fail(
        fmt::format("tensor '{}' is {}, but the program has it as {}", name,
                    entry.dtype.empty() ? "of no dtype" : entry.dtype, dtype),
        error);
  if (entry.shape != expected.shape)
    return shard->fail(fmt::format("tensor '{}' has shape [{}], but the "
                                   "program has it as {}",
                                   name, fmt::join(entry.shape, ", "),
                                   describe(expected)),
                       error);
  if (shard->reader.hasMetadataKey("dims." + name)) {
    std::optional<std::string> dims = shard->perTensor("dims", name);
    if (dims != joinDims(expected.dims))
      return shard->fail(fmt::format("tensor '{}' has dims [{}], but the "
                                     "program has it as {}",
                                     name, dims.value_or("?"),
                                     describe(expected)),
                         error);
  }
  return true;
}

bool CheckpointFile::read(const std::string &name,
                          const ref::TensorSpec &expected,
                          std::vector<unsigned char> &bytes,
                          std::string &error) {
  Shard *shard = nullptr;
  TensorEntry entry;
  return checkedEntry(name, expected, shard, entry, error) &&
         readChecked(*shard, entry, bytes, error);
}

bool CheckpointFile::readRuns(const std::string &name,
                              const ref::TensorSpec &expected,
                              const std::vector<ByteRun> &runs, void *out,
                              std::string &error) {
  Shard *shard = nullptr;
  TensorEntry entry;
  std::string why;
  if (!checkedEntry(name, expected, shard, entry, error))
    return false;
  if (!shard->reader.checkExtent(entry, why))
    return shard->fail(why, error);
  uint64_t tensorBytes =
      static_cast<uint64_t>(entry.dataOffsets[1] - entry.dataOffsets[0]);
  // The units that are read and checked whole: the chunks of the chunk
  // CRCs; else the tensor, when it has one CRC; else (no checksums) 1 MiB
  // pieces, read unchecked.
  uint64_t unit = kCrcChunkBytes;
  std::vector<std::string> crcs;
  std::optional<std::string> chunkList = shard->perTensor("crc32_chunks", name);
  std::optional<std::string> whole = shard->perTensor("crc32", name);
  if (chunkList) {
    std::optional<std::string> chunkText =
        shard->reader.metadataString("crc32_chunk_bytes");
    int64_t chunkBytes = 0;
    crcs = splitCommas(*chunkList);
    if (!chunkText || !parseCount(*chunkText, chunkBytes) || chunkBytes <= 0 ||
        crcs.size() != (tensorBytes + static_cast<uint64_t>(chunkBytes) - 1) /
                           static_cast<uint64_t>(chunkBytes))
      return shard->fail(fmt::format("the crc32_chunks of tensor '{}' do not "
                                     "cover its {} bytes in chunks of "
                                     "crc32_chunk_bytes",
                                     name, tensorBytes),
                         error);
    unit = static_cast<uint64_t>(chunkBytes);
  } else if (whole) {
    unit = std::max<uint64_t>(tensorBytes, 1);
    crcs = {*whole};
  } else if (shard->reader.hasMetadataKey("crc32." + name)) {
    return shard->fail(fmt::format("tensor '{}' fails its CRC-32 check: its "
                                   "data are damaged",
                                   name),
                       error);
  }
  // The units the runs touch, in order, each once.
  std::vector<uint64_t> touched;
  for (const ByteRun &run : runs) {
    if (run.bytes == 0)
      continue;
    for (uint64_t u = run.tensorAt / unit;
         u <= (run.tensorAt + run.bytes - 1) / unit; ++u)
      if (touched.empty() || touched.back() < u)
        touched.push_back(u);
  }
  std::vector<unsigned char> window;
  size_t next = 0, firstRun = 0;
  while (next < touched.size()) {
    // Consecutive units, up to kReadWindowBytes, are read at once.
    size_t last = next;
    while (last + 1 < touched.size() &&
           touched[last + 1] == touched[last] + 1 &&
           (touched[last + 1] + 1 - touched[next]) * unit <= kReadWindowBytes)
      ++last;
    uint64_t start = touched[next] * unit;
    uint64_t end = std::min((touched[last] + 1) * unit, tensorBytes);
    window.resize(static_cast<size_t>(end - start));
    if (!shard->reader.readRange(entry, start, end - start, window.data(), why))
      return shard->fail(why, error);
    for (size_t u = next; u <= last && !crcs.empty(); ++u) {
      uint64_t at = touched[u] * unit - start;
      uint64_t length = std::min(unit, end - start - at);
      if (crcs[touched[u]] != crc32Of(window.data() + at, length))
        return shard->fail(
            fmt::format("tensor '{}' fails its CRC-32 check{}: its data are "
                        "damaged",
                        name,
                        crcs.size() > 1
                            ? fmt::format(" (bytes {} to {})", start + at,
                                          start + at + length)
                            : ""),
            error);
    }
    while (firstRun < runs.size() &&
           runs[firstRun].tensorAt + runs[firstRun].bytes <= start)
      ++firstRun;
    for (size_t r = firstRun; r < runs.size() && runs[r].tensorAt < end; ++r) {
      uint64_t from = std::max(runs[r].tensorAt, start);
      uint64_t to = std::min(runs[r].tensorAt + runs[r].bytes, end);
      if (from < to)
        std::memcpy(static_cast<unsigned char *>(out) + runs[r].outAt +
                        (from - runs[r].tensorAt),
                    window.data() + (from - start), to - from);
    }
    next = last + 1;
  }
  return true;
}

bool CheckpointFile::read(const std::string &name, ref::TensorSpec &spec,
                          std::vector<unsigned char> &bytes,
                          std::string &error) {
  TensorEntry entry;
  std::string why;
  if (!has(name))
    return fail(fmt::format("it has no tensor '{}'", name), error);
  Shard *shard = shardOf(name, error);
  if (!shard)
    return false;
  if (!shard->reader.entry(name, entry, why))
    return shard->fail(why, error);
  std::optional<ref::ElementType> type = elementTypeOf(entry.dtype);
  if (!type)
    return shard->fail(
        fmt::format("tensor '{}' is {}, which tessel has no type for", name,
                    entry.dtype.empty() ? "of no dtype" : entry.dtype),
        error);
  std::optional<std::string> dims = shard->perTensor("dims", name);
  if (!dims)
    return shard->fail(
        fmt::format("its __metadata__ has no dims of tensor '{}'", name),
        error);
  spec.dims = splitCommas(*dims);
  if (spec.dims.size() != entry.shape.size())
    return shard->fail(fmt::format("tensor '{}' has shape [{}] but dims [{}]",
                                   name, fmt::join(entry.shape, ", "), *dims),
                       error);
  spec.shape = entry.shape;
  spec.type = *type;
  return readChecked(*shard, entry, bytes, error);
}

} // namespace tessel::safetensors
