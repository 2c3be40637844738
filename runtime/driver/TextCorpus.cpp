//===- TextCorpus.cpp - A byte-level text corpus for language models ------===//

#include "driver/TextCorpus.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace tessel::driver {

std::optional<Dataset> loadTextCorpus(const std::string &path, int64_t window,
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
  Dataset corpus;
  for (const fs::path &file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      error = fmt::format("{}: cannot be read", file.string());
      return std::nullopt;
    }
    corpus.text.insert(corpus.text.end(), std::istreambuf_iterator<char>(in),
                       std::istreambuf_iterator<char>());
  }
  // Each window needs one more byte for its last target.
  corpus.count = static_cast<int64_t>(corpus.text.size()) - window;
  if (corpus.count < 1) {
    error = fmt::format("{}: {} bytes of text, too few for windows of {}", path,
                        corpus.text.size(), window);
    return std::nullopt;
  }
  return corpus;
}

} // namespace tessel::driver
