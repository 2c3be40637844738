//===- OptimizeComm.cpp - cheaper collectives for common patterns ---------===//
//
// Implements tessel-optimize-comm: rewrite patterns over the mesh-level ops
// of a partitioned program. Each pattern replaces a pair of ops by one op
// (or none) that moves fewer bytes and computes the same blocks.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/Resharding.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELOPTIMIZECOMM
#include "passes/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Whether `slice` keeps one of equal blocks: its dimension divides over its
/// axes. A pad_uneven slice's blocks are ceil(n / g) with zeros past the
/// end, which no reduce_scatter or all_to_all produces.
bool slicesEvenly(ShardSliceOp slice) {
  MeshAttr mesh = getEnclosingMesh(slice);
  SmallVector<StringAttr> axes;
  for (Attribute axis : slice.getAxes())
    axes.push_back(cast<StringAttr>(axis));
  std::optional<int64_t> groups = mesh ? mesh.getGroupSize(axes) : std::nullopt;
  std::optional<int64_t> size =
      slice.getInput().getType().getDimSize(slice.getDim());
  return groups && size && *size % *groups == 0;
}

/// The uses of `value` when every one of them keeps the same block as
/// `slice` (same dimension, axes and block type), else nothing. A value
/// whose only uses are such slices is needed only as that block, so a
/// rewrite may make the block alone and give it to all of them: Adam's
/// gradient is sliced once for m and twice for v (g * g), and all three
/// must move together for its all_reduce to become a reduce_scatter.
std::optional<SmallVector<ShardSliceOp>>
usesAllKeepBlockOf(Value value, ShardSliceOp slice) {
  SmallVector<ShardSliceOp> slices;
  for (Operation *user : value.getUsers()) {
    auto other = dyn_cast<ShardSliceOp>(user);
    if (!other || other.getDim() != slice.getDim() ||
        other.getAxes() != slice.getAxes() ||
        other.getType() != slice.getType())
      return std::nullopt;
    slices.push_back(other);
  }
  return slices;
}

/// all_reduce over A, then keep block p along d over A (every use)
///   => reduce_scatter along d over A.
/// Each member needs only its block of the reduced tensor, which is what a
/// reduce_scatter gives, at half the traffic of the all_reduce.
struct AllReduceThenSliceToReduceScatter : OpRewritePattern<ShardSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ShardSliceOp slice,
                                PatternRewriter &rewriter) const final {
    auto reduce = slice.getInput().getDefiningOp<AllReduceOp>();
    if (!reduce || reduce.getAxes() != slice.getAxes() || !slicesEvenly(slice))
      return failure();
    std::optional<SmallVector<ShardSliceOp>> slices =
        usesAllKeepBlockOf(reduce.getResult(), slice);
    if (!slices)
      return failure();
    // Built at the all_reduce, which dominates every slice of it.
    rewriter.setInsertionPoint(reduce);
    Value block = ReduceScatterOp::create(
        rewriter, slice.getLoc(), slice.getType(), reduce.getKind(),
        reduce.getInput(), slice.getDimAttr(), slice.getAxesAttr());
    for (ShardSliceOp each : *slices)
      rewriter.replaceOp(each, block);
    rewriter.eraseOp(reduce);
    return success();
  }
};

/// all_gather along d over A, then keep block p along d over A
///   => the rank's own block.
/// Gathering concatenates the members' blocks in group order, so block p is
/// member p's own input.
struct GatherThenSliceBack : OpRewritePattern<ShardSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ShardSliceOp slice,
                                PatternRewriter &rewriter) const final {
    auto gather = slice.getInput().getDefiningOp<AllGatherOp>();
    if (!gather || gather.getAxes() != slice.getAxes() ||
        gather.getDim() != slice.getDim() ||
        gather.getInput().getType() != slice.getType())
      return failure();
    rewriter.replaceOp(slice, gather.getInput());
    return success();
  }
};

