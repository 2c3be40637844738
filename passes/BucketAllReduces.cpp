//===- BucketAllReduces.cpp - one all_reduce for many small tensors -------===//
//
// Implements tessel-bucket-all-reduces. A training step all-reduces one
// gradient per parameter; each call pays the collective's fixed cost
// (latency, synchronisation), which dominates for small tensors. Tensors
// whose all_reduces can run at the same point of the program are copied
// into one buffer, reduced once and copied back out, as Horovod's tensor
// fusion and PyTorch DDP's buckets do.
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

/// All_reduces that may share a buffer: the same reduction over the same
/// group, of the same element type.
struct BucketKey {
  CollectiveKind kind;
  ArrayAttr axes;
  Type elementType;
  bool operator==(const BucketKey &other) const {
    return kind == other.kind && axes == other.axes &&
           elementType == other.elementType;
  }
};

/// All_reduces merged into one, with the window of program positions where
/// the merged one can run: after `lastInput` (the position of the latest
/// op that computes one of their inputs) and before `firstUse` (the
/// earliest op that uses one of their results).
struct Bucket {
  BucketKey key;
  SmallVector<AllReduceOp> members;
  int64_t lastInput = -1;
  int64_t firstUse = std::numeric_limits<int64_t>::max();
  int64_t bytes = 0;
};

int64_t bytesOf(NamedTensorType type) {
  return type.getNumElements() *
         std::max<int64_t>(1, type.getElementType().getIntOrFloatBitWidth() / 8);
}

struct BucketAllReducesPass
    : mlir::tessel::impl::TesselBucketAllReducesBase<BucketAllReducesPass> {
  using TesselBucketAllReducesBase::TesselBucketAllReducesBase;

  void runOnOperation() final;

private:
  /// Replaces the bucket's all_reduces by one over their concatenation,
  /// placed right after its last input.
  void merge(Bucket &bucket, Block &block);

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
      bucket.members, [](AllReduceOp op) { return op.getLoc(); })));
  StringAttr bucketDim = builder.getStringAttr(kBucketDim);
  Type elementType = bucket.key.elementType;

  SmallVector<Value> flat;
  int64_t total = 0;
  for (AllReduceOp member : bucket.members) {
    auto type = cast<NamedTensorType>(member.getInput().getType());
    int64_t size = type.getNumElements();
    flat.push_back(ReshapeOp::create(
        builder, loc, NamedTensorType::get({bucketDim}, {size}, elementType),
        member.getInput()));
    total += size;
  }
  auto bufferType = NamedTensorType::get({bucketDim}, {total}, elementType);
  Value buffer =
      ConcatOp::create(builder, loc, bufferType, flat, bucketDim.getValue());
  Value reduced = AllReduceOp::create(builder, loc, bufferType,
                                      bucket.key.kind, buffer, bucket.key.axes);
  int64_t start = 0;
  for (AllReduceOp member : bucket.members) {
    auto type = cast<NamedTensorType>(member.getType());
    int64_t size = type.getNumElements();
    Value piece = SliceOp::create(
        builder, loc, NamedTensorType::get({bucketDim}, {size}, elementType),
        reduced, builder.getStrArrayAttr({kBucketDim}),
        builder.getDenseI64ArrayAttr({start}));
    member.replaceAllUsesWith(
        ReshapeOp::create(builder, member.getLoc(), type, piece).getResult());
    start += size;
  }
  // Only now: the builder inserts before the op that followed the last
  // input, which may be one of them.
  for (AllReduceOp member : bucket.members)
    member.erase();
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

  // Buckets are filled in program order; an all_reduce that cannot share
  // the open bucket's window, or would make it too large, closes it.
  SmallVector<Bucket> open, done;
  for (auto reduce : llvm::to_vector(block.getOps<AllReduceOp>())) {
    auto type = cast<NamedTensorType>(reduce.getType());
    int64_t bytes = bytesOf(type);
    if (bytes > maxBytes || reduce->use_empty())
      continue;
    BucketKey key{reduce.getKind(), reduce.getAxesAttr(),
                  type.getElementType()};
    Operation *producer = reduce.getInput().getDefiningOp();
    // (A reduce of a reduce stays: merging the first would move the op
    // the second's window is measured from.)
    if (isa_and_nonnull<AllReduceOp>(producer))
      continue;
    int64_t input = producer ? positionOf(producer) : -1;
    int64_t use = std::numeric_limits<int64_t>::max();
    for (Operation *user : reduce->getUsers())
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
    bucket->members.push_back(reduce);
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
