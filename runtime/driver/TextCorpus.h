//===- TextCorpus.h - A byte-level text corpus for language models -*- C++
//-*-===//
//
// A language model's step takes `tokens` and `targets`, each [batch, seq]
// of byte values (a 256-token vocabulary): example p of the corpus is the
// window of seq bytes starting at byte p, and its targets are the same
// window one byte later. Debian's base-files installs the licences in
// /usr/share/common-licenses on every machine, which makes a small corpus
// that is always there; --data may name any file or directory of text.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_TEXTCORPUS_H
#define TESSEL_RUNTIME_DRIVER_TEXTCORPUS_H

#include "driver/FashionMnist.h"

#include <optional>
#include <string>

namespace tessel::driver {

inline constexpr const char *kDefaultTextDir = "/usr/share/common-licenses";

/// Reads `path` (a file, or every regular file of a directory in name
/// order, joined) as a corpus of windows of `window` bytes: the result's
/// `text` holds the bytes and `count` the number of windows. Says which file
/// and what is wrong in `error` otherwise.
std::optional<Dataset> loadTextCorpus(const std::string &path, int64_t window,
                                      std::string &error);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_TEXTCORPUS_H
