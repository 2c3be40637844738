//===- tessel.cpp - the tessel command-line driver ------------------------===//
//
//   tessel compile MODEL.mlir [--layout FILE | --mesh S --rules S]
//                  [--mode train|infer] [--optimizer NAME ...]
//                  [--emit mlir|llvm|obj|exe] -o OUT
//   tessel run MODEL.mlir [--layout FILE ...] -n N [-- PROGRAM OPTIONS]
//   tessel explain MODEL.mlir (--layout FILE | --mesh S --rules S)
//                  [--function NAME] [--format text|json]
//   tessel plot METRICS.jsonl... -o CURVES.png [--smooth N] [--title T]
//   tessel calibrate [-o PROFILE.json]
//   tessel search MODEL.mlir -n N [--memory-per-rank BYTES] [--profile FILE]
//                 [--top K] [--format text|json] [-o BEST.yaml]
//   tessel import-weights MODEL.mlir --from FILE.safetensors --map MAP.yaml
//                  -o DIR [--optimizer NAME] [--initialize PARAM ...]
//   tessel export-weights CHECKPOINT --map MAP.yaml -o FILE.safetensors
//   tessel export-shard MODEL.mlir (--layout FILE | --mesh S --rules S)
//                  [--function NAME] -o UPSTREAM.mlir
//   tessel import-shard UPSTREAM.mlir -o MODEL.mlir --layout-out LAYOUT.yaml
//                  [--function NAME]
//
//===----------------------------------------------------------------------===//

#include "tools/support/OptionValues.h"
#include "tools/support/ToolVersion.h"
#include "tools/tessel/Commands.h"

#include "llvm/Support/InitLLVM.h"

#include <cstring>

namespace {

/// Hides the options that LLVM's and MLIR's libraries register (hundreds of
/// code generator flags) from `tessel --help`: tessel's own options all
/// belong to a subcommand, so the top level keeps only --help and
/// --version. The hidden options still parse.
void hideLibraryOptions() {
  static llvm::cl::OptionCategory topLevel("tessel");
  llvm::cl::HideUnrelatedOptions(topLevel);
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // tessel plot hands its arguments to the Python module tessel.plot.
  if (argc > 1 && std::strcmp(argv[1], "plot") == 0)
    return mlir::tessel::runPlot(argc - 2, argv + 2);
  // Everything after "--" belongs to the compiled program (tessel run).
  std::vector<std::string> programArgs;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--") == 0) {
      programArgs.assign(argv + i + 1, argv + argc);
      argc = i;
      break;
    }
  if (!mlir::tessel::checkNoEmptyPaths("tessel", argc, argv,
                                       {"o", "layout", "profile", "picture",
                                        "compare", "layout-out", "map",
                                        "from"}))
    return 1;
  hideLibraryOptions();
  mlir::tessel::setToolVersionPrinter("tessel");
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "tessel: models with named dimensions and a layout, compiled into one "
      "SPMD program\n");
  if (!mlir::tessel::checkNoOptionRepeated("tessel"))
    return 1;
  if (mlir::tessel::explainCommand)
    return mlir::tessel::runExplain();
  if (mlir::tessel::compileCommand)
    return mlir::tessel::runCompile(argv[0]);
  if (mlir::tessel::runCommand)
    return mlir::tessel::runRun(argv[0], programArgs);
  if (mlir::tessel::calibrateCommand)
    return mlir::tessel::runCalibrate(argv[0]);
  if (mlir::tessel::searchCommand)
    return mlir::tessel::runSearch();
  if (mlir::tessel::importWeightsCommand)
    return mlir::tessel::runImportWeights();
  if (mlir::tessel::exportWeightsCommand)
    return mlir::tessel::runExportWeights();
  if (mlir::tessel::exportShardCommand)
    return mlir::tessel::runExportShard();
  if (mlir::tessel::importShardCommand)
    return mlir::tessel::runImportShard();
  llvm::errs() << "tessel: expected a command: compile, run, explain, "
                  "calibrate, search, import-weights, export-weights, "
                  "export-shard or import-shard (see tessel --help)\n";
  return 1;
}
