//===- MetricsFile.h - The JSON lines of a job's --metrics ------*- C++ -*-===//
//
// The metrics file of a job, written by rank 0: one JSON object per line.
// It is opened only once the job's inputs have been checked, never over a
// file that is not a metrics file (a data file or a checkpoint given by
// mistake), and every write is checked, so that a full disk is an error
// instead of a file that stops half-way under a job that exits 0.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_METRICSFILE_H
#define TESSEL_RUNTIME_DRIVER_METRICSFILE_H

#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

namespace tessel::driver {

class MetricsFile {
public:
  /// Opens `path` for metrics, appended to (`append`, a resumed run) or
  /// replaced. An existing file that is neither empty nor JSON lines is
  /// refused and left as it was.
  static std::optional<MetricsFile> open(const std::string &path, bool append,
                                         std::string &error);

  /// Writes `line` and flushes it; false with a message naming the file
  /// when it could not (the first failure sticks).
  bool write(const nlohmann::json &line, std::string &error);
  /// Closes the file; false when its last bytes could not be written.
  bool close(std::string &error);

private:
  struct Closer {
    void operator()(std::FILE *file) const { std::fclose(file); }
  };
  MetricsFile(std::string path, std::FILE *file)
      : path(std::move(path)), file(file) {}

  std::string path;
  std::unique_ptr<std::FILE, Closer> file;
};

/// Whether the text at `path` looks like a metrics file: empty, or its first
/// line a JSON object. A missing file counts as one (nothing to lose).
bool looksLikeMetrics(const std::string &path);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_METRICSFILE_H
