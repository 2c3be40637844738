//===- BucketAllReduces.cpp - one collective for many small tensors -------===//
//
// Implements tessel-bucket-all-reduces. A training step all-reduces one
// gradient per parameter (under ZeRO, reduce-scatters it, and all-gathers
// the parameter); each call pays the collective's fixed cost (latency,
// synchronisation), which dominates for small tensors. Tensors whose
// collectives of one kind can run at the same point of the program are
// copied into one buffer, which takes one call, and copied back out, as
// Horovod's tensor fusion, PyTorch DDP's buckets and FSDP's flat
// parameters do.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELBUCKETALLREDUCES
#include "passes/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// The name of the flat dimension of a bucket.
constexpr StringLiteral kBucketDim = "bucket";
/// The dimension of a reduce_scatter's or all_gather's bucket that holds
/// one row per member of the group: each member's blocks, one after the
/// other.
constexpr StringLiteral kBucketRankDim = "bucket_rank";

/// Collectives that may share a buffer: the same collective (all_reduce,
/// reduce_scatter or all_gather) with the same reduction over the same
/// group, of the same element type.
struct BucketKey {
  OperationName name;
  std::optional<CollectiveKind> kind;
  ArrayAttr axes;
  Type elementType;
  bool operator==(const BucketKey &other) const {
    return name == other.name && kind == other.kind && axes == other.axes &&
           elementType == other.elementType;
  }
};

/// Collectives merged into one, with the window of program positions where
/// the merged one can run: after `lastInput` (the position of the latest
/// op that computes one of their inputs) and before `firstUse` (the
/// earliest op that uses one of their results).
struct Bucket {
  BucketKey key;
  SmallVector<Operation *> members;
  int64_t lastInput = -1;
  int64_t firstUse = std::numeric_limits<int64_t>::max();
  int64_t bytes = 0;
};

int64_t bytesOf(NamedTensorType type) {
  return type.getNumElements() *
         std::max<int64_t>(1, type.getElementType().getIntOrFloatBitWidth() / 8);
}

/// The key of a collective this pass merges, or nothing.
std::optional<BucketKey> keyOf(Operation *op) {
  auto elementType = [&] {
    return cast<NamedTensorType>(op->getResult(0).getType()).getElementType();
  };
  if (auto reduce = dyn_cast<AllReduceOp>(op))
    return BucketKey{op->getName(), reduce.getKind(), reduce.getAxesAttr(),
                     elementType()};
  if (auto scatter = dyn_cast<ReduceScatterOp>(op))
    return BucketKey{op->getName(), scatter.getKind(), scatter.getAxesAttr(),
                     elementType()};
  if (auto gather = dyn_cast<AllGatherOp>(op))
    return BucketKey{op->getName(), std::nullopt, gather.getAxesAttr(),
                     elementType()};
  return std::nullopt;
}

/// The type of `type` with `dim` moved to the front.
NamedTensorType withDimFirst(NamedTensorType type, StringRef dim) {
  unsigned index = *type.getDimIndex(dim);
  SmallVector<StringAttr> names(type.getDimNames());
  SmallVector<int64_t> shape(type.getShape());
  std::rotate(names.begin(), names.begin() + index, names.begin() + index + 1);
  std::rotate(shape.begin(), shape.begin() + index, shape.begin() + index + 1);
  return NamedTensorType::get(names, shape, type.getElementType());
}

/// `value` stored with `dim` first (a transpose unless it is first), so
/// that the blocks along `dim` are contiguous in row-major order.
Value dimFirst(OpBuilder &builder, Location loc, Value value, StringRef dim) {
  auto type = cast<NamedTensorType>(value.getType());
  if (type.getDimNames().front().getValue() == dim)
    return value;
  return TransposeOp::create(builder, loc, withDimFirst(type, dim), value);
}

/// `value`, stored with its dimension `dim` first, back in `type`'s order.
Value inOrderOf(OpBuilder &builder, Location loc, Value value,
                NamedTensorType type) {
  if (value.getType() == type)
    return value;
  return TransposeOp::create(builder, loc, type, value);
}

struct BucketAllReducesPass
    : mlir::tessel::impl::TesselBucketAllReducesBase<BucketAllReducesPass> {
  using TesselBucketAllReducesBase::TesselBucketAllReducesBase;

  void runOnOperation() final;

private:
  /// Replaces the bucket's collectives by one over their concatenation,
  /// placed right after its last input.
  void merge(Bucket &bucket, Block &block);
  void mergeAllReduces(Bucket &bucket, OpBuilder &builder, Location loc);
  void mergeReduceScatters(Bucket &bucket, OpBuilder &builder, Location loc);
  void mergeAllGathers(Bucket &bucket, OpBuilder &builder, Location loc);

  /// The ops of the function's block in order, and each one's position.
  SmallVector<Operation *> opsInOrder;
  DenseMap<Operation *, int64_t> positions;
};