/// all_gather along d1 over A, then keep block p along d2 over A (d1 != d2)
///   => all_to_all split d2 concat d1 over A.
/// Member p ends with block p (along d2) of every member's input,
/// concatenated along d1 in member order: exactly an all_to_all.
struct GatherThenSliceOtherToAllToAll : OpRewritePattern<ShardSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ShardSliceOp slice,
                                PatternRewriter &rewriter) const final {
    auto gather = slice.getInput().getDefiningOp<AllGatherOp>();
    if (!gather || gather.getAxes() != slice.getAxes() ||
        gather.getDim() == slice.getDim() || !gather->hasOneUse() ||
        !slicesEvenly(slice))
      return failure();
    rewriter.replaceOpWithNewOp<AllToAllOp>(
        slice, slice.getType(), gather.getInput(), slice.getDimAttr(),
        gather.getDimAttr(), slice.getAxesAttr());
    return success();
  }
};

/// add(all_reduce sum over A (x), all_reduce sum over A (y))
///   => all_reduce sum over A (add(x, y)), and the same for sub.
/// Addition is linear, so the sum of two complete sums is the complete sum
/// of the partial sums: one collective instead of two, as when the
/// gradients of a layer's input through Q, K and V are added.
template <typename AddOrSub>
struct ReducePartialSumsOnce : OpRewritePattern<AddOrSub> {
  using OpRewritePattern<AddOrSub>::OpRewritePattern;

  LogicalResult matchAndRewrite(AddOrSub op,
                                PatternRewriter &rewriter) const final {
    auto lhs = op.getLhs().template getDefiningOp<AllReduceOp>();
    auto rhs = op.getRhs().template getDefiningOp<AllReduceOp>();
    if (!lhs || !rhs || lhs == rhs || lhs.getKind() != CollectiveKind::Sum ||
        rhs.getKind() != CollectiveKind::Sum || lhs.getAxes() != rhs.getAxes() ||
        !lhs->hasOneUse() || !rhs->hasOneUse())
      return failure();
    Value partial = AddOrSub::create(rewriter, op.getLoc(), op.getType(),
                                     lhs.getInput(), rhs.getInput());
    rewriter.replaceOpWithNewOp<AllReduceOp>(op, op.getType(), lhs.getKind(),
                                             partial, lhs.getAxesAttr());
    return success();
  }
};

/// The all_reduce sum that is `value`, when the value has no other use.
AllReduceOp singleUseSum(Value value) {
  auto sum = value.getDefiningOp<AllReduceOp>();
  if (!sum || sum.getKind() != CollectiveKind::Sum || !sum->hasOneUse())
    return nullptr;
  return sum;
}

/// A chain of additions t = l1 + l2 + ... + ln (in any grouping) whose
/// terms include complete sums over the same axes A, all_reduce sum over A
/// (x_i), becomes
///   (the other terms, in their order) + all_reduce sum over A (x_1 + ...)
/// with one all_reduce per set of axes. The gradient norm adds every
/// gradient's sum of squares in parameter order, the split ones (each the
/// complete sum of its blocks' partial sums) between replicated ones, so
/// ReducePartialSumsOnce, which needs the two sums side by side, left one
/// all_reduce per split gradient. The chain is the additions of one type
/// (no broadcasts, every term of the sum's type) under `root` whose
/// results have no other use; `root` is
/// its last, whose result no such addition takes. The sums go last, so
/// that the terms before them overlap their all_reduce.
struct ReducePartialSumsOfAChainOnce : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AddOp root,
                                PatternRewriter &rewriter) const final {
    Type type = root.getType();
    if (root->hasOneUse())
      if (auto user = dyn_cast<AddOp>(*root->user_begin()))
        if (user.getType() == type)
          return failure();
    SmallVector<Value> terms;
    collectTerms(root, type, terms);
    // Terms of another type are broadcast into the sum: left alone.
    if (llvm::any_of(terms, [&](Value term) { return term.getType() != type; }))
      return failure();
    SmallVector<Value> others;
    // The sums over each set of axes, in the order the sets first appear.
    SmallVector<std::pair<ArrayAttr, SmallVector<AllReduceOp>>> sums;
    bool merges = false;
    for (Value term : terms) {
      AllReduceOp sum = singleUseSum(term);
      if (!sum) {
        others.push_back(term);
        continue;
      }
      auto same = llvm::find_if(sums, [&](const auto &entry) {
        return entry.first == sum.getAxes();
      });
      if (same == sums.end()) {
        sums.push_back({sum.getAxes(), {sum}});
      } else {
        same->second.push_back(sum);
        merges = true;
      }
    }
    if (!merges)
      return failure();
    Location loc = root.getLoc();
    Value total;
    auto add = [&](Value term) {
      total = total ? AddOp::create(rewriter, loc, type, total, term).getResult()
                    : term;
    };
    for (Value other : others)
      add(other);
    for (auto &[axes, group] : sums) {
      Value partial = group.front().getInput();
      for (AllReduceOp sum : llvm::drop_begin(group))
        partial = AddOp::create(rewriter, loc, type, partial, sum.getInput());
      add(group.size() == 1
              ? group.front().getResult()
              : AllReduceOp::create(rewriter, loc, type, CollectiveKind::Sum,
                                    partial, axes)
                    .getResult());
    }
    if (Operation *last = total.getDefiningOp(); last && isa<AddOp>(last))
      last->setDiscardableAttrs(root->getDiscardableAttrDictionary());
    rewriter.replaceOp(root, total);
    return success();
  }

