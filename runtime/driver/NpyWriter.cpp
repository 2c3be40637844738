//===- NpyWriter.cpp - Writing .npy arrays a block of rows at a time ------===//

#include "driver/NpyWriter.h"

#include "executor/Buffers.h"
#include "reference/npy/NpyFile.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>

namespace tessel::driver {

namespace fs = std::filesystem;

NpyWriter::~NpyWriter() {
  // Not closed: an error ended the run, and the file before it stays.
  if (file) {
    std::fclose(file);
    std::remove(temporaryPath.c_str());
  }
}

// The header is NumPy's (reference/npy/NpyFile.h), padded to the room
// that open() reserved.
std::string NpyWriter::header(int64_t rows) const {
  std::vector<int64_t> shape = {rows};
  shape.insert(shape.end(), rowShape.begin(), rowShape.end());
  return ref::npyHeader(ref::npyTypeString(type), shape, headerBytes);
}

bool NpyWriter::open(const std::string &path, ref::ElementType elementType,
                     std::vector<int64_t> shape, std::string &error) {
  filePath = path;
  fs::path target(path);
  temporaryPath =
      (target.parent_path() / ("." + target.filename().string() + ".tmp"))
          .string();
  type = elementType;
  rowShape = std::move(shape);
  rowCount = 0;
  // Room for the largest row count, so that the final header fits the
  // space the first one took.
  headerBytes = 0;
  headerBytes = header(std::numeric_limits<int64_t>::max()).size();
  file = std::fopen(temporaryPath.c_str(), "wb");
  if (!file) {
    error = fmt::format("cannot create {}: {}", path, std::strerror(errno));
    return false;
  }
  std::string text = header(0);
  headerBytes = text.size();
  if (std::fwrite(text.data(), 1, text.size(), file) != text.size()) {
    error = fmt::format("cannot write {}: {}", path, std::strerror(errno));
    return false;
  }
  return true;
}

bool NpyWriter::append(const void *data, int64_t rows, std::string &error) {
  int64_t elements = rows;
  for (int64_t size : rowShape)
    elements *= size;
  bool written;
  if (type == ref::ElementType::BF16) {
    std::vector<float> widened(static_cast<size_t>(elements));
    for (int64_t i = 0; i < elements; ++i)
      widened[i] = static_cast<float>(runtime::loadElement(type, data, i));
    written = std::fwrite(widened.data(), sizeof(float), widened.size(),
                          file) == widened.size();
  } else {
    size_t bytes = static_cast<size_t>(elements) * runtime::elementBytes(type);
    written = std::fwrite(data, 1, bytes, file) == bytes;
  }
  if (!written) {
    error = fmt::format("cannot write {}: {}", filePath, std::strerror(errno));
    return false;
  }
  rowCount += rows;
  return true;
}

bool NpyWriter::close(std::string &error) {
  std::string text = header(rowCount);
  bool ok = std::fseek(file, 0, SEEK_SET) == 0 &&
            std::fwrite(text.data(), 1, text.size(), file) == text.size();
  ok = std::fclose(file) == 0 && ok;
  file = nullptr;
  ok = ok && std::rename(temporaryPath.c_str(), filePath.c_str()) == 0;
  if (!ok) {
    error = fmt::format("cannot write {}: {}", filePath, std::strerror(errno));
    std::remove(temporaryPath.c_str());
  }
  return ok;
}

} // namespace tessel::driver
