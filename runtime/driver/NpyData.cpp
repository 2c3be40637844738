//===- NpyData.cpp - A dataset of .npy arrays -----------------------------===//

#include "driver/NpyData.h"

#include <fmt/format.h>

#include <filesystem>

namespace tessel::driver {

namespace fs = std::filesystem;

namespace {

bool isNpyFile(const fs::directory_entry &entry) {
  std::error_code code;
  return entry.is_regular_file(code) && entry.path().extension() == ".npy";
}

} // namespace

bool holdsNpyFiles(const std::string &dir) {
  std::error_code code;
  fs::directory_iterator entries(dir, code);
  if (code)
    return false;
  for (const fs::directory_entry &entry : entries)
    if (isNpyFile(entry))
      return true;
  return false;
}

std::optional<Dataset> loadNpyData(const std::string &dir,
                                   std::string &error) {
  std::error_code code;
  fs::directory_iterator entries(dir, code);
  if (code) {
    error = fmt::format("{}: {}", dir, code.message());
    return std::nullopt;
  }
  Dataset dataset;
  std::string firstFile;
  for (const fs::directory_entry &entry : entries) {
    if (!isNpyFile(entry))
      continue;
    std::optional<NpyArray> array = NpyArray::open(entry.path().string(), error);
    if (!array)
      return std::nullopt;
    if (array->shape().empty()) {
      error = fmt::format("{}: a scalar; a data array has one example per "
                          "row of its first dimension",
                          array->path());
      return std::nullopt;
    }
    int64_t examples = array->shape()[0];
    if (firstFile.empty()) {
      dataset.count = examples;
      firstFile = array->path();
    } else if (examples != dataset.count) {
      error = fmt::format("{} has {} examples but {} has {}", array->path(),
                          examples, firstFile, dataset.count);
      return std::nullopt;
    }
    dataset.arrays.emplace(entry.path().stem().string(), std::move(*array));
  }
  if (dataset.arrays.empty()) {
    error = fmt::format("{}: no .npy files", dir);
    return std::nullopt;
  }
  if (dataset.count == 0) {
    error = fmt::format("{}: the arrays hold no examples", firstFile);
    return std::nullopt;
  }
  return dataset;
}

} // namespace tessel::driver
