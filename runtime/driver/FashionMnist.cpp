//===- FashionMnist.cpp - Fashion-MNIST in idx files ----------------------===//

#include "driver/FashionMnist.h"

#include <fmt/format.h>
#include <zlib.h>

#include <sys/stat.h>

namespace tessel::driver {

namespace {

bool fileExists(const std::string &path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

/// The path of `name` or `name.gz` in `dir`, whichever exists.
std::optional<std::string> findFile(const std::string &dir,
                                    const std::string &name) {
  for (const char *suffix : {"", ".gz"}) {
    std::string path = fmt::format("{}/{}{}", dir, name, suffix);
    if (fileExists(path))
      return path;
  }
  return std::nullopt;
}

/// Reads a whole file; gzread reads plain files unchanged, so one path
/// serves both forms.
std::optional<std::vector<uint8_t>> readAll(const std::string &path,
                                            std::string &error) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) {
    error = fmt::format("cannot open {}", path);
    return std::nullopt;
  }
  std::vector<uint8_t> bytes;
  uint8_t chunk[1 << 16];
  int read;
  while ((read = gzread(file, chunk, sizeof chunk)) > 0)
    bytes.insert(bytes.end(), chunk, chunk + read);
  bool failed = read < 0;
  gzclose(file);
  if (failed) {
    error = fmt::format("cannot read {}: it is damaged", path);
    return std::nullopt;
  }
  return bytes;
}

uint32_t bigEndian32(const uint8_t *bytes) {
  return uint32_t(bytes[0]) << 24 | uint32_t(bytes[1]) << 16 |
         uint32_t(bytes[2]) << 8 | uint32_t(bytes[3]);
}

/// Checks an idx file's header: unsigned bytes, `dims` dims; returns the
/// sizes.
std::optional<std::vector<int64_t>> idxSizes(const std::vector<uint8_t> &bytes,
                                             int dims, const std::string &path,
                                             std::string &error) {
  size_t header = 4 + 4 * static_cast<size_t>(dims);
  if (bytes.size() < header || bytes[0] != 0 || bytes[1] != 0 ||
      bytes[2] != 0x08 || bytes[3] != dims) {
    error = fmt::format("{} is not an idx file of unsigned bytes with {} dims",
                        path, dims);
    return std::nullopt;
  }
  std::vector<int64_t> sizes;
  int64_t count = 1;
  for (int i = 0; i < dims; ++i) {
    sizes.push_back(bigEndian32(&bytes[4 + 4 * i]));
    // Three sizes of up to 2^32 each can overflow a 64-bit count.
    if (__builtin_mul_overflow(count, sizes.back(), &count)) {
      error = fmt::format("{}: its header's sizes overflow", path);
      return std::nullopt;
    }
  }
  if (bytes.size() != header + static_cast<size_t>(count)) {
    error = fmt::format("{} holds {} bytes of data, its header promises {}",
                        path, bytes.size() - header, count);
    return std::nullopt;
  }
  if (sizes[0] == 0) {
    error =
        fmt::format("{} holds no {}", path, dims == 1 ? "labels" : "images");
    return std::nullopt;
  }
  return sizes;
}

} // namespace

std::optional<Dataset> loadFashionMnist(const std::string &dir,
                                        const std::string &split,
                                        std::string &error) {
  std::string imagesName = split + "-images-idx3-ubyte";
  std::string labelsName = split + "-labels-idx1-ubyte";
  std::optional<std::string> imagesPath = findFile(dir, imagesName);
  std::optional<std::string> labelsPath = findFile(dir, labelsName);
  if (!imagesPath || !labelsPath) {
    error = fmt::format("no Fashion-MNIST in {}: {}(.gz) or {}(.gz) is missing "
                        "(Debian's dataset-fashion-mnist installs them in {})",
                        dir, imagesName, labelsName, kDefaultDataDir);
    return std::nullopt;
  }
  std::optional<std::vector<uint8_t>> images = readAll(*imagesPath, error);
  if (!images)
    return std::nullopt;
  std::optional<std::vector<uint8_t>> labels = readAll(*labelsPath, error);
  if (!labels)
    return std::nullopt;
  return parseFashionMnist(*images, *imagesPath, *labels, *labelsPath, error);
}

std::optional<Dataset> parseFashionMnist(const std::vector<uint8_t> &images,
                                         const std::string &imagesPath,
                                         const std::vector<uint8_t> &labels,
                                         const std::string &labelsPath,
                                         std::string &error) {
  std::optional<std::vector<int64_t>> imageSizes =
      idxSizes(images, 3, imagesPath, error);
  std::optional<std::vector<int64_t>> labelSizes =
      idxSizes(labels, 1, labelsPath, error);
  if (!imageSizes || !labelSizes)
    return std::nullopt;
  if ((*imageSizes)[0] != (*labelSizes)[0]) {
    error = fmt::format("{} has {} images but {} has {} labels", imagesPath,
                        (*imageSizes)[0], labelsPath, (*labelSizes)[0]);
    return std::nullopt;
  }
  Dataset dataset;
  dataset.count = (*imageSizes)[0];
  dataset.pixelsPerImage = (*imageSizes)[1] * (*imageSizes)[2];
  dataset.pixels.assign(images.begin() + 16, images.end());
  dataset.labels.assign(labels.begin() + 8, labels.end());
  for (uint8_t label : dataset.labels)
    if (label >= 10) {
      error =
          fmt::format("{} holds a label {} outside [0, 10)", labelsPath, label);
      return std::nullopt;
    }
  return dataset;
}

} // namespace tessel::driver
