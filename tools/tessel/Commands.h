//===- Commands.h - the subcommands of the tessel driver --------*- C++ -*-===//

#ifndef TESSEL_TOOLS_TESSEL_COMMANDS_H
#define TESSEL_TOOLS_TESSEL_COMMANDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CommandLine.h"

#include <string>

namespace mlir::tessel {

extern llvm::cl::SubCommand explainCommand;
extern llvm::cl::SubCommand compileCommand;
extern llvm::cl::SubCommand runCommand;
extern llvm::cl::SubCommand calibrateCommand;
extern llvm::cl::SubCommand searchCommand;
extern llvm::cl::SubCommand importWeightsCommand;
extern llvm::cl::SubCommand exportWeightsCommand;
extern llvm::cl::SubCommand exportShardCommand;
extern llvm::cl::SubCommand importShardCommand;

/// tessel explain: what a layout costs, per rank.
int runExplain();
/// tessel compile: the whole pipeline, up to an SPMD executable.
int runCompile(const char *tool);
/// tessel run: compile, then mpirun the executable with `programArgs`.
int runRun(const char *tool, llvm::ArrayRef<std::string> programArgs);
/// tessel plot: runs python -m tessel.plot with `argv` (argc of them).
int runPlot(int argc, char **argv);
/// tessel calibrate: measure this machine into a profile (JSON).
int runCalibrate(const char *tool);
/// tessel search: rank candidate layouts by their predicted step time.
int runSearch();
/// tessel import-weights: a PyTorch safetensors file into a checkpoint.
int runImportWeights();
/// tessel export-weights: a checkpoint's parameters into a PyTorch file.
int runExportWeights();
/// tessel export-shard: a laid-out function as upstream MLIR (linalg on
/// tensors with shard annotations).
int runExportShard();
/// tessel import-shard: an upstream program with shard annotations as a
/// tessel model and a layout file.
int runImportShard();

} // namespace mlir::tessel

#endif // TESSEL_TOOLS_TESSEL_COMMANDS_H
