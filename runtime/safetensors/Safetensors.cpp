//===- Safetensors.cpp - The safetensors file format ----------------------===//

#include "safetensors/Safetensors.h"

#include "layouts/StrictJson.h"

#include <nlohmann/json.hpp>

#include "base/Float16.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <unistd.h>

namespace tessel::safetensors {

using nlohmann::json;
namespace fs = std::filesystem;

size_t dtypeBytes(const std::string &dtype) {
  static const std::map<std::string, size_t> sizes = {
      {"BOOL", 1}, {"U8", 1},  {"I8", 1},  {"F8_E5M2", 1}, {"F8_E4M3", 1},
      {"I16", 2},  {"U16", 2}, {"F16", 2}, {"BF16", 2},    {"I32", 4},
      {"U32", 4},  {"F32", 4}, {"F64", 8}, {"I64", 8},     {"U64", 8}};
  auto it = sizes.find(dtype);
  return it == sizes.end() ? 0 : it->second;
}

namespace {

template <typename T>
void decodeAs(const std::vector<unsigned char> &bytes,
              std::vector<double> &values) {
  values.resize(bytes.size() / sizeof(T));
  for (size_t i = 0; i < values.size(); ++i) {
    T value;
    std::memcpy(&value, bytes.data() + i * sizeof(T), sizeof(T));
    values[i] = static_cast<double>(value);
  }
}

template <typename T, typename Convert>
void encodeAs(const std::vector<double> &values,
              std::vector<unsigned char> &bytes, Convert convert) {
  bytes.resize(values.size() * sizeof(T));
  for (size_t i = 0; i < values.size(); ++i) {
    T value = convert(values[i]);
    std::memcpy(bytes.data() + i * sizeof(T), &value, sizeof(T));
  }
}

template <typename T>
void encodeAs(const std::vector<double> &values,
              std::vector<unsigned char> &bytes) {
  encodeAs<T>(values, bytes,
              [](double value) { return static_cast<T>(value); });
}

} // namespace

bool decode(const std::string &dtype, const std::vector<unsigned char> &bytes,
            std::vector<double> &values) {
  using runtime::bf16ToFloat;
  using runtime::f16ToFloat;
  if (dtype == "F32")
    decodeAs<float>(bytes, values);
  else if (dtype == "F64")
    decodeAs<double>(bytes, values);
  else if (dtype == "F16" || dtype == "BF16") {
    std::vector<double> bits;
    decodeAs<uint16_t>(bytes, bits);
    values.resize(bits.size());
    for (size_t i = 0; i < bits.size(); ++i) {
      auto half = static_cast<uint16_t>(bits[i]);
      values[i] = dtype == "F16" ? f16ToFloat(half) : bf16ToFloat(half);
    }
  } else if (dtype == "BOOL") {
    decodeAs<uint8_t>(bytes, values);
    for (double &value : values)
      value = value != 0 ? 1 : 0;
  } else if (dtype == "U8")
    decodeAs<uint8_t>(bytes, values);
  else if (dtype == "I8")
    decodeAs<int8_t>(bytes, values);
  else if (dtype == "I16")
    decodeAs<int16_t>(bytes, values);
  else if (dtype == "U16")
    decodeAs<uint16_t>(bytes, values);
  else if (dtype == "I32")
    decodeAs<int32_t>(bytes, values);
  else if (dtype == "U32")
    decodeAs<uint32_t>(bytes, values);
  else if (dtype == "I64")
    decodeAs<int64_t>(bytes, values);
  else if (dtype == "U64")
    decodeAs<uint64_t>(bytes, values);
  else
    return false;
  return true;
}

bool encode(const std::string &dtype, const std::vector<double> &values,
            std::vector<unsigned char> &bytes) {
  if (dtype == "F32")
    encodeAs<float>(values, bytes);
  else if (dtype == "F64")
    encodeAs<double>(values, bytes);
  else if (dtype == "F16")
    encodeAs<uint16_t>(values, bytes, [](double value) {
      return runtime::floatToF16(static_cast<float>(value));
    });
  else if (dtype == "BF16")
    encodeAs<uint16_t>(values, bytes, [](double value) {
      return runtime::floatToBf16(static_cast<float>(value));
    });
  else if (dtype == "BOOL")
    encodeAs<uint8_t>(values, bytes,
                      [](double value) -> uint8_t { return value != 0; });
  else if (dtype == "I32")
    encodeAs<int32_t>(values, bytes);
  else if (dtype == "I64")
    encodeAs<int64_t>(values, bytes);
  else
    return false;
  return true;
}

namespace {

/// The list of integers at `key` of a JSON object; false if it is anything
/// else (a float would be cut to an integer, or overflow, if read as one).
bool integerList(const json &object, const char *key,
                 std::vector<int64_t> &values) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_array())
    return false;
  values.clear();
  for (const json &value : *it) {
    std::optional<int64_t> number = layout::int64Value(value);
    if (!number)
      return false;
    values.push_back(*number);
  }
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

} // namespace

