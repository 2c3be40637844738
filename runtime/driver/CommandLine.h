//===- CommandLine.h - What the programs' command lines share ---*- C++ -*-===//
//
// A compiled program has three command lines (training, forward-only runs
// and text generation), all parsed with CLI11 on every rank; only rank 0
// prints their help and errors.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_COMMANDLINE_H
#define TESSEL_RUNTIME_DRIVER_COMMANDLINE_H

#include <CLI/CLI.hpp>

#include <initializer_list>

namespace tessel::driver {

/// Refuses NaN and infinities, which CLI11's range checks let through
/// (NaN compares false with every bound).
extern const CLI::Validator kFinite;

/// Refuses an empty path (`--metrics ""`), which the driver would read as
/// the option not given: no metrics, no checkpoints, without a word.
extern const CLI::Validator kNonEmptyPath;

/// Refuses a seed that is not a whole number from 0 to 2^64 - 1: the seed
/// is unsigned, and CLI11 would wrap -1 to 2^64 - 1.
extern const CLI::Validator kSeed;

/// Refuses an empty path given after '=' (`--metrics=`) to one of the path
/// options `names`, which CLI11 would read as the option without a value,
/// then taking the next argument for it ("The following argument was not
/// expected: 1"). Prints the error when `print`; false with `exitStatus` 1
/// if one is given so.
bool checkNoEmptyPathAfterEquals(int argc, char **argv,
                                 std::initializer_list<const char *> names,
                                 bool print, int &exitStatus);

/// Parses `argv` into `app`'s options. On --help or a mistake, sets
/// `exitStatus` (0 for --help), prints the help or error when `print`, and
/// returns false.
bool parseCommandLine(CLI::App &app, int argc, char **argv, bool print,
                      int &exitStatus);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_COMMANDLINE_H
