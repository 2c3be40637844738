//===- InlineLayers.cpp - layers as functions, inlined --------------------===//
//
// Implements tessel-inline-layers: every func.call of a module is replaced
// by a copy of its callee's single block, callees before callers, with the
// call's `tessel.scope` prefixed to the names of the parameters and named
// results it brings in. Afterwards the parameters of each function that
// share a full name are merged into one weight, and private functions
// nothing refers to are erased.
//
//===----------------------------------------------------------------------===//

#include "passes/InlineLayers.h"

#include "reference/Initializers.h"
#include "passes/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <cstdio>

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELINLINELAYERS
#include "passes/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

bool mlir::tessel::hasCalls(Operation *root) {
  return root->walk([](func::CallOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// What differs between two declarations of one parameter, as "types
/// (A and B), seeds (1 and 2)"; empty when they agree.
static std::string differences(ParameterOp first, ParameterOp second) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto add = [&](StringRef what, auto a, auto b) {
    if (!text.empty())
      os << ", ";
    os << what << " (" << a << " and " << b << ")";
  };
  auto quoted = [](Type type) {
    std::string s;
    llvm::raw_string_ostream typeOs(s);
    typeOs << "'" << type << "'";
    return s;
  };
  auto number = [](const APFloat &value) {
    char text[32];
    std::snprintf(text, sizeof(text), "%g", value.convertToDouble());
    return std::string(text);
  };
  if (first.getType() != second.getType())
    add("types", quoted(first.getType()), quoted(second.getType()));
  if (first.getInit() != second.getInit())
    add("initializers", stringifyEnum(first.getInit()),
        stringifyEnum(second.getInit()));
  if (first.getScale() != second.getScale())
    add("scales", number(first.getScale()), number(second.getScale()));
  if (first.getSeed() != second.getSeed())
    add("seeds", first.getSeed(), second.getSeed());
  // A weight and a buffer (running statistics) are never one tensor.
  if (first.getBuffer() != second.getBuffer())
    add("kinds", first.getBuffer() ? "buffer" : "trained weight",
        second.getBuffer() ? "buffer" : "trained weight");
  if (first.getGlobalTypeAttr() != second.getGlobalTypeAttr()) {
    auto describe = [](std::optional<NamedTensorType> type) {
      std::string s;
      llvm::raw_string_ostream typeOs(s);
      if (type)
        typeOs << "'" << *type << "'";
      else
        typeOs << "none";
      return s;
    };
    add("'block of' types", describe(first.getGlobalType()),
        describe(second.getGlobalType()));
  }
  return text;
}

LogicalResult mlir::tessel::mergeSharedParameters(func::FuncOp func) {
  SmallVector<ParameterOp> parameters;
  func.walk([&](ParameterOp op) { parameters.push_back(op); });
  llvm::StringMap<ParameterOp> first;
  bool ok = true;
  for (ParameterOp parameter : parameters) {
    auto [it, inserted] = first.try_emplace(parameter.getName(), parameter);
    if (inserted)
      continue;
    ParameterOp kept = it->second;
    std::string differ = differences(kept, parameter);
    if (!differ.empty()) {
      InFlightDiagnostic diag =
          parameter.emitError()
          << "parameter '" << parameter.getName() << "' of function '"
          << func.getSymName() << "' is declared twice with different "
          << differ
          << ": one name is one shared weight, so its declarations must "
             "agree (call the layers with different tessel.scope values to "
             "give them separate weights)";
      diag.attachNote(kept.getLoc())
          << "parameter '" << parameter.getName() << "' is first declared here";
      ok = false;
      continue;
    }
    if (kept->getBlock() != parameter->getBlock()) {
      InFlightDiagnostic diag =
          parameter.emitError()
          << "parameter '" << parameter.getName() << "' of function '"
          << func.getSymName()
          << "' is shared, but its declarations are in different regions";
      diag.attachNote(kept.getLoc())
          << "parameter '" << parameter.getName() << "' is first declared here";
      ok = false;
      continue;
    }
    parameter.getResult().replaceAllUsesWith(kept.getResult());
    parameter.erase();
  }
  return success(ok);
}

namespace {

struct TesselInlineLayersPass
    : mlir::tessel::impl::TesselInlineLayersBase<TesselInlineLayersPass> {
  using TesselInlineLayersBase::TesselInlineLayersBase;

  void runOnOperation() final;

private:
  /// Resolves the callee of every call in `func` into `calls`; false (after
  /// an error) when a callee is not a function with one block.
  bool collectCalls(func::FuncOp func, SymbolTable &symbols);

  /// Appends `func` and the functions it calls to `order`, callees first;
  /// false (after an error) on a call cycle.
  bool visit(func::FuncOp func);

  /// Replaces `call` with a copy of the body of `callee`, which has no
  /// calls left.
  void inlineCall(func::CallOp call, func::FuncOp callee);

  DenseMap<Operation *, SmallVector<std::pair<func::CallOp, func::FuncOp>>>
      calls;
  DenseMap<Operation *, int> state; // absent: unseen, 1: on the path, 2: done
  SmallVector<func::FuncOp> path;
  SmallVector<func::FuncOp> order;
};

bool TesselInlineLayersPass::collectCalls(func::FuncOp func,
                                          SymbolTable &symbols) {
  bool ok = true;
  func.walk([&](func::CallOp call) {
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    if (!callee) {
      call.emitError() << "function '" << func.getSymName() << "' calls @"
                       << call.getCallee()
                       << ", which is not a function of this module";
      ok = false;
      return;
    }
    if (callee.isExternal()) {
      InFlightDiagnostic diag = call.emitError()
                                << "function '" << func.getSymName()
                                << "' calls @" << callee.getSymName()
                                << ", which has no body to inline";
      diag.attachNote(callee.getLoc())
          << "@" << callee.getSymName() << " is declared here";
      ok = false;
      return;
    }
    if (!callee.getBody().hasOneBlock()) {
      InFlightDiagnostic diag =
          call.emitError() << "function '" << func.getSymName() << "' calls @"
                           << callee.getSymName() << ", which has "
                           << callee.getBody().getBlocks().size()
                           << " blocks: only a layer function of one block "
                              "can be inlined";
      diag.attachNote(callee.getLoc())
          << "@" << callee.getSymName() << " is defined here";
      ok = false;
      return;
    }
    calls[func].push_back({call, callee});
  });
  return ok;
}

bool TesselInlineLayersPass::visit(func::FuncOp func) {
  state[func] = 1;
  path.push_back(func);
  // A copy: visiting a callee may add entries to the map.
  SmallVector<std::pair<func::CallOp, func::FuncOp>> edges = calls.lookup(func);
  for (auto [call, callee] : edges) {
    auto found = state.find(callee);
    if (found == state.end()) {
      if (!visit(callee))
        return false;
      continue;
    }
    if (found->second == 2)
      continue;
    // A cycle: from the callee's place on the path back to it.
    std::string cycle;
    llvm::raw_string_ostream os(cycle);
    auto start = llvm::find(path, callee);
    for (auto it = start; it != path.end(); ++it)
      os << "@" << it->getSymName() << " -> ";
    os << "@" << callee.getSymName();
    call.emitError() << "function '" << func.getSymName() << "' calls @"
                     << callee.getSymName() << ", which makes a call cycle ("
                     << cycle
                     << "): a layer function cannot call itself, directly or "
                        "through others, since recursion cannot be inlined";
    return false;
  }
  path.pop_back();
  state[func] = 2;
  order.push_back(func);
  return true;
}

/// `name` in `scope`.
static StringAttr scoped(StringAttr scope, StringRef name) {
  return StringAttr::get(scope.getContext(), scope.getValue() + "." + name);
}

/// The seed of a parameter inlined under `scope`: the layer's seed mixed
/// with a hash of the scope (FNV-1a, then SplitMix64's finaliser), so that
/// `layer0.w` and `layer1.w` start from different values while a weight
/// shared by name (one scope, one seed) stays one weight. 63 bits, so that
/// the attribute prints as a non-negative number.
static uint64_t scopedSeed(StringAttr scope, uint64_t seed) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : scope.getValue()) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return ::tessel::ref::mix64(seed ^ hash) & 0x7fffffffffffffffull;
}

void TesselInlineLayersPass::inlineCall(func::CallOp call,
                                        func::FuncOp callee) {
  Block &body = callee.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArguments(), call.getOperands());
  auto scope = call->getAttrOfType<StringAttr>(TesselDialect::kScopeAttrName);
  OpBuilder builder(call);
  for (Operation &op : body.without_terminator()) {
    Operation *copy = builder.clone(op, mapping);
    if (!scope)
      continue;
    copy->walk([&](Operation *inner) {
      if (auto parameter = dyn_cast<ParameterOp>(inner)) {
        parameter.setName(scoped(scope, parameter.getName()));
        parameter.setSeed(scopedSeed(scope, parameter.getSeed()));
      }
      // A dropout in a layer used twice draws two masks.
      if (auto dropout = dyn_cast<DropoutOp>(inner))
        dropout.setSeed(scopedSeed(scope, dropout.getSeed()));
      if (auto name =
              inner->getAttrOfType<StringAttr>(TesselDialect::kNameAttrName))
        inner->setAttr(TesselDialect::kNameAttrName,
                       scoped(scope, name.getValue()));
    });
  }
  Operation *terminator = body.getTerminator();
  for (auto [result, returned] :
       llvm::zip_equal(call.getResults(), terminator->getOperands()))
    result.replaceAllUsesWith(mapping.lookupOrDefault(returned));
  // A name on the call (`{tessel.name = "logits"}`, which a layout's
  // overrides refer to) names its result: it moves to the op that computes
  // that result in the inlined body. The caller's name wins over one the
  // layer gave the same op.
  auto callName = call->getAttrOfType<StringAttr>(TesselDialect::kNameAttrName);
  Value returned = call.getNumResults() == 1 ? terminator->getOperand(0)
                                              : Value();
  // Only an op of the layer's body: a layer that returns its argument
  // computes nothing to name.
  if (callName && returned && returned.getDefiningOp())
    mapping.lookup(returned).getDefiningOp()->setAttr(
        TesselDialect::kNameAttrName, callName);
  call.erase();
}

void TesselInlineLayersPass::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTable symbols(module);
  SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());

  bool ok = true;
  for (func::FuncOp func : functions)
    ok &= collectCalls(func, symbols);
  if (!ok)
    return signalPassFailure();
  for (func::FuncOp func : functions)
    if (!state.count(func) && !visit(func))
      return signalPassFailure();

  // Callees first: when a function's turn comes, its callees have no calls.
  for (func::FuncOp func : order)
    for (auto [call, callee] : calls[func])
      inlineCall(call, callee);

  for (func::FuncOp func : functions)
    if (!func.isExternal())
      ok &= succeeded(mergeSharedParameters(func));
  if (!ok)
    return signalPassFailure();

  for (func::FuncOp func : functions)
    if (func.isPrivate() && SymbolTable::symbolKnownUseEmpty(func, module))
      func.erase();
}

} // namespace
