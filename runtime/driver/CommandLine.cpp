//===- CommandLine.cpp - What the programs' command lines share -----------===//

#include "driver/CommandLine.h"

#include <cmath>
#include <sstream>

namespace tessel::driver {

const CLI::Validator kFinite(
    [](std::string &input) {
      double value = 0;
      if (!CLI::detail::lexical_cast(input, value) || !std::isfinite(value))
        return "Value " + input + " is not a finite number";
      return std::string();
    },
    "FINITE");

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
