//===- Link.h - link a compiled program with the runtime --------*- C++ -*-===//

#ifndef TESSEL_CODEGEN_LINK_H
#define TESSEL_CODEGEN_LINK_H

#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::tessel {

/// Links `object` (from emitObjectFile) with the runtime and its driver
/// into the executable `output`, with the system's C++ compiler driver and
/// the link line the build wrote beside the tessel tools
/// (lib/tessel-link.rsp). `tool` is argv[0] of the running tool, which
/// locates that file. Returns failure with `error` set.
LogicalResult linkExecutable(StringRef tool, StringRef object, StringRef output,
                             std::string &error);

} // namespace mlir::tessel

#endif // TESSEL_CODEGEN_LINK_H
