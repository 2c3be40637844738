//===- TextCorpusFuzzer.cpp - libFuzzer target for text corpora -----------===//
//
// Feeds arbitrary bytes, as a text corpus, to the driver's text reader: the
// split of a held-out tail (splitTail, as --holdout does), the training
// windows of the head (trainingWindows) and the held-out windows of the
// tail (heldOutWindows). The first 8 bytes give the window (a model's
// sequence length: any size from 1 to 2^63 - 1, little-endian), the next
// byte the held-out fraction (byte / 255), the rest is the text. Any error
// is a correct answer; a crash or a sanitizer report is a bug. Beyond not
// crashing, a refusal must name the text, the split must keep every byte,
// and every window of an accepted corpus, with the byte after it (its last
// target), must lie within the text; the first and the last example are
// read, as the driver's batches read them (BatchMaker::fillTokens).
//
//===----------------------------------------------------------------------===//

#include "Require.h"
#include "driver/TextCorpus.h"
#include "layouts/CheckedArithmetic.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using namespace tessel::driver;

namespace {

/// Aborts, naming this fuzzer, when the reader breaks the promise `what`.
void require(bool condition, const char *what) {
  tessel::fuzz::requireOrAbort(condition, "TextCorpusFuzzer", what);
}

/// Checks that every example of `corpus` (a window of `window` bytes and
/// the byte after it) lies within its text, and reads the first and the
/// last example.
void checkWindowsLieInText(const Dataset &corpus, int64_t window) {
  require(corpus.count >= 1, "accepted text without a window");
  const std::vector<uint8_t> &text = corpus.text;
  // The last byte an example reads is its start + window (its last target).
  std::optional<int64_t> lastStart =
      tessel::checkedMul(corpus.count - 1, corpus.textStride);
  std::optional<int64_t> lastByte =
      lastStart ? tessel::checkedAdd(*lastStart, window) : std::nullopt;
  require(lastByte && *lastByte < static_cast<int64_t>(text.size()),
          "accepted a window that runs past the text");
  // The examples' bytes are contiguous ranges, so the first and the last
  // example read the lowest and the highest byte any example reads.
  unsigned checksum = 0;
  for (int64_t start : {int64_t(0), *lastStart})
    for (int64_t i = 0; i <= window; ++i)
      checksum += text.data()[start + i];
  (void)checksum;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 9)
    return 0;
  uint64_t raw = 0;
  for (int i = 7; i >= 0; --i)
    raw = raw << 8 | data[i];
  auto window = static_cast<int64_t>(
      raw % static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + 1);
  double holdout = data[8] / 255.0;
  std::vector<uint8_t> text(data + 9, data + size);
  size_t bytes = text.size();

  auto [head, tail] = splitTail(text, holdout);
  require(head.size() + tail.size() == bytes, "the split lost bytes");

  std::string error;
  std::optional<Dataset> training =
      trainingWindows(head, window, "corpus.txt", error);
  if (training)
    checkWindowsLieInText(*training, window);
  else
    require(error.rfind("corpus.txt: ", 0) == 0,
            "refused the training text without a message naming it");

  error.clear();
  std::optional<Dataset> heldOut =
      heldOutWindows(tail, window, "the tail of corpus.txt", error);
  if (heldOut)
    checkWindowsLieInText(*heldOut, window);
  else
    require(error.rfind("the tail of corpus.txt: ", 0) == 0,
            "refused the held-out text without a message naming it");
  return 0;
}
