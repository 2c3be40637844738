//===- ResizeDims.cpp - new sizes for named dimensions --------------------===//
//
// Rewrites every tessel tensor type that has a dimension named in `sizes`
// and lets the verifier judge the result: types are the only place a
// model-level program keeps its sizes, except for the few attributes that
// state one (slice bounds, dense constants), and those ops' verifiers
// already say what is wrong with them. A new batch size resizes every name
// the batch goes by (MicrobatchDims.h), so that a model which renames it
// (a mixture of experts' `group`) or merges it with the dimensions inside
// it (`tokens`, the batch times `seq`) takes a new batch from one option.
//
//===----------------------------------------------------------------------===//

#include "passes/MicrobatchDims.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELRESIZEDIMS
#include "passes/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

struct TesselResizeDimsPass
    : public tessel::impl::TesselResizeDimsBase<TesselResizeDimsPass> {
  using TesselResizeDimsBase::TesselResizeDimsBase;

  void runOnOperation() override;

private:
  /// Reads `sizes` into `newSizes`; false (after an error) if one is not
  /// NAME=SIZE with a positive SIZE.
  bool parseSizes();

  /// Adds `batchSize` to `newSizes` for `batchDim`, and its factor times
  /// `batchSize` for every dimension that holds its elements; false (after
  /// an error) where one cannot follow it or `sizes` gives one of them
  /// another size.
  bool addBatchDims();

  /// `type` with the new sizes, or `type` itself if it is not a tessel
  /// tensor or has none of the dimensions.
  Type resized(Type type);

  llvm::StringMap<int64_t> newSizes;
  llvm::StringSet<> namesSeen;
  /// Set once a new size made a tensor too large (reported once).
  bool tooLarge = false;
};

bool TesselResizeDimsPass::parseSizes() {
  for (const std::string &entry : sizes) {
    auto [name, size] = StringRef(entry).split('=');
    int64_t value = 0;
    if (name.trim().empty() || size.trim().getAsInteger(10, value) ||
        value <= 0) {
      getOperation().emitError()
          << "tessel-resize-dims: '" << entry
          << "' is not NAME=SIZE with a positive SIZE";
      return false;
    }
    // Two sizes for one dimension (--dim-size twice, or --batch and
    // --dim-size batch=...) are a mistake, not "the last one wins".
    auto [given, inserted] = newSizes.try_emplace(name.trim(), value);
    if (!inserted && given->second != value) {
      getOperation().emitError()
          << "tessel-resize-dims: dimension '" << name.trim()
          << "' is given two sizes, " << given->second << " and " << value;
      return false;
    }
  }
  return true;
}

