//===- NpyWriter.cpp - Writing .npy arrays a block of rows at a time ------===//

#include "driver/NpyWriter.h"

#include "executor/Buffers.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>

namespace tessel::driver {

namespace fs = std::filesystem;

namespace {

/// numpy's type string of what is written for `type`.
const char *descrOf(ref::ElementType type) {
  switch (type) {
  case ref::ElementType::F32:
  case ref::ElementType::BF16:
    return "<f4";
  case ref::ElementType::F16:
    return "<f2";
  case ref::ElementType::F64:
    return "<f8";
  case ref::ElementType::I1:
    return "|b1";
  case ref::ElementType::I32:
    return "<i4";
  case ref::ElementType::I64:
    return "<i8";
  }
  return "?";
}

} // namespace

NpyWriter::~NpyWriter() {
  // Not closed: an error ended the run, and the file before it stays.
  if (file) {
    std::fclose(file);
    std::remove(temporaryPath.c_str());
  }
}

// Format 1.0: the magic string, the version, a 16-bit header length and a
// Python dict literal padded with spaces and a newline so that the data
// start at a multiple of 64 bytes.
std::string NpyWriter::header(int64_t rows) const {
  std::string shape = fmt::format("{},", rows);
  for (int64_t size : rowShape)
    shape += fmt::format(" {},", size);
  if (!rowShape.empty())
    shape.pop_back(); // (N,) for one dim, (N, a, b) for more
  std::string dict =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}), }}",
                  descrOf(type), shape);
  std::string text = std::string("\x93NUMPY\x01\x00", 8) + "  " + dict;
  // Room for the largest row count, so the final header fits the space
  // the first one took.
  size_t length =
      headerBytes ? headerBytes : (text.size() + 20 + 1 + 63) / 64 * 64;
  text.append(length - 1 - text.size(), ' ');
  text += '\n';
  uint16_t dictBytes = static_cast<uint16_t>(length - 10);
  text[8] = static_cast<char>(dictBytes & 0xff);
  text[9] = static_cast<char>(dictBytes >> 8);
  return text;
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
  headerBytes = 0;
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
