//===- Pipelining.h - names shared by the pipeline passes -------*- C++ -*-===//
//
// A pipelined training step is built by three passes (docs/pipeline.md):
// tessel-split-stages cuts the loss into one loss function per stage,
// tessel-pipeline-autodiff differentiates each into a step and adds its
// init and optimizer update, and tessel-split-forward-backward, after the
// layout, cuts each step into the forward and backward that the driver's
// schedule runs per micro-batch. The functions and the tensors that cross
// between them are found by these names, which the runtime's driver knows
// too (runtime/driver/Metadata.h).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_PASSES_PIPELINING_H
#define TESSEL_PASSES_PIPELINING_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tessel {

/// `stage{stage}_{kind}`: kind is loss, step, init, forward, backward or
/// apply.
inline std::string stageFunctionName(unsigned stage, const char *kind) {
  return "stage" + std::to_string(stage) + "_" + kind;
}

/// `stage{stage}.input{index}`: the activation `index` that stage `stage`
/// receives from the stage before it; its cotangent is the same name with
/// ".gradient".
inline std::string boundaryName(unsigned stage, unsigned index) {
  return "stage" + std::to_string(stage) + ".input" + std::to_string(index);
}

/// `stage{stage}.residual{index}`: a value of the forward that the backward
/// of the same micro-batch reads.
inline std::string residualName(unsigned stage, unsigned index) {
  return "stage" + std::to_string(stage) + ".residual" + std::to_string(index);
}

/// Whether `name` is `stage{stage}.input{k}` followed by `suffix`, for
/// some k: only then is it a tensor that crosses into stage `stage` (a
/// weight may be named `stage1.input_proj.w`).
inline bool isBoundaryName(llvm::StringRef name, unsigned stage,
                           llvm::StringRef suffix = "") {
  if (!name.consume_front("stage" + std::to_string(stage) + ".input") ||
      !name.consume_back(suffix))
    return false;
  return !name.empty() && llvm::all_of(name, llvm::isDigit);
}

/// Whether `name` is one the pipeline gives the tensors it passes between
/// functions: `stage{s}.input{k}` or `stage{s}.residual{k}`, maybe with
/// ".gradient". A model's weight or data named so would be confused with
/// them.
inline bool isPipelineTensorName(llvm::StringRef name) {
  name.consume_back(".gradient");
  auto digits = [](llvm::StringRef &text) {
    size_t count = text.find_if_not(llvm::isDigit);
    if (text.empty() || count == 0)
      return false;
    text = text.drop_front(std::min(count, text.size()));
    return true;
  };
  return name.consume_front("stage") && digits(name) &&
         (name.consume_front(".input") || name.consume_front(".residual")) &&
         digits(name) && name.empty();
}

} // namespace mlir::tessel

#endif // TESSEL_PASSES_PIPELINING_H
