//===- NpyWriter.h - Writing .npy arrays a block of rows at a time -*- C++ -*-//
//
// A forward-only program writes its predictions as .npy files (numpy.load
// reads them), one row per example, appended batch after batch so that no
// more than one batch is held in memory. The header is written first with
// room for any row count and rewritten with the final count when the file
// is closed. The rows go to a temporary file beside it, renamed over it when
// closed, so a run that fails leaves the file it would have replaced.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_NPYWRITER_H
#define TESSEL_RUNTIME_DRIVER_NPYWRITER_H

#include "reference/Tensor.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace tessel::driver {

class NpyWriter {
public:
  NpyWriter() = default;
  NpyWriter(const NpyWriter &) = delete;
  NpyWriter &operator=(const NpyWriter &) = delete;
  ~NpyWriter();

  /// Creates `path` for rows of `rowShape` and elements of `type` (bf16,
  /// which numpy lacks, is written as float32; i1 as bool). False with the
  /// reason in `error` when the file cannot be created.
  bool open(const std::string &path, ref::ElementType type,
            std::vector<int64_t> rowShape, std::string &error);
  /// Appends `rows` rows stored as `type` (row-major, as the runtime stores
  /// them).
  bool append(const void *data, int64_t rows, std::string &error);
  /// Writes the header with the number of rows appended, closes the file
  /// and renames it into place. A writer destroyed before it is closed
  /// removes its temporary file.
  bool close(std::string &error);

  const std::string &path() const { return filePath; }
  int64_t rows() const { return rowCount; }

private:
  std::string header(int64_t rows) const;

  std::string filePath;
  /// Where the rows are written until close() renames it to filePath.
  std::string temporaryPath;
  ref::ElementType type = ref::ElementType::F32;
  std::vector<int64_t> rowShape;
  std::FILE *file = nullptr;
  size_t headerBytes = 0;
  int64_t rowCount = 0;
};

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_NPYWRITER_H
