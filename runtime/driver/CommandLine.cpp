//===- CommandLine.cpp - What the programs' command lines share -----------===//

#include "driver/CommandLine.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>

namespace tessel::driver {

const CLI::Validator kFinite(
    [](std::string &input) {
      double value = 0;
      if (!CLI::detail::lexical_cast(input, value) || !std::isfinite(value))
        return "Value " + input + " is not a finite number";
      return std::string();
    },
    "FINITE");

const CLI::Validator kNonEmptyPath(
    [](std::string &input) {
      return input.empty()
                 ? std::string("an empty path names nothing; give a path "
                               "or leave the option out")
                 : std::string();
    },
    "PATH");

const CLI::Validator kSeed(
    [](std::string &input) {
      uint64_t value = 0;
      const char *end = input.data() + input.size();
      auto [stop, error] = std::from_chars(input.data(), end, value);
      if (input.empty() || error != std::errc() || stop != end)
        return "Value " + input +
               " is not a seed: a whole number from 0 to "
               "18446744073709551615";
      return std::string();
    },
    "UINT64");

bool checkNoEmptyPathAfterEquals(int argc, char **argv,
                                 std::initializer_list<const char *> names,
                                 bool print, int &exitStatus) {
  for (int i = 1; i < argc; ++i)
    for (const char *name : names)
      if (argv[i] == std::string(name) + "=") {
        if (print)
          std::fprintf(stderr,
                       "%s: an empty path names nothing; give a path or "
                       "leave the option out\n",
                       name);
        exitStatus = 1;
        return false;
      }
  return true;
}

bool parseCommandLine(CLI::App &app, int argc, char **argv, bool print,
                      int &exitStatus) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &error) {
    std::ostringstream discard;
    exitStatus = print ? app.exit(error) : app.exit(error, discard, discard);
    return false;
  }
  return true;
}

} // namespace tessel::driver
