//===- MicrobatchDims.cpp - the dimensions micro-batches cut --------------===//
//
// Follows the batch's elements through the ops that rename dimensions
// (tessel.rename, tessel.reshape) so that tessel-split-stages and
// tessel-resize-dims' batch-size resize every name they take, and refuses a
// reshape that mixes them with other dimensions: there a micro-batch is a block
// of a merged dimension, which a new size per name cannot express.
//
//===----------------------------------------------------------------------===//

#include "passes/MicrobatchDims.h"

#include "dialect/TesselDialect.h"
#include "layouts/Reshape.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tessel;
namespace layout = ::tessel::layout;

namespace {

/// The names of `type`'s dimensions [begin, end), quoted, comma-separated.
std::string quotedNames(NamedTensorType type, size_t begin, size_t end) {
  std::string text;
  for (size_t index = begin; index < end; ++index) {
    if (index != begin)
      text += ", ";
    text += "'" + type.getDimNames()[index].getValue().str() + ":" +
            std::to_string(type.getShape()[index]) + "'";
  }
  return text;
}

/// The dimensions of `type` in [begin, end) whose size is not 1.
SmallVector<size_t> nonUnitDims(NamedTensorType type, size_t begin,
                                size_t end) {
  SmallVector<size_t> dims;
  for (size_t index = begin; index < end; ++index)
    if (type.getShape()[index] != 1)
      dims.push_back(index);
  return dims;
}

/// Finds the names carrying the batch; one round over the renaming ops.
class BatchFlow {
public:
  BatchFlow(StringRef batchDim, const BatchResizer &resizer)
      : batchDim(batchDim), resizer(resizer) {
    carrying.insert(batchDim);
  }

  /// Adds the names `op` gives the carried dimensions, or takes them from;
  /// sets `changed` when one is new. Fails after an error at `op`.
  LogicalResult follow(Operation *op, bool &changed) {
    auto input = dyn_cast<NamedTensorType>(op->getOperand(0).getType());
    auto result = dyn_cast<NamedTensorType>(op->getResult(0).getType());
    if (!input || !result)
      return success();
    if (isa<RenameOp>(op)) {
      for (auto [from, to] :
           llvm::zip(input.getDimNames(), result.getDimNames()))
        tie(from.getValue(), to.getValue(), changed);
      return success();
    }
    std::vector<int64_t> from(input.getShape().begin(), input.getShape().end());
    std::vector<int64_t> to(result.getShape().begin(), result.getShape().end());
    std::optional<std::vector<layout::ReshapeGroup>> groups =
        layout::reshapeGroups(from, to);
    if (!groups)
      return success(); // The reshape's verifier says what is wrong.
    for (const layout::ReshapeGroup &group : *groups) {
      std::optional<StringRef> carried;
      for (size_t index = group.inputBegin; index < group.inputEnd; ++index)
        if (carrying.contains(input.getDimNames()[index].getValue()))
          carried = input.getDimNames()[index].getValue();
      for (size_t index = group.resultBegin; index < group.resultEnd; ++index)
        if (carrying.contains(result.getDimNames()[index].getValue()))
          carried = result.getDimNames()[index].getValue();
      if (!carried)
        continue;
      SmallVector<size_t> inputs =
          nonUnitDims(input, group.inputBegin, group.inputEnd);
      SmallVector<size_t> results =
          nonUnitDims(result, group.resultBegin, group.resultEnd);
      if (inputs.size() != 1 || results.size() != 1)
        return op->emitError()
               << resizer.errorPrefix << ": " << resizer.resizer << " cannot "
               << resizer.verb << " the batch '" << batchDim
               << "' through this reshape: it turns ["
               << quotedNames(input, group.inputBegin, group.inputEnd)
               << "] into ["
               << quotedNames(result, group.resultBegin, group.resultEnd)
               << "], so '" << *carried
               << "', which holds the batch, is not a dimension of its own "
                  "on both sides (reshape the other dimensions only, or "
               << resizer.otherwise << ")";
      tie(input.getDimNames()[inputs.front()].getValue(),
          result.getDimNames()[results.front()].getValue(), changed);
    }
    return success();
  }

  /// Fails, after an error, where a name found carrying the batch (other
  /// than the batch's own) has another size than the batch's.
  LogicalResult checkSizes(ModuleOp module, int64_t batchSize) {
    auto check = [&](Type type, Operation *at) -> LogicalResult {
      auto tensor = dyn_cast<NamedTensorType>(type);
      if (!tensor)
        return success();
      for (auto [name, size] :
           llvm::zip(tensor.getDimNames(), tensor.getShape()))
        if (name.getValue() != batchDim && carrying.contains(name.getValue()) &&
            size != batchSize)
          return at->emitError()
                 << resizer.errorPrefix << ": dimension '" << name.getValue()
                 << "' holds the batch '" << batchDim
                 << "' (a reshape or rename gives it the batch's elements) "
                    "but has size "
                 << size << " here, not the batch's " << batchSize << "; "
                 << resizer.resizer << " cannot resize it";
      return success();
    };
    WalkResult walked = module.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument argument : block.getArguments())
            if (failed(check(argument.getType(), op)))
              return WalkResult::interrupt();
      for (Type type : op->getResultTypes())
        if (failed(check(type, op)))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return failure(walked.wasInterrupted());
  }

  SmallVector<std::string> names() const {
    SmallVector<std::string> result;
    for (StringRef name : carrying)
      result.push_back(name.str());
    return result;
  }

private:
  /// `a` and `b` hold the same elements: if one carries the batch, both do.
  void tie(StringRef a, StringRef b, bool &changed) {
    if (carrying.contains(a) != carrying.contains(b)) {
      carrying.insert(carrying.contains(a) ? b : a);
      changed = true;
    }
  }

  StringRef batchDim;
  const BatchResizer &resizer;
  /// StringRefs of the context's interned names (and of batchDim).
  llvm::SetVector<StringRef> carrying;
};

} // namespace

FailureOr<SmallVector<std::string>>
mlir::tessel::dimsCarryingBatch(ModuleOp module, StringRef batchDim,
                                int64_t batchSize,
                                const BatchResizer &resizer) {
  SmallVector<Operation *> renamings;
  module.walk([&](Operation *op) {
    if (isa<RenameOp, ReshapeOp>(op))
      renamings.push_back(op);
  });
  BatchFlow flow(batchDim, resizer);
  // A name found late (the reshape back from `group`) may tie an earlier
  // op's names; go round until nothing is new.
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *op : renamings)
      if (failed(flow.follow(op, changed)))
        return failure();
  }
  if (failed(flow.checkSizes(module, batchSize)))
    return failure();
  return flow.names();
}