private:
  /// Appends the terms of the chain under `add`, left to right.
  static void collectTerms(AddOp add, Type type, SmallVectorImpl<Value> &terms) {
    for (Value operand : {add.getLhs(), add.getRhs()}) {
      auto inner = operand.getDefiningOp<AddOp>();
      if (inner && inner.getType() == type && inner->hasOneUse())
        collectTerms(inner, type, terms);
      else
        terms.push_back(operand);
    }
  }
};

/// keep block p along d over A of f(x, y, ...), f element-wise
///   => f(block p of x, block p of y, ...).
/// The block of an element-wise result is the result of the operands'
/// blocks, so the op runs on 1/g of the data, and the slices move up to
/// where they can meet the collective that made the whole value (an
/// all_reduce becomes a reduce_scatter, as for ZeRO's gradient scaled by
/// the learning rate before its slice is kept). f's result may have several
/// uses when all of them keep the same block (a clipped or weight-decayed
/// gradient feeding Adam's m and v): the one op on blocks serves them all.
/// Not for padded blocks, whose zero padding f might not keep.
struct SliceBeforeElementwise : OpRewritePattern<ShardSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ShardSliceOp slice,
                                PatternRewriter &rewriter) const final {
    Operation *producer = slice.getInput().getDefiningOp();
    auto partitionable =
        dyn_cast_or_null<PartitionableOpInterface>(producer);
    // A dropout's mask depends on the global indices of its block, which a
    // slice moved above it would change.
    if (!partitionable || isa<DropoutOp>(producer) ||
        partitionable.getPartitionRule() != PartitionRule::Elementwise ||
        producer->getNumResults() != 1 || !slicesEvenly(slice))
      return failure();
    std::optional<SmallVector<ShardSliceOp>> slices =
        usesAllKeepBlockOf(producer->getResult(0), slice);
    if (!slices)
      return failure();
    MeshAttr mesh = getEnclosingMesh(slice);
    auto wholeType = cast<NamedTensorType>(slice.getInput().getType());
    auto blockType = cast<NamedTensorType>(slice.getType());
    StringRef dim = slice.getDim();
    int64_t whole = wholeType.getShape()[*wholeType.getDimIndex(dim)];
    SmallVector<StringAttr> axes =
        llvm::to_vector(slice.getAxes().getAsRange<StringAttr>());

    // An operand with `dim` has the result's size there; one without it is
    // broadcast along it and is the same for every block. Checked for all
    // operands before anything is built, as a pattern that fails must
    // leave the IR as it was.
    for (Value operand : producer->getOperands()) {
      auto type = dyn_cast<NamedTensorType>(operand.getType());
      std::optional<int64_t> size = type ? type.getDimSize(dim) : std::nullopt;
      if (size && *size != whole)
        return failure();
    }
    rewriter.setInsertionPoint(producer);
    Resharder resharder(rewriter, slice.getLoc(), mesh);
    SmallVector<Value> blocks;
    for (Value operand : producer->getOperands()) {
      auto type = dyn_cast<NamedTensorType>(operand.getType());
      blocks.push_back(type && type.hasDim(dim)
                           ? resharder.sliceDim(operand, dim, axes)
                           : operand);
    }
    Operation *local = rewriter.clone(*producer);
    local->setOperands(blocks);
    local->getResult(0).setType(blockType);
    for (ShardSliceOp each : *slices)
      rewriter.replaceOp(each, local->getResults());
    rewriter.eraseOp(producer);
    return success();
  }
};

