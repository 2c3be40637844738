//===- Link.cpp - link a compiled program with the runtime ----------------===//

#include "codegen/Link.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace mlir;

namespace {

/// Returns the link line file: lib/tessel-link.rsp (or tessel-link-cuda.rsp)
/// beside the directory of the running tool (build/bin/tessel ->
/// build/lib/tessel-link.rsp).
std::string linkLinePath(StringRef tool, tessel::RuntimeTarget target) {
  std::string executable = llvm::sys::fs::getMainExecutable(
      tool.str().c_str(), reinterpret_cast<void *>(&linkLinePath));
  SmallString<256> path(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(executable)));
  llvm::sys::path::append(path, "lib",
                          target == tessel::RuntimeTarget::Cuda
                              ? "tessel-link-cuda.rsp"
                              : "tessel-link.rsp");
  return std::string(path);
}

} // namespace

LogicalResult mlir::tessel::linkExecutable(StringRef tool, StringRef object,
                                           StringRef output,
                                           RuntimeTarget target,
                                           std::string &error) {
  std::string rspPath = linkLinePath(tool, target);
  if (!llvm::sys::fs::exists(rspPath)) {
    error = target == RuntimeTarget::Cuda
                ? "the CUDA runtime's link line " + rspPath +
                      " is missing: the build found no CUDA toolkit (nvcc, "
                      "cuBLAS, cuDNN, NCCL; see docs/gpu.md)"
                : "the runtime's link line " + rspPath +
                      " is missing: build the runtime (ninja -C build)";
    return failure();
  }
  llvm::ErrorOr<std::string> compiler = llvm::sys::findProgramByName("c++");
  if (!compiler) {
    error = "no C++ compiler driver (c++) on PATH to link with";
    return failure();
  }
  // The runtime is the one beside the link line (build/lib, or an install
  // prefix's lib). The program looks for it first next to itself, then in
  // ../lib (a bin/ and lib/ tree, as installed), and last where it was
  // linked: copied with its runtime, it runs wherever it is.
  StringRef runtimeDir = llvm::sys::path::parent_path(rspPath);
  std::string searchDir = ("-L" + runtimeDir).str();
  std::string runPath =
      ("-Wl,-rpath,$ORIGIN:$ORIGIN/../lib:" + runtimeDir).str();
  std::string rspArgument = "@" + rspPath;
  SmallVector<StringRef> args = {*compiler, object,  "-o",       output,
                                 searchDir, runPath, rspArgument};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(*compiler, args, std::nullopt, {}, 0,
                                         0, &message);
  if (status != 0) {
    error = "linking " + output.str() + " failed" +
            (message.empty() ? "" : ": " + message);
    return failure();
  }
  return success();
}
