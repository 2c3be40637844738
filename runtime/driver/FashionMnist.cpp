//===- FashionMnist.cpp - Fashion-MNIST in idx files ----------------------===//

#include "driver/FashionMnist.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

uint32_t bigEndian32(const uint8_t *bytes) {
  return uint32_t(bytes[0]) << 24 | uint32_t(bytes[1]) << 16 |
         uint32_t(bytes[2]) << 8 | uint32_t(bytes[3]);
}

/// The bytes of an idx header with `dims` dims: the magic number, then one
/// 32-bit size per dim.
size_t idxHeaderBytes(int dims) { return 4 + 4 * static_cast<size_t>(dims); }

struct IdxHeader {
  std::vector<int64_t> sizes;
  /// The bytes of data after the header, the product of the sizes.
  int64_t dataBytes = 1;
};

/// Checks the header at the start of `bytes`: unsigned bytes, `dims` dims,
/// sizes whose product a 64-bit count holds.
std::optional<IdxHeader> idxHeader(const std::vector<uint8_t> &bytes, int dims,
                                   const std::string &path,
                                   std::string &error) {
  if (bytes.size() < idxHeaderBytes(dims) || bytes[0] != 0 || bytes[1] != 0 ||
      bytes[2] != 0x08 || bytes[3] != dims) {
    error = fmt::format("{} is not an idx file of unsigned bytes with {} dims",
                        path, dims);
    return std::nullopt;
  }
  IdxHeader header;
  for (int i = 0; i < dims; ++i) {
    header.sizes.push_back(bigEndian32(&bytes[4 + 4 * i]));
    // Three sizes of up to 2^32 each can overflow a 64-bit count.
    if (__builtin_mul_overflow(header.dataBytes, header.sizes.back(),
                               &header.dataBytes)) {
      error = fmt::format("{}: its header's sizes overflow", path);
      return std::nullopt;
    }
  }
  return header;
}

/// Checks an idx file's header and that the data are what it promises;
/// returns the sizes.
std::optional<std::vector<int64_t>> idxSizes(const std::vector<uint8_t> &bytes,
                                             int dims, const std::string &path,
                                             std::string &error) {
  std::optional<IdxHeader> header = idxHeader(bytes, dims, path, error);
  if (!header)
    return std::nullopt;
  size_t data = bytes.size() - idxHeaderBytes(dims);
  if (data != static_cast<uint64_t>(header->dataBytes)) {
    error = fmt::format("{} holds {} bytes of data, its header promises {}",
                        path, data, header->dataBytes);
    return std::nullopt;
  }
  if (header->sizes[0] == 0) {
    error =
        fmt::format("{} holds no {}", path, dims == 1 ? "labels" : "images");
    return std::nullopt;
  }
  return header->sizes;
}

/// Deflate's largest expansion: one compressed byte inflates to at most
/// 1032 (zlib's FAQ), so a gzip file of N bytes holds at most 1032 N.
constexpr int64_t kDeflateMaxExpansion = 1032;

/// Reads an idx file with `dims` dims, plain or gzipped (gzread reads plain
/// files unchanged, so one path serves both), and no more of it than its
/// header promises: a small .gz that inflates to gigabytes is refused after
/// the promised bytes and one more, and a header that promises more than
/// the file can hold before its data are read. parseFashionMnist checks the
/// rest (a file cut short).
std::optional<std::vector<uint8_t>> readIdx(const std::string &path, int dims,
                                            std::string &error) {
  int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat info;
  if (descriptor < 0 || ::fstat(descriptor, &info) != 0) {
    error = fmt::format("cannot open {}: {}", path, std::strerror(errno));
    if (descriptor >= 0)
      ::close(descriptor);
    return std::nullopt;
  }
  gzFile file = gzdopen(descriptor, "rb");
  if (!file) {
    ::close(descriptor);
    error = fmt::format("cannot open {}", path);
    return std::nullopt;
  }
  std::unique_ptr<gzFile_s, int (*)(gzFile)> closer(file, gzclose);

  std::vector<uint8_t> bytes;
  // Reads until `bytes` holds `total` bytes or the file ends; false if the
  // file is damaged.
  auto readUpTo = [&](size_t total) {
    while (bytes.size() < total) {
      size_t old = bytes.size();
      bytes.resize(old + std::min<size_t>(total - old, 1 << 16));
      int read = gzread(file, bytes.data() + old,
                        static_cast<unsigned>(bytes.size() - old));
      bytes.resize(old + std::max(read, 0));
      if (read < 0) {
        error = fmt::format("cannot read {}: it is damaged", path);
        return false;
      }
      if (read == 0)
        break;
    }
    return true;
  };

  size_t headerBytes = idxHeaderBytes(dims);
  if (!readUpTo(headerBytes))
    return std::nullopt;
  std::optional<IdxHeader> header = idxHeader(bytes, dims, path, error);
  if (!header)
    return std::nullopt;

  int64_t fileBytes = info.st_size;
  if (gzdirect(file)) {
    int64_t held = fileBytes - static_cast<int64_t>(headerBytes);
    if (header->dataBytes > held) {
      error = fmt::format("{} holds {} bytes of data, its header promises {}",
                          path, held, header->dataBytes);
      return std::nullopt;
    }
  } else {
    int64_t inflated;
    if (!__builtin_mul_overflow(fileBytes, kDeflateMaxExpansion, &inflated) &&
        header->dataBytes > inflated) {
      error = fmt::format(
          "{} is {} bytes of gzip, which inflate to at most {} bytes, but its "
          "header promises {} bytes of data",
          path, fileBytes, inflated, header->dataBytes);
      return std::nullopt;
    }
  }

  size_t promised = headerBytes + static_cast<size_t>(header->dataBytes);
  if (!readUpTo(promised + 1))
    return std::nullopt;
  if (bytes.size() > promised) {
    error = fmt::format("{} holds more data than its header promises ({} "
                        "bytes)",
                        path, header->dataBytes);
    return std::nullopt;
  }
  return bytes;
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
  std::optional<std::vector<uint8_t>> images = readIdx(*imagesPath, 3, error);
  if (!images)
    return std::nullopt;
  std::optional<std::vector<uint8_t>> labels = readIdx(*labelsPath, 1, error);
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