/// Whether the users of `value` other than shard_slices are one op.
bool feedsOneOpBesidesSlices(Value value) {
  Operation *other = nullptr;
  for (Operation *user : value.getUsers()) {
    if (isa<ShardSliceOp>(user))
      continue;
    if (other && other != user)
      return false;
    other = user;
  }
  return true;
}

/// Whether `value` is computed, by element-wise ops whose results feed
/// nothing else but shard_slices, from constants and from `source`'s result
/// only (at least once); `source` is set to the all_reduce found, and the
/// element-wise ops are added to `chain`. Such a value is the same on every
/// member of the all_reduce's group, as its inputs are.
bool computedFromOneAllReduce(Value value, AllReduceOp &source,
                              SmallVectorImpl<Operation *> &chain) {
  Operation *producer = value.getDefiningOp();
  if (auto reduce = dyn_cast_or_null<AllReduceOp>(producer)) {
    if (source && source != reduce)
      return false;
    source = reduce;
    return true;
  }
  if (producer && producer->hasTrait<OpTrait::ConstantLike>())
    return true;
  auto partitionable = dyn_cast_or_null<PartitionableOpInterface>(producer);
  if (!partitionable || isa<DropoutOp>(producer) ||
      partitionable.getPartitionRule() != PartitionRule::Elementwise ||
      producer->getNumResults() != 1 || !feedsOneOpBesidesSlices(value))
    return false;
  chain.push_back(producer);
  for (Value operand : producer->getOperands())
    if (!computedFromOneAllReduce(operand, source, chain))
      return false;
  return true;
}

/// sum over d of f(all_reduce over A (x)), where the all_reduce's other
/// uses, and those of f's steps, keep block p along d over A
///   => all_reduce sum over A (sum over d of block p of f(...)).
/// The all_reduce's result is the same on every member, so the members'
/// sums of their blocks add up to the sum of the whole. The slice then
/// moves up (SliceBeforeElementwise) and every use of the all_reduce keeps
/// the same block, which makes it a reduce_scatter: gradient clipping's
/// squared norm of a ZeRO gradient (sum of g * g) is summed on blocks, and
/// the per-gradient scalars are all-reduced once (ReducePartialSumsOnce).
/// In mixed precision the block is kept of the gradient widened to f32
/// (a step of f), which the norm squares too.
struct SumOfWholeOnBlocks : OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceOp reduce,
                                PatternRewriter &rewriter) const final {
    if (reduce.getKind() != ReduceKind::Sum)
      return failure();
    AllReduceOp source;
    SmallVector<Operation *> chain;
    Value whole = reduce.getInput();
    if (!computedFromOneAllReduce(whole, source, chain) || !source ||
        source.getKind() != CollectiveKind::Sum)
      return failure();
    // The block that all the other uses of the all_reduce and of the
    // chain's values keep: the same dim, axes and block type (its layout
    // included) but for the element type, each value's own. Checked as
    // strictly as usesAllKeepBlockOf checks for the patterns that finish
    // the rewrite, so that it does not stop half-way with the whole
    // all_reduce kept. (The same block of values of one size splits evenly
    // if `kept` does, checked below.)
    ShardSliceOp kept;
    auto sameBlock = [](ShardSliceOp a, ShardSliceOp b) {
      NamedTensorType type = a.getType();
      return a.getDim() == b.getDim() && a.getAxes() == b.getAxes() &&
             type.withElementType(b.getType().getElementType()) == b.getType();
    };
    SmallVector<Value> values = {source.getResult()};
    for (Operation *step : chain)
      values.push_back(step->getResult(0));
    for (Value value : values)
      for (Operation *user : value.getUsers()) {
        if (user == reduce || llvm::is_contained(chain, user))
          continue;
        auto slice = dyn_cast<ShardSliceOp>(user);
        if (!slice || (kept && !sameBlock(slice, kept)))
          return failure();
        kept = slice;
      }
    if (!kept || kept.getAxes() != source.getAxes() || !slicesEvenly(kept))
      return failure();
    StringRef dim = kept.getDim();
    auto wholeType = cast<NamedTensorType>(whole.getType());
    auto sourceType = cast<NamedTensorType>(source.getType());
    if (wholeType.getDimSize(dim) != sourceType.getDimSize(dim) ||
        cast<NamedTensorType>(reduce.getType()).hasDim(dim))
      return failure();
    SmallVector<StringAttr> axes =
        llvm::to_vector(kept.getAxes().getAsRange<StringAttr>());
    rewriter.setInsertionPoint(reduce);
    Resharder resharder(rewriter, reduce.getLoc(), getEnclosingMesh(reduce));
    Value block = resharder.sliceDim(whole, dim, axes);
    Value partial = ReduceOp::create(rewriter, reduce.getLoc(),
                                     reduce.getType(), reduce.getKind(), block);
    rewriter.replaceOpWithNewOp<AllReduceOp>(reduce, reduce.getType(),
                                             CollectiveKind::Sum, partial,
                                             kept.getAxesAttr());
    return success();
  }
};

