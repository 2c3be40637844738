//===- MetricsFile.cpp - The JSON lines of a job's --metrics --------------===//

#include "driver/MetricsFile.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sys/stat.h>

namespace tessel::driver {

bool looksLikeMetrics(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return true;
  // The first line, read up to a bound: a data file may have none.
  std::string first;
  char c;
  while (first.size() < (1 << 20) && in.get(c) && c != '\n')
    first.push_back(c);
  if (first.empty() && !in.good())
    return true;
  nlohmann::json parsed = nlohmann::json::parse(first, nullptr,
                                                /*allow_exceptions=*/false);
  return parsed.is_object();
}

std::optional<MetricsFile> MetricsFile::open(const std::string &path,
                                             bool append, std::string &error) {
  // Only a regular file has contents to lose (and to read: reading a FIFO
  // would wait for a writer); /dev/stdout or a pipe is written to as it is.
  struct stat info;
  bool regular = ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
  if (regular && !looksLikeMetrics(path)) {
    error = fmt::format("--metrics {}: the file exists and is not a metrics "
                        "file (JSON lines); refusing to overwrite it",
                        path);
    return std::nullopt;
  }
  std::FILE *file = std::fopen(path.c_str(), append ? "a" : "w");
  if (!file) {
    error = fmt::format("cannot write metrics to {}: {}", path,
                        std::strerror(errno));
    return std::nullopt;
  }
  return MetricsFile(path, file);
}

bool MetricsFile::write(const nlohmann::json &line, std::string &error) {
  if (!file) {
    error = fmt::format("cannot write metrics to {}: an earlier write failed",
                        path);
    return false;
  }
  // Strings from the user (generate's prompts and text) may hold bytes that
  // are not UTF-8; they are written replaced, where dump() would throw.
  std::string text =
      line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
      "\n";
  if (std::fwrite(text.data(), 1, text.size(), file.get()) != text.size() ||
      std::fflush(file.get()) != 0) {
    error = fmt::format("cannot write metrics to {}: {}", path,
                        std::strerror(errno));
    file.reset();
    return false;
  }
  return true;
}

bool MetricsFile::close(std::string &error) {
  if (!file)
    return true;
  if (std::fclose(file.release()) != 0) {
    error = fmt::format("cannot write metrics to {}: {}", path,
                        std::strerror(errno));
    return false;
  }
  return true;
}

} // namespace tessel::driver
