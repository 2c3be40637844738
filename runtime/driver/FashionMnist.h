//===- FashionMnist.h - Fashion-MNIST in idx files --------------*- C++ -*-===//
//
// The training data the driver feeds: 28 x 28 grey images of ten kinds of
// clothing, in the idx format of the original MNIST (a big-endian header,
// then one unsigned byte per pixel or label), plain or gzipped as Debian's
// dataset-fashion-mnist installs them.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_FASHIONMNIST_H
#define TESSEL_RUNTIME_DRIVER_FASHIONMNIST_H

#include "reference/npy/NpyArray.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tessel::driver {

/// The data of --data DIR are .npy files, read by the reference library's
/// reader (tessel-eval reads its inputs with it too).
using ref::NpyArray;

struct Dataset {
  int64_t count = 0;
  int64_t pixelsPerImage = 0;
  /// count * pixelsPerImage bytes, row-major, 0 (white) to 255.
  std::vector<uint8_t> pixels;
  /// count labels in [0, 10).
  std::vector<uint8_t> labels;
  /// The bytes of a text corpus (TextCorpus.h), whose example p is the
  /// window starting at byte p * textStride; empty for images.
  std::vector<uint8_t> text;
  /// 1 for training (a window at every byte); the window for held-out text,
  /// whose windows do not overlap.
  int64_t textStride = 1;
  /// Arrays from .npy files (NpyData.h) by the data argument they feed,
  /// each with `count` examples along its first dimension.
  std::map<std::string, NpyArray> arrays;
};

/// Where Debian's dataset-fashion-mnist puts the files.
inline constexpr const char *kDefaultDataDir =
    "/usr/share/datasets/fashion-mnist";

/// Loads `<dir>/<split>-images-idx3-ubyte` and
/// `<dir>/<split>-labels-idx1-ubyte` (each with or without .gz); `split` is
/// "train" or "t10k". Reads no more of a file than its header promises and
/// one byte (so a small .gz cannot inflate to gigabytes in memory). Returns
/// nothing and says which file and what is wrong in `error` otherwise.
std::optional<Dataset> loadFashionMnist(const std::string &dir,
                                        const std::string &split,
                                        std::string &error);

/// The dataset in the bytes of an idx file of images (3 dims) and one of
/// labels (1 dim), read and decompressed: loadFashionMnist's checks without
/// the files; the paths name them in errors.
std::optional<Dataset> parseFashionMnist(const std::vector<uint8_t> &images,
                                         const std::string &imagesPath,
                                         const std::vector<uint8_t> &labels,
                                         const std::string &labelsPath,
                                         std::string &error);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_FASHIONMNIST_H