void BucketAllReducesPass::merge(Bucket &bucket, Block &block) {
  OpBuilder builder(&getContext());
  if (bucket.lastInput < 0) {
    builder.setInsertionPointToStart(&block);
  } else {
    builder.setInsertionPointAfter(opsInOrder[bucket.lastInput]);
  }
  Location loc = builder.getFusedLoc(llvm::to_vector(llvm::map_range(
      bucket.members, [](Operation *op) { return op->getLoc(); })));
  Operation *first = bucket.members.front();
  if (isa<AllReduceOp>(first))
    mergeAllReduces(bucket, builder, loc);
  else if (isa<ReduceScatterOp>(first))
    mergeReduceScatters(bucket, builder, loc);
  else
    mergeAllGathers(bucket, builder, loc);
  // Only now: the builder inserts before the op that followed the last
  // input, which may be one of them.
  for (Operation *member : bucket.members)
    member->erase();
}

/// Each input flattened into a [bucket] buffer, reduced once, each result
/// sliced back out.
void BucketAllReducesPass::mergeAllReduces(Bucket &bucket, OpBuilder &builder,
                                           Location loc) {
  StringAttr bucketDim = builder.getStringAttr(kBucketDim);
  Type elementType = bucket.key.elementType;
  SmallVector<Value> flat;
  int64_t total = 0;
  for (Operation *member : bucket.members) {
    Value input = member->getOperand(0);
    int64_t size = cast<NamedTensorType>(input.getType()).getNumElements();
    flat.push_back(ReshapeOp::create(
        builder, loc, NamedTensorType::get({bucketDim}, {size}, elementType),
        input));
    total += size;
  }
  auto bufferType = NamedTensorType::get({bucketDim}, {total}, elementType);
  Value buffer =
      ConcatOp::create(builder, loc, bufferType, flat, bucketDim.getValue());
  Value reduced = AllReduceOp::create(
      builder, loc, bufferType, *bucket.key.kind, buffer, bucket.key.axes);
  int64_t start = 0;
  for (Operation *member : bucket.members) {
    auto type = cast<NamedTensorType>(member->getResult(0).getType());
    int64_t size = type.getNumElements();
    Value piece = SliceOp::create(
        builder, loc, NamedTensorType::get({bucketDim}, {size}, elementType),
        reduced, builder.getStrArrayAttr({kBucketDim}),
        builder.getDenseI64ArrayAttr({start}));
    member->getResult(0).replaceAllUsesWith(
        ReshapeOp::create(builder, member->getLoc(), type, piece).getResult());
    start += size;
  }
}

/// Each input, with its scattered dimension first, is g blocks one after
/// the other, one per member: as [bucket_rank:g, bucket:size/g] the inputs
/// are concatenated along `bucket`, so that row p of the buffer holds every
/// input's block p. One reduce_scatter along bucket_rank leaves each member
/// its row, from which each result is sliced back out.
void BucketAllReducesPass::mergeReduceScatters(Bucket &bucket,
                                               OpBuilder &builder,
                                               Location loc) {
  StringAttr bucketDim = builder.getStringAttr(kBucketDim);
  StringAttr rankDim = builder.getStringAttr(kBucketRankDim);
  Type elementType = bucket.key.elementType;
  auto firstMember = cast<ReduceScatterOp>(bucket.members.front());
  int64_t groups =
      *firstMember.getInput().getType().getDimSize(firstMember.getDim()) /
      *firstMember.getType().getDimSize(firstMember.getDim());
  SmallVector<Value> rows;
  int64_t total = 0;
  for (Operation *op : bucket.members) {
    auto member = cast<ReduceScatterOp>(op);
    Value input = dimFirst(builder, loc, member.getInput(), member.getDim());
    int64_t size = member.getType().getNumElements();
    rows.push_back(ReshapeOp::create(
        builder, loc,
        NamedTensorType::get({rankDim, bucketDim}, {groups, size}, elementType),
        input));
    total += size;
  }
  Value buffer = ConcatOp::create(
      builder, loc,
      NamedTensorType::get({rankDim, bucketDim}, {groups, total}, elementType),
      rows, bucketDim.getValue());
  Value row = ReduceScatterOp::create(
      builder, loc,
      NamedTensorType::get({rankDim, bucketDim}, {1, total}, elementType),
      *bucket.key.kind, buffer, rankDim, bucket.key.axes);
  int64_t start = 0;
  for (Operation *op : bucket.members) {
    auto member = cast<ReduceScatterOp>(op);
    NamedTensorType type = member.getType();
    int64_t size = type.getNumElements();
    Value piece = SliceOp::create(
        builder, loc,
        NamedTensorType::get({rankDim, bucketDim}, {1, size}, elementType), row,
        builder.getStrArrayAttr({kBucketDim}),
        builder.getDenseI64ArrayAttr({start}));
    Value block = ReshapeOp::create(builder, member.getLoc(),
                                    withDimFirst(type, member.getDim()), piece);
    member.getResult().replaceAllUsesWith(
        inOrderOf(builder, member.getLoc(), block, type));
    start += size;
  }
}

