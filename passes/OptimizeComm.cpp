//===- OptimizeComm.cpp - cheaper collectives for common patterns ---------===//
//
// Implements tessel-optimize-comm: rewrite patterns over the mesh-level ops
// of a partitioned program. Each pattern replaces a pair of ops by one op
// (or none) that moves fewer bytes and computes the same blocks.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELOPTIMIZECOMM
#include "passes/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// all_reduce over A, then keep block p along d over A
///   => reduce_scatter along d over A.
/// Each member needs only its block of the reduced tensor, which is what a
/// reduce_scatter gives, at half the traffic of the all_reduce.
struct AllReduceThenSliceToReduceScatter : OpRewritePattern<ShardSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ShardSliceOp slice,
                                PatternRewriter &rewriter) const final {
    auto reduce = slice.getInput().getDefiningOp<AllReduceOp>();
    if (!reduce || reduce.getAxes() != slice.getAxes() || !reduce->hasOneUse())
      return failure();
    rewriter.replaceOpWithNewOp<ReduceScatterOp>(
        slice, slice.getType(), reduce.getKind(), reduce.getInput(),
        slice.getDimAttr(), slice.getAxesAttr());
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
        gather.getDim() == slice.getDim() || !gather->hasOneUse())
      return failure();
    rewriter.replaceOpWithNewOp<AllToAllOp>(
        slice, slice.getType(), gather.getInput(), slice.getDimAttr(),
        gather.getDimAttr(), slice.getAxesAttr());
    return success();
  }
};

struct OptimizeCommPass
    : mlir::tessel::impl::TesselOptimizeCommBase<OptimizeCommPass> {
  void runOnOperation() final {
    RewritePatternSet patterns(&getContext());
    patterns.add<AllReduceThenSliceToReduceScatter, GatherThenSliceBack,
                 GatherThenSliceOtherToAllToAll>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
