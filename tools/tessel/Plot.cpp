//===- Plot.cpp - tessel plot: the curves of metrics files ----------------===//
//
// `tessel plot METRICS... -o CURVES.png` draws the training and validation
// curves of a compiled program's --metrics files. The drawing is
// matplotlib's, in the Python module tessel.plot (python/tessel/plot.py),
// so this command runs that module with its arguments, under the Python
// interpreter the build found and with the package the build assembled
// (<build>/python) on PYTHONPATH, as `python -m tessel.plot` would.
//
//===----------------------------------------------------------------------===//

#include "tools/tessel/Commands.h"

#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace mlir::tessel {

// Registered so that `tessel --help` lists the command; its arguments are
// the module's, parsed there (main hands them over before LLVM parses).
llvm::cl::SubCommand
    plotCommand("plot",
                "draw training and validation curves from metrics files "
                "(python -m tessel.plot; tessel plot --help)");

int runPlot(int argc, char **argv) {
  std::string pythonPath = TESSEL_PYTHON_PACKAGE_DIR;
  if (const char *existing = std::getenv("PYTHONPATH"); existing && *existing)
    pythonPath += std::string(":") + existing;
  ::setenv("PYTHONPATH", pythonPath.c_str(), /*overwrite=*/1);
  std::vector<const char *> arguments = {TESSEL_PYTHON_EXECUTABLE, "-m",
                                         "tessel.plot"};
  arguments.insert(arguments.end(), argv, argv + argc);
  arguments.push_back(nullptr);
  ::execv(TESSEL_PYTHON_EXECUTABLE, const_cast<char **>(arguments.data()));
  llvm::errs() << "tessel plot: cannot run " << TESSEL_PYTHON_EXECUTABLE << ": "
               << std::strerror(errno) << "\n";
  return 1;
}

} // namespace mlir::tessel
