//===- Link.h - link a compiled program with the runtime --------*- C++ -*-===//

#ifndef TESSEL_CODEGEN_LINK_H
#define TESSEL_CODEGEN_LINK_H

#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::tessel {

/// The runtimes a program can be linked with.
enum class RuntimeTarget { Cpu, Cuda };

/// Links `object` (from emitObjectFile) with the runtime of `target` and its
/// driver into the executable `output`, with the system's C++ compiler
/// driver and the link line the build wrote beside the tessel tools
/// (lib/tessel-link.rsp, or lib/tessel-link-cuda.rsp for the CUDA runtime,
/// which exists only when the build found a CUDA toolkit). `tool` is argv[0]
/// of the running tool, which locates that file; the runtime library is the
/// one in the same directory. The executable's RUNPATH is
/// `$ORIGIN:$ORIGIN/../lib:<that directory>`, so that a program copied with
/// the runtime beside it (or in ../lib) runs anywhere. Returns failure with
/// `error` set.
LogicalResult linkExecutable(StringRef tool, StringRef object, StringRef output,
                             RuntimeTarget target, std::string &error);

} // namespace mlir::tessel

#endif // TESSEL_CODEGEN_LINK_H
