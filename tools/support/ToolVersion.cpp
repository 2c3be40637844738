//===- ToolVersion.cpp - what --version prints in every tessel tool -------===//

#include "tools/support/ToolVersion.h"

#include "tessel/Version.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"

#include <string>

void mlir::tessel::printToolVersion(llvm::StringRef tool,
                                    llvm::raw_ostream &os) {
  os << tool << " " TESSEL_VERSION "\n  built with MLIR and LLVM "
     << LLVM_VERSION_STRING << "\n";
}

void mlir::tessel::setToolVersionPrinter(llvm::StringRef tool) {
  llvm::cl::SetVersionPrinter([name = tool.str()](llvm::raw_ostream &os) {
    printToolVersion(name, os);
  });
}
