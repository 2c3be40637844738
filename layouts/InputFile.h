//===- InputFile.h - what a text input may be -------------------*- C++ -*-===//
//
// The tools read models, layouts, machine profiles and name maps whole into
// memory. A regular file or a pipe (`<(...)`, /dev/stdin) ends; a device
// does not: /dev/zero as a model read until memory ran out and LLVM
// aborted. Every such reader asks this first.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_LAYOUTS_INPUTFILE_H
#define TESSEL_LAYOUTS_INPUTFILE_H

#include <optional>
#include <string>

namespace tessel::layout {

/// Why `path` cannot be read as a text input: "it is a character device,
/// not a file" for a device or socket; nullopt for a regular file, a pipe,
/// or a path that does not exist or cannot be looked at (whose reader
/// says so itself).
std::optional<std::string> notATextFile(const std::string &path);

} // namespace tessel::layout

#endif // TESSEL_LAYOUTS_INPUTFILE_H
