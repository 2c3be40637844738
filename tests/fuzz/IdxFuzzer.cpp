//===- IdxFuzzer.cpp - libFuzzer target for Fashion-MNIST idx files -------===//
//
// Feeds arbitrary bytes, as a pair of idx files (the images and the labels
// of Fashion-MNIST, as loadFashionMnist reads them after decompressing), to
// the driver's idx reader (parseFashionMnist). The first 4 bytes give the
// length of the images file (big-endian, as idx headers are; clamped to
// what follows), the rest is the labels file. Any error is a correct
// answer; a crash or a sanitizer report is a bug. Beyond not crashing, a
// refusal must name one of the two files, and an accepted pair must hold
// at least one example, a label in [0, 10) for each and exactly
// count x pixelsPerImage pixels, so that the batches can index them.
//
//===----------------------------------------------------------------------===//

#include "Require.h"
#include "driver/FashionMnist.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

using namespace tessel::driver;

namespace {

/// Aborts, naming this fuzzer, when the reader breaks the promise `what`.
void require(bool condition, const char *what) {
  tessel::fuzz::requireOrAbort(condition, "IdxFuzzer", what);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4)
    return 0;
  size_t imagesLength = size_t(data[0]) << 24 | size_t(data[1]) << 16 |
                        size_t(data[2]) << 8 | size_t(data[3]);
  imagesLength = std::min(imagesLength, size - 4);
  std::vector<uint8_t> images(data + 4, data + 4 + imagesLength);
  std::vector<uint8_t> labels(data + 4 + imagesLength, data + size);
  std::string error;
  std::optional<Dataset> dataset =
      parseFashionMnist(images, "images.idx", labels, "labels.idx", error);
  if (!dataset) {
    require(error.find("images.idx") != std::string::npos ||
                error.find("labels.idx") != std::string::npos,
            "refused the files without a message naming one");
    return 0;
  }
  require(dataset->count >= 1, "accepted files without examples");
  require(dataset->labels.size() == static_cast<size_t>(dataset->count),
          "accepted a label count other than the image count");
  require(std::all_of(dataset->labels.begin(), dataset->labels.end(),
                      [](uint8_t label) { return label < 10; }),
          "accepted a label outside [0, 10)");
  require(dataset->pixelsPerImage >= 0 &&
              dataset->pixels.size() ==
                  static_cast<size_t>(dataset->count) *
                      static_cast<size_t>(dataset->pixelsPerImage),
          "accepted a pixel count other than count x pixels per image");
  return 0;
}
