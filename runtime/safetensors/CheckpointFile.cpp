//===- CheckpointFile.cpp - tessel's checkpoints as files -----------------===//

#include "safetensors/CheckpointFile.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <filesystem>

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

} // namespace

std::string checkpointPath(const std::string &dir, int64_t step) {
  return (fs::path(dir) / fmt::format("step-{:08d}.safetensors", step))
      .string();
}

std::optional<std::string> latestCheckpoint(const std::string &dir) {
  std::error_code failure;
  std::optional<std::string> best;
  int64_t bestStep = -1;
  for (const fs::directory_entry &entry :
       fs::directory_iterator(dir, failure)) {
    // Only regular files (or links to them): opening a FIFO named like a
    // checkpoint would wait for a writer forever.
    std::error_code notRegular;
    if (!entry.is_regular_file(notRegular))
      continue;
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

std::optional<std::string> resolveCheckpoint(const std::string &path,
                                             std::string &error) {
  std::error_code failure;
  if (fs::is_directory(path, failure)) {
    std::optional<std::string> latest = latestCheckpoint(path);
    if (!latest)
      error = fmt::format("{}: the directory holds no checkpoint "
                          "(step-*.safetensors)",
                          path);
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

bool writeCheckpointFile(const std::string &dir, int64_t step,
                         const std::vector<CheckpointTensor> &tensors,
                         std::string &error) {
  std::map<std::string, std::string> metadata = {{"step", std::to_string(step)},
                                                 {"format", "tessel"}};
  std::vector<TensorData> data;
  for (const CheckpointTensor &tensor : tensors) {
    size_t bytes = storedBytes(tensor.spec);
    data.push_back({tensor.name, dtypeOf(tensor.spec.type), tensor.spec.shape,
                    tensor.data, bytes});
    // safetensors has no dim names; keeping them lets a resume say which
    // dims disagree, and an export permute them by name.
    metadata["dims." + tensor.name] = joinDims(tensor.spec.dims);
    // The header says what the data are; the checksum, that they are still
    // what was written (a flipped byte is otherwise undetectable).
    metadata["crc32." + tensor.name] = crc32Of(tensor.data, bytes);
  }
  std::error_code ignored;
  fs::create_directories(dir, ignored);
  return write(checkpointPath(dir, step), data, metadata, error);
}

bool CheckpointFile::fail(const std::string &why, std::string &error) const {
  error = fmt::format("checkpoint {}: {}", path, why);
  return false;
}

bool CheckpointFile::open(const std::string &filePath, std::string &error) {
  path = filePath;
  // A regular file only: opening a FIFO would wait for a writer forever.
  std::error_code notRegular;
  if (fs::exists(filePath, notRegular) &&
      !fs::is_regular_file(filePath, notRegular))
    return fail("cannot read it: it is not a regular file", error);
  owned = std::make_unique<std::ifstream>(filePath, std::ios::binary);
  std::error_code sizeError;
  uint64_t fileSize = fs::file_size(filePath, sizeError);
  if (!*owned || sizeError)
    return fail("cannot read it", error);
  return open(*owned, fileSize, filePath, error);
}

bool CheckpointFile::open(std::istream &file, uint64_t fileSize,
                          const std::string &filePath, std::string &error) {
  path = filePath;
  std::string why;
  if (!reader.open(file, fileSize, why))
    return fail(why, error);
  if (!reader.hasMetadata())
    return fail("its header has no __metadata__ object (not a checkpoint "
                "tessel wrote?)",
                error);
  std::optional<std::string> stepText = reader.metadataString("step");
  if (!stepText || !parseCount(*stepText, stepCount))
    return fail("its __metadata__ has no step number", error);
  return true;
}

bool CheckpointFile::readChecked(const TensorEntry &entry,
                                 std::vector<unsigned char> &bytes,
                                 std::string &error) {
  std::string why;
  if (!reader.checkExtent(entry, why) || !reader.read(entry, bytes, why))
    return fail(why, error);
  // Checkpoints written before the checksums were added have none.
  const std::string key = "crc32." + entry.name;
  if (reader.hasMetadataKey(key) &&
      reader.metadataString(key) != crc32Of(bytes.data(), bytes.size()))
    return fail(fmt::format("tensor '{}' fails its CRC-32 check: its data "
                            "are damaged",
                            entry.name),
                error);
  return true;
}

bool CheckpointFile::read(const std::string &name,
                          const ref::TensorSpec &expected,
                          std::vector<unsigned char> &bytes,
                          std::string &error) {
  TensorEntry entry;
  std::string why;
  if (!reader.has(name))
    return fail(
        fmt::format("it has no tensor '{}', which the program needs", name),
        error);
  if (!reader.entry(name, entry, why))
    return fail(why, error);
  std::string dtype = dtypeOf(expected.type);
  if (entry.dtype != dtype)
    return fail(
        fmt::format("tensor '{}' is {}, but the program has it as {}", name,
                    entry.dtype.empty() ? "of no dtype" : entry.dtype, dtype),
        error);
  if (entry.shape != expected.shape)
    return fail(fmt::format("tensor '{}' has shape [{}], but the program has "
                            "it as {}",
                            name, fmt::join(entry.shape, ", "),
                            describe(expected)),
                error);
  if (reader.hasMetadataKey("dims." + name)) {
    std::optional<std::string> dims = reader.metadataString("dims." + name);
    if (dims != joinDims(expected.dims))
      return fail(fmt::format("tensor '{}' has dims [{}], but the program "
                              "has it as {}",
                              name, dims.value_or("?"), describe(expected)),
                  error);
  }
  return readChecked(entry, bytes, error);
}

bool CheckpointFile::read(const std::string &name, ref::TensorSpec &spec,
                          std::vector<unsigned char> &bytes,
                          std::string &error) {
  TensorEntry entry;
  std::string why;
  if (!reader.has(name))
    return fail(fmt::format("it has no tensor '{}'", name), error);
  if (!reader.entry(name, entry, why))
    return fail(why, error);
  std::optional<ref::ElementType> type = elementTypeOf(entry.dtype);
  if (!type)
    return fail(fmt::format("tensor '{}' is {}, which tessel has no type for",
                            name,
                            entry.dtype.empty() ? "of no dtype" : entry.dtype),
                error);
  std::optional<std::string> dims = reader.metadataString("dims." + name);
  if (!dims)
    return fail(
        fmt::format("its __metadata__ has no dims of tensor '{}'", name),
        error);
  spec.dims.clear();
  if (!dims->empty()) {
    size_t start = 0;
    while (true) {
      size_t comma = dims->find(',', start);
      spec.dims.push_back(dims->substr(start, comma - start));
      if (comma == std::string::npos)
        break;
      start = comma + 1;
    }
  }
  if (spec.dims.size() != entry.shape.size())
    return fail(fmt::format("tensor '{}' has shape [{}] but dims [{}]", name,
                            fmt::join(entry.shape, ", "), *dims),
                error);
  spec.shape = entry.shape;
  spec.type = *type;
  return readChecked(entry, bytes, error);
}

} // namespace tessel::safetensors