struct Reader::Header {
  json value;
  const json *metadata = nullptr;
};

Reader::Reader() : parsed(std::make_unique<Header>()) {}
Reader::~Reader() = default;

bool Reader::hasMetadata() const { return parsed->metadata != nullptr; }

bool Reader::open(std::istream &input, uint64_t fileSize, std::string &why) {
  file = &input;
  unsigned char lengthBytes[8];
  if (fileSize < 8 || !file->read(reinterpret_cast<char *>(lengthBytes), 8)) {
    why = fmt::format("it has {} bytes, too few for a safetensors header "
                      "(truncated?)",
                      fileSize);
    return false;
  }
  uint64_t length = 0;
  for (int i = 7; i >= 0; --i)
    length = length << 8 | lengthBytes[i];
  // The format's own limit (the reference implementation refuses larger
  // headers): a file that is not safetensors can start with any 8 bytes,
  // and a length up to its size would be read whole into memory first.
  if (length > kMaxHeaderBytes) {
    why = fmt::format("its header length {} is more than the {} bytes "
                      "safetensors allows (not a safetensors file?)",
                      length, kMaxHeaderBytes);
    return false;
  }
  if (length > fileSize - 8) {
    why = fmt::format("its header length {} runs past the end of its {} "
                      "bytes (truncated, or not a safetensors file)",
                      length, fileSize);
    return false;
  }
  std::string text(length, '\0');
  if (!file->read(text.data(), static_cast<std::streamsize>(length))) {
    why = "cannot read its header";
    return false;
  }
  json &header = parsed->value;
  layout::RepeatedKey repeated;
  header = layout::parseNotingRepeatedKey(text, repeated);
  if (header.is_discarded() || !header.is_object()) {
    why = "its header is not a JSON object";
    return false;
  }
  // nlohmann keeps the last of a repeated key: one of two tensors of a
  // name would be read without a word.
  if (!repeated.key.empty()) {
    why = repeated.path.empty()
              ? fmt::format("its header names tensor '{}' twice", repeated.key)
              : fmt::format("its header gives key '{}' twice in '{}'",
                            repeated.key, repeated.path);
    return false;
  }
  dataStart = 8 + length;
  dataBytes = fileSize - dataStart;
  // Every value is checked for its JSON type before it is read: nlohmann's
  // accessors throw on a mismatch, and a tampered header must be an error
  // message, not an uncaught exception.
  parsed->metadata = nullptr;
  tensorNames.clear();
  for (const auto &[name, value] : header.items()) {
    if (name != "__metadata__") {
      tensorNames.push_back(name);
      continue;
    }
    if (!value.is_object()) {
      why = "its header has no __metadata__ object, but a __metadata__ of "
            "another kind";
      return false;
    }
    parsed->metadata = &value;
  }
  return checkNoOverlap(why);
}

