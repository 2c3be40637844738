//===- TextCorpus.cpp - Byte-level text for language models ---------------===//

#include "driver/TextCorpus.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace tessel::driver {

std::optional<std::vector<uint8_t>> readText(const std::string &path,
                                             std::string &error) {
  namespace fs = std::filesystem;
  std::error_code code;
  std::vector<fs::path> files;
  if (fs::is_directory(path, code)) {
    for (const fs::directory_entry &entry : fs::directory_iterator(path, code))
      if (entry.is_regular_file(code))
        files.push_back(entry.path());
    std::sort(files.begin(), files.end());
  } else if (fs::is_regular_file(path, code)) {
    files.push_back(path);
  }
  if (files.empty()) {
    error = fmt::format("{}: no text to read (a file or a directory of files "
                        "is needed)",
                        path);
    return std::nullopt;
  }
  std::vector<uint8_t> text;
  for (const fs::path &file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      error = fmt::format("{}: cannot be read", file.string());
      return std::nullopt;
    }
    text.insert(text.end(), std::istreambuf_iterator<char>(in),
                std::istreambuf_iterator<char>());
  }
  return text;
}

std::optional<Dataset> trainingWindows(std::vector<uint8_t> text,
                                       int64_t window,
                                       const std::string &source,
                                       std::string &error) {
  Dataset corpus;
  // Each window needs one more byte for its last target.
  corpus.count = static_cast<int64_t>(text.size()) - window;
  if (corpus.count < 1) {
    error = fmt::format("{}: {} bytes of text, too few for windows of {}",
                        source, text.size(), window);
    return std::nullopt;
  }
  corpus.text = std::move(text);
  return corpus;
}

std::optional<Dataset> heldOutWindows(std::vector<uint8_t> text, int64_t window,
                                      const std::string &source,
                                      std::string &error) {
  Dataset corpus;
  corpus.textStride = window;
  corpus.count =
      text.empty() ? 0 : (static_cast<int64_t>(text.size()) - 1) / window;
  if (corpus.count < 1) {
    error = fmt::format("{}: {} bytes of text, too few for one window of {}",
                        source, text.size(), window);
    return std::nullopt;
  }
  corpus.text = std::move(text);
  return corpus;
}

std::pair<std::vector<uint8_t>, std::vector<uint8_t>>
splitTail(std::vector<uint8_t> &text, double tail) {
  auto tailBytes = static_cast<size_t>(static_cast<double>(text.size()) *
                                       std::clamp(tail, 0.0, 1.0));
  size_t cut = text.size() - tailBytes;
  std::vector<uint8_t> end(text.begin() + static_cast<std::ptrdiff_t>(cut),
                           text.end());
  text.resize(cut);
  std::pair<std::vector<uint8_t>, std::vector<uint8_t>> parts(std::move(text),
                                                              std::move(end));
  text.clear();
  return parts;
}

} // namespace tessel::driver
