//===- TextCorpus.h - Byte-level text for language models -------*- C++ -*-===//
//
// A language model's step takes `tokens` and `targets`, each [batch, seq]
// of byte values (a 256-token vocabulary): example p of the training corpus
// is the window of seq bytes starting at byte p, and its targets are the
// same window one byte later. Debian's base-files installs the licences in
// /usr/share/common-licenses on every machine, which makes a small corpus
// that is always there; --data may name any file or directory of text.
//
// A model that can evaluate itself is validated on text it never trains on:
// the corpus's tail (the last --holdout of its bytes), or --eval-data. The
// held-out text is cut into windows that do not overlap (example i starts
// at byte i * seq), so that every byte is predicted once per evaluation.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_TEXTCORPUS_H
#define TESSEL_RUNTIME_DRIVER_TEXTCORPUS_H

#include "driver/FashionMnist.h"

#include <optional>
#include <string>
#include <vector>

namespace tessel::driver {

inline constexpr const char *kDefaultTextDir = "/usr/share/common-licenses";

/// Reads `path` (a file, or every regular file of a directory in name
/// order, joined). Says which file and what is wrong in `error` otherwise.
std::optional<std::vector<uint8_t>> readText(const std::string &path,
                                             std::string &error);

/// The training examples of `text`: a window of `window` bytes starting at
/// every byte that has `window` more after it (the last target). `source`
/// names the text in errors.
std::optional<Dataset> trainingWindows(std::vector<uint8_t> text,
                                       int64_t window,
                                       const std::string &source,
                                       std::string &error);

/// The evaluation examples of `text`: windows of `window` bytes that do not
/// overlap (example i starts at byte i * window), each with its last target.
std::optional<Dataset> heldOutWindows(std::vector<uint8_t> text, int64_t window,
                                      const std::string &source,
                                      std::string &error);

/// Splits `text` into its head and its tail of fraction `tail` (rounded
/// down to whole bytes); `text` is left empty.
std::pair<std::vector<uint8_t>, std::vector<uint8_t>>
splitTail(std::vector<uint8_t> &text, double tail);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_TEXTCORPUS_H
