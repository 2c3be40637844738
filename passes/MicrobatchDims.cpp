//===- MicrobatchDims.cpp - the dimensions micro-batches cut --------------===//
//
// Follows the batch's elements through the ops that rename dimensions
// (tessel.rename, tessel.reshape) so that tessel-split-stages and
// tessel-resize-dims' batch-size resize every name they take, each by its
// factor: a reshape that merges the batch with the dimensions inside it
// (`[batch, seq]` -> `tokens`) keeps one example's elements contiguous, so
// the merged dimension scales with the batch and a micro-batch is a
// contiguous block of it. A reshape that would interleave the batch with
// other dimensions, or cut an example in pieces, is refused: there a new
// size per name does not express a micro-batch.
//
//===----------------------------------------------------------------------===//

#include "passes/MicrobatchDims.h"

#include "dialect/TesselDialect.h"
#include "layouts/Reshape.h"

#include "llvm/ADT/MapVector.h"

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

/// Finds the names carrying the batch and their factors; one round over
/// the renaming ops.
class BatchFlow {
public:
  BatchFlow(StringRef batchDim, const BatchResizer &resizer)
      : batchDim(batchDim), resizer(resizer) {
    factors[batchDim] = 1;
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
        for (auto [known, other] : {std::pair(from.getValue(), to.getValue()),
                                    std::pair(to.getValue(), from.getValue())})
          if (factors.contains(known) &&
              failed(assign(op, other, factors.lookup(known), changed)))
            return failure();
      return success();
    }
    std::vector<int64_t> from(input.getShape().begin(), input.getShape().end());
    std::vector<int64_t> to(result.getShape().begin(), result.getShape().end());
    std::optional<std::vector<layout::ReshapeGroup>> groups =
        layout::reshapeGroups(from, to);
    if (!groups)
      return success(); // The reshape's verifier says what is wrong.
    for (const layout::ReshapeGroup &group : *groups)
      if (failed(followGroup(op, Side{input, group.inputBegin, group.inputEnd},
                             Side{result, group.resultBegin, group.resultEnd},
                             changed)))
        return failure();
    return success();
  }

  /// Fails, after an error, where a name found carrying the batch has
  /// another size than its factor times the batch's.
  LogicalResult checkSizes(ModuleOp module, int64_t batchSize) {
    auto check = [&](Type type, Operation *at) -> LogicalResult {
      auto tensor = dyn_cast<NamedTensorType>(type);
      if (!tensor)
        return success();
      for (auto [name, size] :
           llvm::zip(tensor.getDimNames(), tensor.getShape())) {
        auto found = factors.find(name.getValue());
        if (name.getValue() == batchDim || found == factors.end() ||
            size == found->second * batchSize)
          continue;
        InFlightDiagnostic error = at->emitError();
        error << resizer.errorPrefix << ": dimension '" << name.getValue()
              << "' holds the batch '" << batchDim << "' ";
        if (found->second == 1)
          error << "(a reshape or rename gives it the batch's elements) but "
                   "has size "
                << size << " here, not the batch's " << batchSize;
        else
          error << "merged with " << found->second
                << " elements of each example (a reshape gives it the "
                   "batch's elements), so its size is "
                << found->second << " x the batch's " << batchSize << " = "
                << found->second * batchSize << ", but it has size " << size
                << " here";
        return error << "; " << resizer.resizer << " cannot resize it";
      }
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

  SmallVector<BatchCarrier> carriers() const {
    SmallVector<BatchCarrier> result;
    for (auto [name, factor] : factors)
      result.push_back({name.str(), factor});
    return result;
  }

private:
  /// One side of a reshape group: `type`'s dimensions [begin, end).
  struct Side {
    NamedTensorType type;
    size_t begin, end;

    StringRef name(size_t index) const {
      return type.getDimNames()[index].getValue();
    }
  };

  /// The dimensions of `side` that take part in where the batch goes, outer
  /// to inner: those that hold the batch, and those whose size is not 1.
  SmallVector<size_t> relevantDims(const Side &side) const {
    SmallVector<size_t> dims;
    for (size_t index = side.begin; index < side.end; ++index)
      if (side.type.getShape()[index] != 1 ||
          factors.contains(side.name(index)))
        dims.push_back(index);
    return dims;
  }

  /// Follows the batch through one reshape group, `input` -> `result`: the
  /// outermost dimension of the side that holds the batch passes it, scaled
  /// by the sizes inside it, to the other side's outermost dimension.
  LogicalResult followGroup(Operation *op, const Side &input,
                            const Side &result, bool &changed) {
    SmallVector<size_t> inputs = relevantDims(input);
    SmallVector<size_t> results = relevantDims(result);
    auto carriedIn = [&](const Side &side, ArrayRef<size_t> dims) {
      return llvm::any_of(dims, [&](size_t index) {
        return factors.contains(side.name(index));
      });
    };
    bool inputCarries = carriedIn(input, inputs);
    if (!inputCarries && !carriedIn(result, results))
      return success();
    const Side &source = inputCarries ? input : result;
    const Side &target = inputCarries ? result : input;
    ArrayRef<size_t> sourceDims = inputCarries ? inputs : results;
    ArrayRef<size_t> targetDims = inputCarries ? results : inputs;

    auto refuse = [&](StringRef carried) {
      InFlightDiagnostic error = op->emitError();
      error << resizer.errorPrefix << ": " << resizer.resizer << " cannot "
            << resizer.verb << " the batch '" << batchDim
            << "' through this reshape: it turns ["
            << quotedNames(input.type, input.begin, input.end) << "] into ["
            << quotedNames(result.type, result.begin, result.end) << "], so '"
            << carried << "', which holds the batch, ";
      return error;
    };
    auto advice = [&]() {
      return (" (a reshape may merge the batch with the dimensions inside it, "
              "or split such a merge back; reshape the other dimensions only, "
              "or " +
              resizer.otherwise + ")")
          .str();
    };
    // Only the outermost dimension of either side may hold the batch: one
    // further in would interleave the examples with the dimensions outside
    // it ([seq, batch] -> tokens), so that a micro-batch is no block of the
    // merged dimension.
    for (auto [side, dims] :
         {std::pair(&source, sourceDims), std::pair(&target, targetDims)})
      for (size_t index : dims.drop_front())
        if (factors.contains(side->name(index)))
          return refuse(side->name(index))
                 << "is not the outermost dimension of its group: its "
                    "examples would be interleaved with '"
                 << side->name(dims.front()) << "'" << advice();
    StringRef carried = source.name(sourceDims.front());
    if (targetDims.empty())
      return refuse(carried)
             << "has no dimension to go to on the other side" << advice();
    // The elements of one example: the carried dimension's factor times the
    // sizes inside it, which the other side's inner dimensions hold whole
    // runs of, or an example is cut in pieces (a split of the batch itself).
    auto product = [](const Side &side, ArrayRef<size_t> dims) {
      int64_t elements = 1;
      for (size_t index : dims.drop_front())
        elements *= side.type.getShape()[index];
      return elements;
    };
    int64_t perExample = factors.lookup(carried) * product(source, sourceDims);
    int64_t inner = product(target, targetDims);
    StringRef outermost = target.name(targetDims.front());
    if (perExample % inner != 0)
      return refuse(carried)
             << "would be split: an example is " << perExample
             << (perExample == 1 ? " element" : " elements")
             << " here, not a whole number of rows of '" << outermost << "' ("
             << inner << " elements each)" << advice();
    return assign(op, outermost, perExample / inner, changed);
  }

  /// `name` holds the batch times `factor` (its size is `factor` times
  /// the batch's). Fails, after an error at `op`, where it was found to
  /// hold it with another factor.
  LogicalResult assign(Operation *op, StringRef name, int64_t factor,
                       bool &changed) {
    auto [found, inserted] = factors.insert({name, factor});
    if (inserted) {
      changed = true;
      return success();
    }
    if (found->second == factor)
      return success();
    return op->emitError() << resizer.errorPrefix << ": dimension '" << name
                           << "' holds the batch '" << batchDim << "' times "
                           << factor << " here (its size is " << factor
                           << " x the batch's) but times " << found->second
                           << " elsewhere; " << resizer.resizer
                           << " cannot resize it";
  }

  StringRef batchDim;
  const BatchResizer &resizer;
  /// Each carried name (StringRefs of the context's interned names and of
  /// batchDim) and its factor, in the order found.
  llvm::MapVector<StringRef, int64_t> factors;
};

} // namespace

FailureOr<SmallVector<BatchCarrier>>
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
  return flow.carriers();
}