bool Reader::checkNoOverlap(std::string &why) const {
  // Two tensors reading the same bytes would load one tensor's data as the
  // other's, which a checksum does not catch when the file has none (or was
  // written that way). Entries without two integer offsets are left to
  // entry() and checkExtent(), which name them.
  std::vector<std::pair<std::pair<int64_t, int64_t>, std::string>> ranges;
  for (const std::string &name : tensorNames) {
    const json &value = parsed->value[name];
    std::vector<int64_t> offsets;
    if (value.is_object() && integerList(value, "data_offsets", offsets) &&
        offsets.size() == 2 && offsets[0] < offsets[1])
      ranges.push_back({{offsets[0], offsets[1]}, name});
  }
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i) {
    const auto &[previous, previousName] = ranges[i - 1];
    const auto &[current, currentName] = ranges[i];
    if (current.first < previous.second) {
      why = fmt::format("tensors '{}' (bytes {} to {}) and '{}' (bytes {} to "
                        "{}) overlap in its data",
                        previousName, previous.first, previous.second,
                        currentName, current.first, current.second);
      return false;
    }
  }
  return true;
}

bool Reader::has(const std::string &name) const {
  return name != "__metadata__" && parsed->value.contains(name);
}

bool Reader::hasMetadataKey(const std::string &key) const {
  return parsed->metadata && parsed->metadata->contains(key);
}

std::optional<std::string>
Reader::metadataString(const std::string &key) const {
  const json *metadata = parsed->metadata;
  if (!metadata)
    return std::nullopt;
  auto it = metadata->find(key);
  if (it == metadata->end() || !it->is_string())
    return std::nullopt;
  return it->get<std::string>();
}

bool Reader::entry(const std::string &name, TensorEntry &result,
                   std::string &why) const {
  auto it = parsed->value.find(name);
  if (name == "__metadata__" || it == parsed->value.end()) {
    why = fmt::format("it has no tensor '{}'", name);
    return false;
  }
  if (!it->is_object()) {
    why = fmt::format("tensor '{}' is not described by a JSON object", name);
    return false;
  }
  result.name = name;
  auto dtype = it->find("dtype");
  result.dtype = dtype != it->end() && dtype->is_string()
                     ? dtype->get<std::string>()
                     : std::string();
  if (!integerList(*it, "shape", result.shape) ||
      !integerList(*it, "data_offsets", result.dataOffsets)) {
    why = fmt::format("tensor '{}' has no valid shape or data_offsets", name);
    return false;
  }
  return true;
}

bool Reader::checkExtent(const TensorEntry &entry, std::string &why) const {
  size_t elementBytes = dtypeBytes(entry.dtype);
  if (elementBytes == 0) {
    why = fmt::format("tensor '{}' has dtype '{}', which safetensors does not "
                      "define",
                      entry.name, entry.dtype);
    return false;
  }
  // The shape's byte count, refusing sizes that overflow (a hostile header).
  uint64_t bytes = elementBytes;
  for (int64_t size : entry.shape) {
    if (size < 0 ||
        __builtin_mul_overflow(bytes, static_cast<uint64_t>(size), &bytes)) {
      why = fmt::format("tensor '{}' has shape [{}], which no file holds",
                        entry.name, fmt::join(entry.shape, ", "));
      return false;
    }
  }
  const std::vector<int64_t> &offsets = entry.dataOffsets;
  if (offsets.size() != 2 || offsets[0] < 0 || offsets[1] < offsets[0] ||
      static_cast<uint64_t>(offsets[1] - offsets[0]) != bytes) {
    why = fmt::format("tensor '{}' has data_offsets [{}] that do not hold its "
                      "{} bytes",
                      entry.name, fmt::join(offsets, ", "), bytes);
    return false;
  }
  if (static_cast<uint64_t>(offsets[1]) > dataBytes) {
    why = fmt::format("tensor '{}' ends at byte {} of the data, but the file "
                      "holds {} bytes of data (truncated?)",
                      entry.name, offsets[1], dataBytes);
    return false;
  }
  return true;
}