/// keep block p along d over A of rename(x)
///   => rename(keep block p along d' over A of x), d' the name that d's
///      position has in x.
/// A rename moves no data, so the block a rank keeps does not depend on the
/// name: the slice moves up to meet the collective that made x whole, where
/// an all_gather along another dimension and the slice become one
/// all_to_all (renaming the tokens' and the experts' dimensions between a
/// mixture of experts' router and its experts would otherwise gather).
struct SliceBeforeRename : OpRewritePattern<ShardSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ShardSliceOp slice,
                                PatternRewriter &rewriter) const final {
    auto rename = slice.getInput().getDefiningOp<RenameOp>();
    if (!rename || !rename->hasOneUse())
      return failure();
    auto source = cast<NamedTensorType>(rename.getInput().getType());
    auto renamed = cast<NamedTensorType>(rename.getType());
    auto block = cast<NamedTensorType>(slice.getType());
    std::optional<unsigned> position = renamed.getDimIndex(slice.getDim());
    if (!position || block.getDimNames() != renamed.getDimNames())
      return failure();
    SmallVector<int64_t> shape(source.getShape());
    shape[*position] = block.getShape()[*position];
    auto sourceBlock =
        NamedTensorType::get(getContext(), source.getDimNames(), shape,
                             source.getElementType(), source.getLayout());
    rewriter.setInsertionPoint(rename);
    Value sliced = ShardSliceOp::create(rewriter, slice.getLoc(), sourceBlock,
                                        rename.getInput(),
                                        source.getDimNames()[*position],
                                        slice.getAxesAttr());
    rewriter.replaceOpWithNewOp<RenameOp>(slice, block, sliced);
    rewriter.eraseOp(rename);
    return success();
  }
};

struct OptimizeCommPass
    : mlir::tessel::impl::TesselOptimizeCommBase<OptimizeCommPass> {
  void runOnOperation() final {
    RewritePatternSet patterns(&getContext());
    patterns.add<AllReduceThenSliceToReduceScatter, GatherThenSliceBack,
                 GatherThenSliceOtherToAllToAll, ReducePartialSumsOfAChainOnce,
                 ReducePartialSumsOnce<AddOp>,
                 ReducePartialSumsOnce<SubOp>, SliceBeforeElementwise,
                 SliceBeforeRename, SumOfWholeOnBlocks>(
        &getContext());
    // Each rewrite moves fewer bytes than what it replaces, so they end; a
    // failure here is the driver's iteration limit, which must not pass
    // unsaid (a compile would exit 1 without a word).
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      getOperation()->emitError(
          "tessel-optimize-comm: the collective rewrites did not settle "
          "within the pattern driver's iteration limit");
      signalPassFailure();
    }
  }
};

} // namespace