/// Each input block, with the gathered dimension first, is one row
/// [bucket_rank:1, bucket:size]; the rows are concatenated along `bucket`
/// and gathered once along bucket_rank, so that row p holds member p's
/// blocks. Each result is its column range: the members' blocks in group
/// order, which is the gathered dimension in row-major order.
void BucketAllReducesPass::mergeAllGathers(Bucket &bucket, OpBuilder &builder,
                                           Location loc) {
  StringAttr bucketDim = builder.getStringAttr(kBucketDim);
  StringAttr rankDim = builder.getStringAttr(kBucketRankDim);
  Type elementType = bucket.key.elementType;
  auto firstMember = cast<AllGatherOp>(bucket.members.front());
  int64_t groups =
      *firstMember.getType().getDimSize(firstMember.getDim()) /
      *firstMember.getInput().getType().getDimSize(firstMember.getDim());
  SmallVector<Value> rows;
  int64_t total = 0;
  for (Operation *op : bucket.members) {
    auto member = cast<AllGatherOp>(op);
    Value input = dimFirst(builder, loc, member.getInput(), member.getDim());
    int64_t size = member.getInput().getType().getNumElements();
    rows.push_back(ReshapeOp::create(
        builder, loc,
        NamedTensorType::get({rankDim, bucketDim}, {1, size}, elementType),
        input));
    total += size;
  }
  Value buffer = ConcatOp::create(
      builder, loc,
      NamedTensorType::get({rankDim, bucketDim}, {1, total}, elementType), rows,
      bucketDim.getValue());
  Value gathered = AllGatherOp::create(
      builder, loc,
      NamedTensorType::get({rankDim, bucketDim}, {groups, total}, elementType),
      buffer, rankDim, bucket.key.axes);
  int64_t start = 0;
  for (Operation *op : bucket.members) {
    auto member = cast<AllGatherOp>(op);
    NamedTensorType type = member.getType();
    int64_t size = member.getInput().getType().getNumElements();
    Value piece = SliceOp::create(
        builder, loc,
        NamedTensorType::get({rankDim, bucketDim}, {groups, size}, elementType),
        gathered, builder.getStrArrayAttr({kBucketDim}),
        builder.getDenseI64ArrayAttr({start}));
    Value whole = ReshapeOp::create(builder, member.getLoc(),
                                    withDimFirst(type, member.getDim()), piece);
    member.getResult().replaceAllUsesWith(
        inOrderOf(builder, member.getLoc(), whole, type));
    start += size;
  }
}

void BucketAllReducesPass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (maxBytes <= 0 || func.isExternal() || !func.getBody().hasOneBlock())
    return;
  Block &block = func.getBody().front();
  int64_t next = 0;
  positions.clear();
  opsInOrder.clear();
  for (Operation &op : block) {
    positions[&op] = next++;
    opsInOrder.push_back(&op);
  }

  // The position of the op in `block` that holds `op` (itself, or the
  // ancestor of an op in a nested region).
  auto positionOf = [&](Operation *op) {
    Operation *ancestor = block.findAncestorOpInBlock(*op);
    return ancestor ? positions.lookup(ancestor) : int64_t(-1);
  };

  // Buckets are filled in program order; a collective that cannot share
  // the open bucket's window, or would make it too large, closes it.
  SmallVector<Bucket> open, done;
  for (Operation *collective : llvm::to_vector(llvm::map_range(
           block.getOperations(), [](Operation &op) { return &op; }))) {
    std::optional<BucketKey> found = keyOf(collective);
    if (!found)
      continue;
    BucketKey key = *found;
    // The whole tensor: a reduce_scatter's input, an all_gather's result.
    int64_t bytes = std::max(
        bytesOf(cast<NamedTensorType>(collective->getOperand(0).getType())),
        bytesOf(cast<NamedTensorType>(collective->getResult(0).getType())));
    if (bytes > maxBytes || collective->use_empty())
      continue;
    Operation *producer = collective->getOperand(0).getDefiningOp();
    // (A collective of a collective stays: merging the first would move
    // the op the second's window is measured from.)
    if (producer && keyOf(producer))
      continue;
    int64_t input = producer ? positionOf(producer) : -1;
    int64_t use = std::numeric_limits<int64_t>::max();
    for (Operation *user : collective->getUsers())
      use = std::min(use, positionOf(user));

    auto bucket = llvm::find_if(open, [&](Bucket &b) { return b.key == key; });
    if (bucket != open.end() &&
        (std::max(bucket->lastInput, input) >= std::min(bucket->firstUse, use) ||
         bucket->bytes + bytes > maxBytes)) {
      done.push_back(std::move(*bucket));
      open.erase(bucket);
      bucket = open.end();
    }
    if (bucket == open.end()) {
      open.push_back(Bucket{key, {}, -1, std::numeric_limits<int64_t>::max(),
                            0});
      bucket = std::prev(open.end());
    }
    bucket->members.push_back(collective);
    bucket->lastInput = std::max(bucket->lastInput, input);
    bucket->firstUse = std::min(bucket->firstUse, use);
    bucket->bytes += bytes;
  }
  done.append(std::make_move_iterator(open.begin()),
              std::make_move_iterator(open.end()));
  for (Bucket &bucket : done)
    if (bucket.members.size() > 1)
      merge(bucket, block);
}

} // namespace
