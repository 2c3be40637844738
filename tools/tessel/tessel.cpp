//===- tessel.cpp - the tessel command-line driver ------------------------===//
//
//   tessel compile MODEL.mlir [--layout FILE | --mesh S --rules S]
//                  [--mode train|infer] [--optimizer NAME ...]
//                  [--emit mlir|llvm|obj|exe] -o OUT
//   tessel run MODEL.mlir [--layout FILE ...] -n N [-- PROGRAM OPTIONS]
//   tessel explain MODEL.mlir (--layout FILE | --mesh S --rules S)
//                  [--function NAME] [--format text|json]
//
//===----------------------------------------------------------------------===//

#include "tools/tessel/Commands.h"

#include "llvm/Support/InitLLVM.h"

#include <cstring>

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Everything after "--" belongs to the compiled program (tessel run).
  std::vector<std::string> programArgs;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--") == 0) {
      programArgs.assign(argv + i + 1, argv + argc);
      argc = i;
      break;
    }
  llvm::cl::ParseCommandLineOptions(argc, argv, "tessel compiler driver\n");
  if (mlir::tessel::explainCommand)
    return mlir::tessel::runExplain();
  if (mlir::tessel::compileCommand)
    return mlir::tessel::runCompile(argv[0]);
  if (mlir::tessel::runCommand)
    return mlir::tessel::runRun(argv[0], programArgs);
  llvm::errs() << "tessel: expected a command: compile, run or explain (see "
                  "tessel --help)\n";
  return 1;
}
