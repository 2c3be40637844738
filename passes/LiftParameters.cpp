//===- LiftParameters.cpp - parameters as arguments, for inference --------===//
//
// Implements tessel-lift-parameters: what `tessel compile --mode infer` runs
// instead of tessel-autodiff. Every function takes the parameters it
// declares as leading named arguments, which the driver fills from a
// checkpoint; nothing is added for training.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/Differentiate.h"
#include "passes/InlineLayers.h"

#include "llvm/ADT/StringMap.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELLIFTPARAMETERS
#include "passes/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr StringLiteral kNameAttr = "tessel.name";

struct TesselLiftParametersPass
    : mlir::tessel::impl::TesselLiftParametersBase<TesselLiftParametersPass> {
  void runOnOperation() final;
};

/// Checks that every function declares each parameter name with one type:
/// one checkpoint tensor feeds every function that takes it.
LogicalResult checkParametersAgree(ModuleOp module) {
  struct FirstUse {
    Type type;
    func::FuncOp function;
  };
  llvm::StringMap<FirstUse> seen;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      if (!func.getArgAttr(i, kRoleAttrName))
        continue;
      StringRef name = func.getArgAttrOfType<StringAttr>(i, kNameAttr);
      Type type = func.getArgument(i).getType();
      auto [entry, inserted] = seen.try_emplace(name, FirstUse{type, func});
      if (inserted || entry->second.type == type)
        continue;
      InFlightDiagnostic diagnostic =
          func.emitError() << "parameter '" << name << "' is " << type
                           << " in @" << func.getSymName() << " but "
                           << entry->second.type << " in @"
                           << entry->second.function.getSymName()
                           << ": one checkpoint tensor cannot feed both";
      diagnostic.attachNote(entry->second.function.getLoc())
          << "@" << entry->second.function.getSymName() << " declares it here";
      return failure();
    }
  }
  return success();
}

void TesselLiftParametersPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (auto step = module.lookupSymbol<func::FuncOp>("train_step")) {
    step.emitError() << "tessel-lift-parameters: the module already has a "
                        "'train_step'; a forward-only program has none (the "
                        "driver runs a program with one as training)";
    return signalPassFailure();
  }
  bool ok = true;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    WalkResult called = func.walk([&](func::CallOp call) {
      call.emitError() << "function '" << func.getSymName() << "' calls @"
                       << call.getCallee()
                       << ": run tessel-inline-layers before "
                          "tessel-lift-parameters (tessel compile does)";
      return WalkResult::interrupt();
    });
    if (called.wasInterrupted())
      return signalPassFailure();
    // The driver fills an argument with a role from the checkpoint tensor
    // of its name, so an argument written with a role must have one.
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      if (func.getArgAttr(i, kRoleAttrName) &&
          !func.getArgAttrOfType<StringAttr>(i, kNameAttr)) {
        func.emitError() << "argument " << i << " of '" << func.getSymName()
                         << "' has a " << kRoleAttrName << " but no "
                         << kNameAttr
                         << " string: the driver reads such an argument from "
                            "the checkpoint tensor of its name";
        return signalPassFailure();
      }
    // One name is one weight, as in tessel-autodiff: one argument.
    ok &= succeeded(mergeSharedParameters(func));
  }
  if (!ok)
    return signalPassFailure();
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      moveParametersToArguments(func);
  if (failed(checkParametersAgree(module)))
    return signalPassFailure();
}

} // namespace
