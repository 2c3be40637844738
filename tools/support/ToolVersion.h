//===- ToolVersion.h - what --version prints in every tessel tool -*- C++
//-*-===//
//
// tessel, tessel-opt and tessel-eval print tessel's version and the MLIR
// and LLVM they were built with, instead of LLVM's own version line.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_SUPPORT_TOOLVERSION_H
#define TESSEL_TOOLS_SUPPORT_TOOLVERSION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tessel {

/// Prints "`tool` VERSION" and, on a second line, the MLIR/LLVM version.
void printToolVersion(llvm::StringRef tool, llvm::raw_ostream &os);

/// Makes --version print printToolVersion(`tool`); call before parsing the
/// command line.
void setToolVersionPrinter(llvm::StringRef tool);

} // namespace mlir::tessel

#endif // TESSEL_TOOLS_SUPPORT_TOOLVERSION_H