bool TesselResizeDimsPass::addBatchDims() {
  ModuleOp module = getOperation();
  int64_t newBatch = batchSize;
  if (newBatch < 0) {
    module.emitError() << "tessel-resize-dims: batch-size " << newBatch
                       << " is not a positive size";
    return false;
  }
  // The batch's size as the model is written: the dimensions that hold it
  // under other names must have it too.
  std::optional<int64_t> modelBatch;
  auto find = [&](Type type) {
    if (auto tensor = dyn_cast<NamedTensorType>(type))
      if (std::optional<unsigned> index = tensor.getDimIndex(batchDim))
        modelBatch = tensor.getShape()[*index];
  };
  module.walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          find(argument.getType());
    for (Type type : op->getResultTypes())
      find(type);
    return modelBatch ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (!modelBatch) {
    module.emitError() << "tessel-resize-dims: no tensor has a dimension "
                          "named '"
                       << batchDim << "' (the batch that batch-size resizes)";
    return false;
  }
  FailureOr<SmallVector<BatchCarrier>> carriers =
      dimsCarryingBatch(module, batchDim, *modelBatch,
                        {"tessel-resize-dims", "the new batch size", "resize",
                         "give each dimension its size by name"});
  if (failed(carriers))
    return false;
  for (const BatchCarrier &carrier : *carriers) {
    // A merged dimension (`tokens`, the batch times `seq`) scales with the
    // batch: its new size is its factor times the new batch.
    int64_t newSize = 0;
    if (llvm::MulOverflow(carrier.factor, newBatch, newSize)) {
      module.emitError() << "tessel-resize-dims: dimension '" << carrier.name
                         << "' holds the batch '" << batchDim << "' times "
                         << carrier.factor << ", and " << carrier.factor
                         << " x the new batch size " << newBatch
                         << " is too large";
      return false;
    }
    auto [given, inserted] = newSizes.try_emplace(carrier.name, newSize);
    if (inserted || given->second == newSize)
      continue;
    if (carrier.name == batchDim)
      module.emitError() << "tessel-resize-dims: dimension '" << carrier.name
                         << "' is given two sizes, " << given->second << " and "
                         << newBatch;
    else if (carrier.factor == 1)
      module.emitError()
          << "tessel-resize-dims: dimension '" << carrier.name
          << "' holds the batch '" << batchDim
          << "' (a reshape or rename gives it the batch's elements), so the "
             "new batch size "
          << newBatch << " is its size too, but it is also given size "
          << given->second;
    else
      module.emitError()
          << "tessel-resize-dims: dimension '" << carrier.name
          << "' holds the batch '" << batchDim << "' merged with "
          << carrier.factor
          << " elements of each example (a reshape gives it the batch's "
             "elements), so its size is "
          << carrier.factor << " x the new batch size " << newBatch << " = "
          << newSize << ", but it is also given size " << given->second;
    return false;
  }
  return true;
}

Type TesselResizeDimsPass::resized(Type type) {
  auto tensor = dyn_cast<NamedTensorType>(type);
  if (!tensor)
    return type;
  SmallVector<int64_t> shape(tensor.getShape());
  bool changed = false;
  for (auto [index, name] : llvm::enumerate(tensor.getDimNames())) {
    auto found = newSizes.find(name.getValue());
    if (found == newSizes.end())
      continue;
    namesSeen.insert(name.getValue());
    changed |= shape[index] != found->second;
    shape[index] = found->second;
  }
  if (!changed || tooLarge)
    return type;
  // Checked by the type's verifier: a size whose product with the others
  // overflows the byte count (batch=2^62) would give IR that does not parse
  // back; the error names the dimension and its size.
  NamedTensorType checked = NamedTensorType::getChecked(
      [&] {
        tooLarge = true;
        return getOperation().emitError() << "tessel-resize-dims: ";
      },
      type.getContext(), tensor.getDimNames(), ArrayRef<int64_t>(shape),
      tensor.getElementType(), tensor.getLayout());
  return checked ? Type(checked) : type;
}

void TesselResizeDimsPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (!parseSizes() || (batchSize != 0 && !addBatchDims()))
    return signalPassFailure();
  if (newSizes.empty())
    return;

  module.walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          argument.setType(resized(argument.getType()));
    for (OpResult result : op->getResults())
      result.setType(resized(result.getType()));
  });
  // A function's type repeats its arguments' and results' types.
  for (auto func : module.getOps<func::FuncOp>()) {
    SmallVector<Type> inputs, results;
    for (Type type : func.getArgumentTypes())
      inputs.push_back(resized(type));
    for (Type type : func.getResultTypes())
      results.push_back(resized(type));
    func.setFunctionType(
        FunctionType::get(module.getContext(), inputs, results));
  }
  if (tooLarge)
    return signalPassFailure();

  for (const auto &entry : newSizes)
    if (!namesSeen.contains(entry.getKey())) {
      module.emitError() << "tessel-resize-dims: no tensor has a dimension "
                            "named '"
                         << entry.getKey() << "'";
      return signalPassFailure();
    }
  // The ops that state a size in an attribute tell what no longer fits.
  if (failed(verify(module))) {
    module.emitError() << "tessel-resize-dims: the model does not allow these "
                          "sizes (see the errors above)";
    return signalPassFailure();
  }
}

} // namespace