bool Reader::read(const TensorEntry &entry, std::vector<unsigned char> &bytes,
                  std::string &why) {
  bytes.resize(
      static_cast<size_t>(entry.dataOffsets[1] - entry.dataOffsets[0]));
  file->clear();
  file->seekg(static_cast<std::streamoff>(dataStart + entry.dataOffsets[0]));
  if (!file->read(reinterpret_cast<char *>(bytes.data()),
                  static_cast<std::streamsize>(bytes.size()))) {
    why = fmt::format("cannot read tensor '{}'", entry.name);
    return false;
  }
  return true;
}

bool Reader::readRange(const TensorEntry &entry, uint64_t offset,
                       uint64_t bytes, void *out, std::string &why) {
  file->clear();
  file->seekg(
      static_cast<std::streamoff>(dataStart + entry.dataOffsets[0] + offset));
  if (!file->read(static_cast<char *>(out),
                  static_cast<std::streamsize>(bytes))) {
    why = fmt::format("cannot read bytes {} to {} of tensor '{}'", offset,
                      offset + bytes, entry.name);
    return false;
  }
  return true;
}

bool write(const std::string &path, const std::vector<TensorData> &tensors,
           const std::map<std::string, std::string> &metadata,
           std::string &error) {
  json header = json::object();
  size_t offset = 0;
  for (const TensorData &tensor : tensors) {
    // A tensor of the reserved name would be taken for the metadata, and
    // one of a name already written would replace it: either way a tensor
    // would be lost from the file without a word.
    if (tensor.name == "__metadata__") {
      error = fmt::format("{}: a tensor cannot be named '__metadata__', the "
                          "name safetensors reserves for the metadata",
                          path);
      return false;
    }
    if (header.contains(tensor.name)) {
      error = fmt::format("{}: two tensors are named '{}'", path, tensor.name);
      return false;
    }
    header[tensor.name] = {{"dtype", tensor.dtype},
                           {"shape", tensor.shape},
                           {"data_offsets", {offset, offset + tensor.bytes}}};
    offset += tensor.bytes;
  }
  if (!metadata.empty())
    header["__metadata__"] = metadata;
  std::string text = header.dump();
  // Data starts 8-byte aligned, as the format recommends.
  text.append((8 - text.size() % 8) % 8, ' ');
  uint64_t length = text.size();
  unsigned char lengthBytes[8];
  for (int i = 0; i < 8; ++i)
    lengthBytes[i] = static_cast<unsigned char>(length >> (8 * i));

  std::vector<FilePiece> pieces = {{lengthBytes, 8},
                                   {text.data(), text.size()}};
  for (const TensorData &tensor : tensors)
    pieces.push_back({tensor.data, tensor.bytes});
  return writeAtomically(path, pieces, error);
}

bool writeAtomically(const std::string &path,
                     const std::vector<FilePiece> &pieces, std::string &error) {
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
  for (const FilePiece &piece : pieces)
    ok = ok && writeAll(fd, piece.data, piece.bytes);
  ok = ok && ::fsync(fd) == 0;
  int savedErrno = errno;
  ok = ::close(fd) == 0 && ok;
  if (!ok || ::rename(temporary.c_str(), path.c_str()) != 0) {
    error = fmt::format("cannot write {}: {}", path,
                        std::strerror(ok ? errno : savedErrno));
    ::unlink(temporary.c_str());
    return false;
  }
  std::string directory =
      target.has_parent_path() ? target.parent_path().string() : ".";
  int dirFd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY);
  if (dirFd >= 0) {
    ::fsync(dirFd);
    ::close(dirFd);
  }
  return true;
}

} // namespace tessel::safetensors
