//===- Partition.cpp - from global tensors to the program of one rank -----===//
//
// Implements tessel-partition. Every value of the input carries its layout
// in its type; every value of the output is the rank's local block, and the
// mesh-level ops that the local computations need sit between them.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialect/IndexBounds.h"
#include "dialect/MeshConversion.h"
#include "layouts/Reshape.h"
#include "passes/Resharding.h"
#include "passes/SplitReductions.h"

#include <limits>

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELPARTITION
#include "passes/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr StringLiteral kGlobalTypeAttrName = "tessel.global_type";

/// Checks that `type`'s layout can be cut on `mesh` (every axis exists,
/// none splits two dimensions; uneven splits pad), reporting through `emit`
/// with the dimension and axis at fault. A layout written by hand or by
/// another tool may not, and the block shapes below assume it does.
LogicalResult checkLayoutOnMesh(NamedTensorType type, MeshAttr mesh,
                                function_ref<InFlightDiagnostic()> emit) {
  std::string error;
  if (::tessel::layout::checkLayout(toLayoutMesh(mesh), toTensorLayout(type),
                                    error, /*padUneven=*/true))
    return success();
  return emit() << error << " " << mesh;
}

/// Partitions one function in place.
class FunctionPartitioner {
public:
  FunctionPartitioner(func::FuncOp func, MeshAttr mesh)
      : func(func), mesh(mesh), builder(func.getContext()) {}

  LogicalResult run();

private:
  /// Returns the global (laid-out) type of an original value.
  NamedTensorType globalTypeOf(Value value) const {
    auto it = argumentTypes.find(value);
    return it != argumentTypes.end() ? it->second
                                     : cast<NamedTensorType>(value.getType());
  }

  /// Returns the local block of original value `value`, resharded to the
  /// layout of `wanted` (the value's dimensions with another layout).
  Value blockAs(Value value, NamedTensorType wanted, Location loc) {
    Resharder resharder(builder, loc, mesh);
    return resharder.reshard(blocks.lookup(value), globalTypeOf(value), wanted);
  }

  /// Builds a copy of `op` on the given operands with the given result type,
  /// keeping its attributes.
  Value cloneOn(Operation *op, ValueRange operands, Type resultType) {
    OperationState state(op->getLoc(), op->getName(), operands,
                         TypeRange{resultType}, op->getAttrs());
    return builder.create(state)->getResult(0);
  }

  /// Partitions `op` by the rule its PartitionableOpInterface gives, then
  /// keeps the padding of padded splits zero.
  LogicalResult partition(Operation *op);
  LogicalResult partitionByRule(Operation *op);
  LogicalResult partitionElementwise(Operation *op);
  LogicalResult partitionEinsum(EinsumOp op);
  LogicalResult partitionReduce(ReduceOp op);
  LogicalResult partitionRename(RenameOp op);
  LogicalResult partitionReshape(ReshapeOp op);
  LogicalResult partitionAcross(Operation *op, ArrayRef<StringRef> across);
  bool tryPartitionSplitSoftmax(Operation *op);
  bool tryPartitionSplitLayerNorm(LayerNormOp op);
  bool tryPartitionSplitGather(GatherOp op);
  bool tryPartitionSplitTopK(TopKOp op);
  LogicalResult partitionWindow(Operation *op);
  LogicalResult partitionWindowGradient(Operation *op);
  LogicalResult partitionInitializer(Operation *op);
  /// Extends `block` along `dim` by `low` rows of its predecessor on `axis`
  /// and `high` rows of its successor (`padValue` at the mesh's edges).
  Value exchangeHalo(Value block, StringRef dim, StringAttr axis, int64_t low,
                     int64_t high, double padValue, Location loc) {
    auto type = cast<NamedTensorType>(block.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[*type.getDimIndex(dim)] += low + high;
    return HaloExchangeOp::create(
        builder, loc,
        NamedTensorType::get(block.getContext(), type.getDimNames(), shape,
                             type.getElementType(), LayoutAttr()),
        block, builder.getStringAttr(dim), axis,
        builder.getDenseI64ArrayAttr({low, high}),
        builder.getF64FloatAttr(padValue));
  }
  LogicalResult partitionWhole(Operation *op);

  func::FuncOp func;
  MeshAttr mesh;
  OpBuilder builder;
  /// The local block that stands for each original value.
  llvm::DenseMap<Value, Value> blocks;
  /// The original types of the function's arguments, which are retyped.
  llvm::DenseMap<Value, NamedTensorType> argumentTypes;
};

// Element-wise ops (and transposes, which keep every element under its
// dimension names) compute each element from the same element of their
// operands, so once every operand has the result's layout the local op on
// local blocks computes the local block of the result.
LogicalResult FunctionPartitioner::partitionElementwise(Operation *op) {
  auto result = cast<NamedTensorType>(op->getResult(0).getType());
  SmallVector<Value> operands;
  for (Value operand : op->getOperands())
    operands.push_back(blockAs(
        operand, withLayoutOn(globalTypeOf(operand), result.getLayout()),
        op->getLoc()));
  NamedTensorType local = localTypeOf(result, mesh);
  Value block = cloneOn(op, operands, local);
  // A dropout's mask is a function of each element's global index: a block
  // keeps the global type (with its layout) to find them.
  if (auto dropout = dyn_cast<DropoutOp>(block.getDefiningOp()))
    if (local != result.withLayout(LayoutAttr()))
      dropout.setGlobalTypeAttr(TypeAttr::get(result));
  blocks[op->getResult(0)] = block;
  return success();
}

// An einsum runs on blocks: output dimensions are split as the result
// wants, and a contracted dimension may stay split, in which case each rank
// holds a partial sum that an all_reduce over its axes completes.
LogicalResult FunctionPartitioner::partitionEinsum(EinsumOp op) {
  NamedTensorType result = op.getType();
  MLIRContext *context = op.getContext();
  llvm::SmallDenseSet<StringAttr> usedAxes;
  SmallVector<StringAttr> dims;
  SmallVector<ArrayAttr> dimAxes;
  if (LayoutAttr layout = result.getLayout())
    for (auto [dim, axes] : llvm::zip(layout.getDims(), layout.getAxes())) {
      dims.push_back(dim);
      dimAxes.push_back(axes);
      for (Attribute axis : axes)
        usedAxes.insert(cast<StringAttr>(axis));
    }
  // A contracted dimension keeps the split of the first input that splits
  // it, unless one of those axes is taken already.
  SmallVector<StringAttr> partialAxes;
  for (Value input : op.getInputs()) {
    NamedTensorType type = globalTypeOf(input);
    if (!type.getLayout())
      continue;
    for (auto [dim, axes] :
         llvm::zip(type.getLayout().getDims(), type.getLayout().getAxes())) {
      if (result.hasDim(dim.getValue()) || llvm::is_contained(dims, dim))
        continue;
      if (llvm::any_of(axes, [&](Attribute axis) {
            return usedAxes.contains(cast<StringAttr>(axis));
          }))
        continue;
      dims.push_back(dim);
      dimAxes.push_back(axes);
      for (Attribute axis : axes) {
        usedAxes.insert(cast<StringAttr>(axis));
        partialAxes.push_back(cast<StringAttr>(axis));
      }
    }
  }
  LayoutAttr target =
      dims.empty() ? LayoutAttr() : LayoutAttr::get(context, dims, dimAxes);
  SmallVector<Value> operands;
  for (Value input : op.getInputs())
    operands.push_back(
        blockAs(input, withLayoutOn(globalTypeOf(input), target), op.getLoc()));
  Value partial = cloneOn(op, operands, localTypeOf(result, mesh));
  Resharder resharder(builder, op.getLoc(), mesh);
  blocks[op.getResult()] = resharder.completePartialSum(partial, partialAxes);
  return success();
}

// A reduction over a split dimension reduces each block and then combines
// the ranks' results; a mean is a sum scaled by the global count.
LogicalResult FunctionPartitioner::partitionReduce(ReduceOp op) {
  NamedTensorType input = globalTypeOf(op.getInput());
  NamedTensorType result = op.getType();
  SmallVector<StringAttr> splitReduced;
  int64_t reducedCount = 1;
  for (auto [dim, size] : llvm::zip(input.getDimNames(), input.getShape())) {
    if (result.hasDim(dim.getValue()))
      continue;
    reducedCount *= size;
    if (input.getLayout())
      for (StringAttr axis : input.getLayout().getAxesOf(dim.getValue()))
        splitReduced.push_back(axis);
  }
  // The local result keeps the input's splits of the kept dimensions.
  NamedTensorType keptLayout = withLayoutOn(result, input.getLayout());
  Type localResult = localTypeOf(keptLayout, mesh);
  Value block = blocks.lookup(op.getInput());
  Location loc = op.getLoc();
  // Zero padding is right for a sum; the others need their identity there.
  if (!splitReduced.empty() && op.getKind() != ReduceKind::Sum &&
      op.getKind() != ReduceKind::Mean) {
    double identity = op.getKind() == ReduceKind::Max
                          ? -std::numeric_limits<double>::infinity()
                      : op.getKind() == ReduceKind::Min
                          ? std::numeric_limits<double>::infinity()
                          : 1.0;
    // Only the reduced dimensions: the kept ones stay zero-padded.
    SmallVector<StringRef> kept;
    for (StringAttr dim : result.getDimNames())
      kept.push_back(dim.getValue());
    Resharder masker(builder, loc, mesh);
    block = masker.maskPadding(
        block, input.withLayout(withoutSplitsOf(input, kept)), identity);
  }
  Value reduced;
  if (splitReduced.empty()) {
    reduced = cloneOn(op, block, localResult);
  } else {
    bool isMean = op.getKind() == ReduceKind::Mean;
    ReduceKind localKind = isMean ? ReduceKind::Sum : op.getKind();
    Value local = ReduceOp::create(builder, loc, localResult, localKind, block);
    CollectiveKind combine = localKind == ReduceKind::Max ? CollectiveKind::Max
                             : localKind == ReduceKind::Min
                                 ? CollectiveKind::Min
                                 : CollectiveKind::Sum;
    SmallVector<Attribute> axes(splitReduced.begin(), splitReduced.end());
    reduced = AllReduceOp::create(builder, loc, localResult, combine, local,
                                  builder.getArrayAttr(axes));
    if (isMean) {
      auto scalar = NamedTensorType::get(op.getContext(), {}, {},
                                         result.getElementType(), LayoutAttr());
      Value scale = ConstantOp::create(
          builder, loc, scalar,
          builder.getFloatAttr(builder.getF64Type(), 1.0 / reducedCount));
      reduced = MulOp::create(builder, loc, localResult, reduced, scale);
    }
  }
  Resharder resharder(builder, loc, mesh);
  blocks[op.getResult()] = resharder.reshard(reduced, keptLayout, result);
  return success();
}

// A rename moves no data: dimension i of the result is dimension i of the
// input under another name, so the input is resharded to carry the result's
// splits position by position and renamed locally.
LogicalResult FunctionPartitioner::partitionRename(RenameOp op) {
  NamedTensorType input = globalTypeOf(op.getInput());
  NamedTensorType result = op.getType();
  SmallVector<StringAttr> dims;
  SmallVector<ArrayAttr> axes;
  if (LayoutAttr layout = result.getLayout())
    for (auto [inputDim, resultDim] :
         llvm::zip(input.getDimNames(), result.getDimNames())) {
      SmallVector<StringAttr> resultAxes = layout.getAxesOf(resultDim);
      if (resultAxes.empty())
        continue;
      dims.push_back(inputDim);
      axes.push_back(builder.getArrayAttr(
          SmallVector<Attribute>(resultAxes.begin(), resultAxes.end())));
    }
  NamedTensorType wanted = input.withLayout(
      dims.empty() ? LayoutAttr()
                   : LayoutAttr::get(op.getContext(), dims, axes));
  Value block = blockAs(op.getInput(), wanted, op.getLoc());
  blocks[op.getResult()] = cloneOn(op, block, localTypeOf(result, mesh));
  return success();
}

// A reshape moves no data where a split of the result carries over from
// the input (layouts/Reshape.h): a dimension carried over unchanged, or the
// major part of a merged or split dimension whose blocks line up, as in
// hidden:512 over 4 -> [heads:8 over 4, head_dim:64]. The input takes those
// splits on the dimensions they come from, so that only the other split
// dimensions of the groups involved are gathered, the block is reshaped
// locally, and the result's remaining splits are sliced.
LogicalResult FunctionPartitioner::partitionReshape(ReshapeOp op) {
  NamedTensorType input = globalTypeOf(op.getInput());
  NamedTensorType result = op.getType();
  std::vector<int64_t> from(input.getShape().begin(), input.getShape().end());
  std::vector<int64_t> to(result.getShape().begin(), result.getShape().end());
  SmallVector<StringAttr> inputDims, resultDims;
  SmallVector<ArrayAttr> splitAxes;
  if (LayoutAttr layout = result.getLayout())
    for (auto [dim, axes] : llvm::zip(layout.getDims(), layout.getAxes())) {
      SmallVector<StringAttr> names = axesOf(layout, dim.getValue());
      std::optional<size_t> source = ::tessel::layout::splitSourceOfReshape(
          from, to, *result.getDimIndex(dim.getValue()),
          *mesh.getGroupSize(names));
      if (!source)
        continue;
      inputDims.push_back(input.getDimNames()[*source]);
      resultDims.push_back(dim);
      splitAxes.push_back(axes);
    }
  auto layoutOf = [&](ArrayRef<StringAttr> dims) {
    return dims.empty() ? LayoutAttr()
                        : LayoutAttr::get(op.getContext(), dims, splitAxes);
  };
  Value block = blockAs(op.getInput(), input.withLayout(layoutOf(inputDims)),
                        op.getLoc());
  NamedTensorType computed = result.withLayout(layoutOf(resultDims));
  Value local = cloneOn(op, block, localTypeOf(computed, mesh));
  Resharder resharder(builder, op.getLoc(), mesh);
  blocks[op.getResult()] = resharder.reshard(local, computed, result);
  return success();
}

// Ops that combine elements across some dimensions (softmax over a class
// dimension, a convolution over its window) but treat every index of the
// other dimensions alike run on blocks that hold those dimensions whole:
// a batch split stays a batch split.
// Softmax, log_softmax and cross-entropy along a split dimension need not
// gather it: a max and a sum across the ranks are enough (see
// SplitReductions.h). Returns false, building nothing, when the dimension
// is not split or its axes are taken by another dimension of the result.
bool FunctionPartitioner::tryPartitionSplitSoftmax(Operation *op) {
  auto softmax = dyn_cast<SoftmaxOp>(op);
  auto logSoftmax = dyn_cast<LogSoftmaxOp>(op);
  auto loss = dyn_cast<SoftmaxCrossEntropyOp>(op);
  if (!softmax && !logSoftmax && !loss)
    return false;
  Value x = op->getOperand(0);
  NamedTensorType input = globalTypeOf(x);
  StringRef dim = softmax      ? softmax.getDim()
                  : logSoftmax ? logSoftmax.getDim()
                               : loss.getDim();
  // Softmax keeps the class dimension, so the result's layout decides its
  // split; cross-entropy drops it, so the logits' layout does.
  auto result = cast<NamedTensorType>(op->getResult(0).getType());
  NamedTensorType splitBy = loss ? input : result;
  SmallVector<StringAttr> axes = axesOf(splitBy.getLayout(), dim);
  // A padded class dimension is gathered instead (exp(0) is not zero).
  if (axes.empty() || llvm::is_contained(paddedDimsOf(splitBy, mesh), dim))
    return false;
  // The input: the result's splits on the other dimensions, `axes` on dim.
  SmallVector<StringRef> others = {dim};
  LayoutAttr rest = withoutSplitsOf(result, others);
  std::optional<NamedTensorType> wanted =
      withSplitAdded(input, rest, dim, axes);
  if (!wanted)
    return false;
  Value block = blockAs(x, *wanted, op->getLoc());
  Value computed;
  NamedTensorType computedType;
  if (loss) {
    Value labels = blockAs(loss.getLabels(),
                           withLayoutOn(globalTypeOf(loss.getLabels()), rest),
                           op->getLoc());
    computed = buildSplitCrossEntropy(builder, op->getLoc(), block, labels, dim,
                                      *input.getDimSize(dim), axes);
    computedType = result.withLayout(rest);
  } else {
    computed = buildSplitSoftmax(builder, op->getLoc(), block, dim, axes,
                                 /*logarithm=*/logSoftmax != nullptr);
    computedType = *wanted;
  }
  Resharder resharder(builder, op->getLoc(), mesh);
  blocks[op->getResult(0)] = resharder.reshard(computed, computedType, result);
  return true;
}

// Layer norm over split dimensions sums across the ranks instead of
// gathering: the block keeps the result's layout.
bool FunctionPartitioner::tryPartitionSplitLayerNorm(LayerNormOp op) {
  NamedTensorType result = op.getType();
  if (!result.getLayout())
    return false;
  SmallVector<StringRef> dims;
  SmallVector<StringAttr> axes;
  int64_t count = 1;
  for (Attribute dim : op.getDims()) {
    StringRef name = cast<StringAttr>(dim).getValue();
    dims.push_back(name);
    count *= *result.getDimSize(name);
    llvm::append_range(axes, result.getLayout().getAxesOf(name));
  }
  if (axes.empty() || !paddedDimsOf(result, mesh).empty())
    return false;
  Value block = blockAs(op.getInput(), result, op.getLoc());
  blocks[op.getResult()] =
      buildSplitLayerNorm(builder, op.getLoc(), block, dims, axes, count,
                          op.getEpsilon().convertToDouble());
  return true;
}

// An embedding lookup from a table split along its lookup dimension: each
// rank serves the ids in its rows (see SplitReductions.h).
bool FunctionPartitioner::tryPartitionSplitGather(GatherOp op) {
  NamedTensorType table = globalTypeOf(op.getTable());
  SmallVector<StringAttr> axes = axesOf(table.getLayout(), op.getDim());
  if (axes.empty() ||
      llvm::is_contained(paddedDimsOf(table, mesh), op.getDim()))
    return false;
  NamedTensorType result = op.getType();
  SmallVector<StringRef> lookup = {op.getDim()};
  LayoutAttr rest = withoutSplitsOf(result, lookup);
  std::optional<NamedTensorType> wanted =
      withSplitAdded(table, rest, op.getDim(), axes);
  if (!wanted)
    return false;
  Value tableBlock = blockAs(op.getTable(), *wanted, op.getLoc());
  Value idsBlock = blockAs(
      op.getIds(), withLayoutOn(globalTypeOf(op.getIds()), rest), op.getLoc());
  NamedTensorType computed = result.withLayout(rest);
  Value block = buildSplitGather(builder, op.getLoc(), tableBlock, idsBlock,
                                 op.getDim(), *table.getDimSize(op.getDim()),
                                 axes, localTypeOf(computed, mesh));
  Resharder resharder(builder, op.getLoc(), mesh);
  blocks[op.getResult()] = resharder.reshard(block, computed, result);
  return true;
}

// A top-k along a split dimension: each rank's top k, gathered, and the
// top k of those (see SplitReductions.h); k candidates per block travel
// instead of the whole dimension. A padded dimension is gathered instead
// (the zeros of the padding would be candidates).
bool FunctionPartitioner::tryPartitionSplitTopK(TopKOp op) {
  NamedTensorType input = globalTypeOf(op.getInput());
  StringRef dim = op.getDim();
  SmallVector<StringAttr> axes = axesOf(input.getLayout(), dim);
  if (axes.empty() || llvm::is_contained(paddedDimsOf(input, mesh), dim))
    return false;
  NamedTensorType result = op.getType();
  SmallVector<StringRef> worked = {dim, op.getOutDim()};
  LayoutAttr rest = withoutSplitsOf(result, worked);
  std::optional<NamedTensorType> wanted =
      withSplitAdded(input, rest, dim, axes);
  if (!wanted)
    return false;
  Value block = blockAs(op.getInput(), *wanted, op.getLoc());
  NamedTensorType computed = result.withLayout(rest);
  Value local =
      buildSplitTopK(builder, op.getLoc(), block, dim, *input.getDimSize(dim),
                     op.getKAttr().getInt(), op.getOutDim(), op.getIndices(),
                     axes, localTypeOf(computed, mesh));
  Resharder resharder(builder, op.getLoc(), mesh);
  blocks[op.getResult()] = resharder.reshard(local, computed, result);
  return true;
}

LogicalResult FunctionPartitioner::partitionAcross(Operation *op,
                                                   ArrayRef<StringRef> across) {
  if (auto gather = dyn_cast<GatherOp>(op))
    if (tryPartitionSplitGather(gather))
      return success();
  if (tryPartitionSplitSoftmax(op))
    return success();
  if (auto norm = dyn_cast<LayerNormOp>(op))
    if (tryPartitionSplitLayerNorm(norm))
      return success();
  if (auto topK = dyn_cast<TopKOp>(op))
    if (tryPartitionSplitTopK(topK))
      return success();
  auto result = cast<NamedTensorType>(op->getResult(0).getType());
  LayoutAttr target = withoutSplitsOf(result, across);
  SmallVector<Value> operands;
  for (Value operand : op->getOperands())
    operands.push_back(blockAs(
        operand, withLayoutOn(globalTypeOf(operand), target), op->getLoc()));
  NamedTensorType computed = result.withLayout(target);
  Value block = cloneOn(op, operands, localTypeOf(computed, mesh));
  Resharder resharder(builder, op->getLoc(), mesh);
  blocks[op->getResult(0)] = resharder.reshard(block, computed, result);
  return success();
}

// A convolution or pooling whose spatial dimension is split keeps it split
// when each block's output rows need only the block's input rows plus
// `low` rows of the previous block and `high` of the next: block g of the
// output, rows [g m, (g+1) m), reads input rows [g m s - low, ...), which
// starts at the block's first row g n exactly when m s = n. A halo_exchange
// then brings the neighbours' rows, edge ranks receive the global padding
// value, and the local op runs without padding on that dimension.
LogicalResult FunctionPartitioner::partitionWindow(Operation *op) {
  auto conv = dyn_cast<Conv2DOp>(op);
  auto pool = dyn_cast<PoolOp>(op);
  auto result = cast<NamedTensorType>(op->getResult(0).getType());
  NamedTensorType input = globalTypeOf(op->getOperand(0));
  ArrayAttr spatial = conv ? conv.getSpatial() : pool.getSpatial();
  ArrayRef<int64_t> strides = conv ? conv.getStrides() : pool.getStrides();
  SmallVector<int64_t> padding(conv ? conv.getPadding() : pool.getPadding());
  // Max pooling ignores padding, which a minus-infinity row does too; an
  // average pool counts only real rows, so it only splits without halos.
  bool isAverage = pool && pool.getKind() == PoolKind::Avg;
  double padValue =
      pool && !isAverage ? -std::numeric_limits<double>::infinity() : 0.0;

  struct Halo {
    StringRef dim;
    StringAttr axis;
    int64_t low, high;
  };
  SmallVector<Halo> halos;
  // The spatial dimensions that stay split, with or without a halo.
  SmallVector<StringRef> kept;
  for (unsigned i = 0; i < 2; ++i) {
    StringRef dim = cast<StringAttr>(spatial[i]).getValue();
    SmallVector<StringAttr> axes = axesOf(result.getLayout(), dim);
    if (axes.size() != 1)
      continue;
    int64_t blocks = *mesh.getAxisSize(axes[0].getValue());
    int64_t size = *input.getDimSize(dim), outSize = *result.getDimSize(dim);
    if (size % blocks != 0 || outSize % blocks != 0)
      continue;
    int64_t n = size / blocks, m = outSize / blocks;
    int64_t extent =
        conv ? conv.getDilations()[i] *
                       (*conv.getFilter().getType().getDimSize(
                            cast<StringAttr>(conv.getKernel()[i]).getValue()) -
                        1) +
                   1
             : pool.getWindow()[i];
    int64_t low = padding[2 * i], high = extent - strides[i] - low;
    if (m * strides[i] != n || high < 0 || low > n || high > n)
      continue;
    if (isAverage && (low != 0 || high != 0))
      continue;
    kept.push_back(dim);
    // Windows that tile the blocks exactly need no neighbour rows.
    if (low != 0 || high != 0)
      halos.push_back({dim, axes[0], low, high});
    padding[2 * i] = padding[2 * i + 1] = 0;
  }

  SmallVector<StringRef> across;
  for (StringRef dim : cast<PartitionableOpInterface>(op).getDimsWorkedAcross())
    if (!llvm::is_contained(kept, dim))
      across.push_back(dim);
  LayoutAttr target = withoutSplitsOf(result, across);
  SmallVector<Value> operands;
  for (Value operand : op->getOperands())
    operands.push_back(blockAs(
        operand, withLayoutOn(globalTypeOf(operand), target), op->getLoc()));
  for (const Halo &halo : halos)
    operands[0] = exchangeHalo(operands[0], halo.dim, halo.axis, halo.low,
                               halo.high, padValue, op->getLoc());
  NamedTensorType computed = result.withLayout(target);
  Operation *local =
      cloneOn(op, operands, localTypeOf(computed, mesh)).getDefiningOp();
  local->setAttr("padding", builder.getDenseI64ArrayAttr(padding));
  Resharder resharder(builder, op->getLoc(), mesh);
  blocks[op->getResult(0)] =
      resharder.reshard(local->getResult(0), computed, result);
  return success();
}

// The gradients of convolutions and pooling keep the splits that let each
// rank compute its block from its blocks plus halos, like the forward ops:
//
// - pass-through dimensions (the batch) stay split as the result wants; a
//   batch that the result lacks (the filter's gradient sums over it) stays
//   split as the gradient dy has it and leaves a partial sum;
// - a channel the result lacks (dy's output channel, for the input's
//   gradient) stays split as dy has it and leaves a partial sum;
// - a spatial dimension split over one axis stays split when the blocks
//   line up: for the input's gradient of a stride-1 "same" convolution,
//   dx rows [r, r + n) need dy rows [r - pad_high, r + n + pad_low), a halo
//   of dy, and the local op pads (K - 1) d rows on both sides; for the
//   filter's gradient each rank's output rows need the input rows the
//   forward op reads (a halo of x, as in partitionWindow), and the spatial
//   sum leaves a partial sum; max or average pooling whose windows tile the
//   blocks (window = stride, no padding) is local.
//
// Any other split is gathered first, which is always correct.
LogicalResult FunctionPartitioner::partitionWindowGradient(Operation *op) {
  auto backwardInput = dyn_cast<Conv2DBackwardInputOp>(op);
  auto backwardFilter = dyn_cast<Conv2DBackwardFilterOp>(op);
  auto poolBackward = dyn_cast<PoolBackwardOp>(op);
  MLIRContext *context = op->getContext();
  auto result = cast<NamedTensorType>(op->getResult(0).getType());
  // The input x and the result's gradient dy as the forward op saw them.
  NamedTensorType x = backwardInput ? result : globalTypeOf(op->getOperand(0));
  NamedTensorType dy =
      globalTypeOf(backwardInput ? op->getOperand(0) : op->getOperand(1));
  ArrayAttr spatial;
  SmallVector<int64_t> strides, padding, extent(2, 0);
  if (poolBackward) {
    spatial = poolBackward.getSpatial();
    strides.assign(poolBackward.getStrides().begin(),
                   poolBackward.getStrides().end());
    padding.assign(poolBackward.getPadding().begin(),
                   poolBackward.getPadding().end());
    for (unsigned i = 0; i < 2; ++i)
      extent[i] = poolBackward.getWindow()[i];
  } else {
    auto attr = [&](StringRef name) {
      return cast<DenseI64ArrayAttr>(op->getAttr(name)).asArrayRef();
    };
    spatial = cast<ArrayAttr>(op->getAttr("spatial"));
    auto kernel = cast<ArrayAttr>(op->getAttr("kernel"));
    NamedTensorType filter =
        backwardInput ? globalTypeOf(op->getOperand(1)) : result;
    strides.assign(attr("strides").begin(), attr("strides").end());
    padding.assign(attr("padding").begin(), attr("padding").end());
    for (unsigned i = 0; i < 2; ++i)
      extent[i] =
          attr("dilations")[i] *
              (*filter.getDimSize(cast<StringAttr>(kernel[i]).getValue()) - 1) +
          1;
  }

  SmallVector<StringAttr> dims, partialAxes;
  SmallVector<ArrayAttr> dimAxes;
  llvm::SmallDenseSet<StringAttr> usedAxes;
  auto keep = [&](StringAttr dim, ArrayRef<StringAttr> axes, bool partial) {
    if (axes.empty() || llvm::is_contained(dims, dim) ||
        llvm::any_of(axes, [&](StringAttr a) { return usedAxes.contains(a); }))
      return false;
    dims.push_back(dim);
    SmallVector<Attribute> names(axes.begin(), axes.end());
    dimAxes.push_back(ArrayAttr::get(context, names));
    for (StringAttr axis : axes) {
      usedAxes.insert(axis);
      if (partial)
        partialAxes.push_back(axis);
    }
    return true;
  };

  // Spatial dimensions first, with the halos and paddings they need.
  struct Halo {
    StringRef dim;
    StringAttr axis;
    int64_t low, high;
  };
  SmallVector<Halo> halos;
  for (unsigned i = 0; i < 2; ++i) {
    StringAttr dim = cast<StringAttr>(spatial[i]);
    SmallVector<StringAttr> axes =
        backwardFilter ? axesOf(dy.getLayout(), dim.getValue())
                       : axesOf(result.getLayout(), dim.getValue());
    if (axes.size() != 1)
      continue;
    int64_t blocks = *mesh.getAxisSize(axes[0].getValue());
    int64_t size = *x.getDimSize(dim.getValue());
    int64_t outSize = *dy.getDimSize(dim.getValue());
    if (size % blocks != 0 || outSize % blocks != 0)
      continue;
    int64_t n = size / blocks, m = outSize / blocks;
    int64_t low = 0, high = 0;
    if (poolBackward) {
      if (extent[i] != strides[i] || padding[2 * i] != 0 ||
          padding[2 * i + 1] != 0 || m * strides[i] != n)
        continue;
    } else if (backwardInput) {
      if (strides[i] != 1 || m != n ||
          padding[2 * i] + padding[2 * i + 1] != extent[i] - 1)
        continue;
      low = padding[2 * i + 1];
      high = padding[2 * i];
      padding[2 * i] = padding[2 * i + 1] = extent[i] - 1;
    } else {
      low = padding[2 * i];
      high = extent[i] - strides[i] - low;
      if (m * strides[i] != n || high < 0)
        continue;
      padding[2 * i] = padding[2 * i + 1] = 0;
    }
    if (low > n || high > n || low > m || high > m)
      continue;
    keep(dim, axes, /*partial=*/backwardFilter != nullptr);
    if (low != 0 || high != 0)
      halos.push_back({dim.getValue(), axes[0], low, high});
  }
  // A grouped convolution's channels are gathered whole: a block of one
  // channel would see the wrong groups of the other.
  auto groupedChannel = [&](StringAttr dim) {
    if (poolBackward)
      return false;
    auto groups = cast<IntegerAttr>(op->getAttr("groups")).getInt();
    return groups > 1 && (dim == op->getAttr("input_channel") ||
                          dim == op->getAttr("output_channel"));
  };
  // Then the result's other splits, and the contracted dimensions.
  if (LayoutAttr layout = result.getLayout())
    for (auto [dim, axes] : llvm::zip(layout.getDims(), layout.getAxes())) {
      if (llvm::is_contained(spatial, dim) || groupedChannel(dim))
        continue;
      if (backwardFilter && dim != backwardFilter.getInputChannelAttr() &&
          dim != backwardFilter.getOutputChannelAttr())
        continue;
      SmallVector<StringAttr> names;
      for (Attribute axis : axes)
        names.push_back(cast<StringAttr>(axis));
      keep(dim, names, /*partial=*/false);
    }
  if (LayoutAttr layout = dy.getLayout())
    for (auto [dim, axes] : llvm::zip(layout.getDims(), layout.getAxes())) {
      if (result.hasDim(dim.getValue()) || llvm::is_contained(spatial, dim) ||
          groupedChannel(dim))
        continue;
      SmallVector<StringAttr> names;
      for (Attribute axis : axes)
        names.push_back(cast<StringAttr>(axis));
      keep(dim, names, /*partial=*/true);
    }
  // Every operand takes the splits on the dimensions it has: a channel kept
  // split in dy is split in the filter too, so both sum over one block.
  LayoutAttr target =
      dims.empty() ? LayoutAttr() : LayoutAttr::get(context, dims, dimAxes);

  SmallVector<Value> operands;
  for (Value operand : op->getOperands())
    operands.push_back(blockAs(
        operand, withLayoutOn(globalTypeOf(operand), target), op->getLoc()));
  // The halo goes to the first operand: dy for the input's gradient, x for
  // the filter's.
  for (const Halo &halo : halos)
    operands[0] = exchangeHalo(operands[0], halo.dim, halo.axis, halo.low,
                               halo.high, 0.0, op->getLoc());
  NamedTensorType computed = withLayoutOn(result, target);
  Operation *local =
      cloneOn(op, operands, localTypeOf(computed, mesh)).getDefiningOp();
  local->setAttr("padding", builder.getDenseI64ArrayAttr(padding));
  Resharder resharder(builder, op->getLoc(), mesh);
  Value complete =
      resharder.completePartialSum(local->getResult(0), partialAxes);
  blocks[op->getResult(0)] = resharder.reshard(complete, computed, result);
  return success();
}

// Any other op runs on whole operands: gather every split dimension, run the
// op as in the global program, then keep this rank's block of the result.
// Correct for every op, and the starting point that op-specific rules
// (halo exchanges for convolutions, masked lookups for split vocabularies,
// two-pass softmax over a split dimension) will replace.
LogicalResult FunctionPartitioner::partitionWhole(Operation *op) {
  if (op->getNumResults() != 1 ||
      !isa<NamedTensorType>(op->getResult(0).getType()))
    return op->emitOpError() << "cannot be partitioned";
  SmallVector<Value> operands;
  for (Value operand : op->getOperands())
    operands.push_back(blockAs(
        operand, globalTypeOf(operand).withLayout(LayoutAttr()), op->getLoc()));
  auto result = cast<NamedTensorType>(op->getResult(0).getType());
  Value whole = cloneOn(op, operands, result.withLayout(LayoutAttr()));
  Resharder resharder(builder, op->getLoc(), mesh);
  blocks[op->getResult(0)] =
      resharder.reshard(whole, result.withLayout(LayoutAttr()), result);
  return success();
}

// Sources whose block needs nothing from the rest of them make it on each
// rank. A parameter's elements are functions of their global indices: the
// op gets the rank's block type and keeps the global one in `block of` (a
// parameter its layout does not split stays as it is). A splat constant is
// the same splat of the block type.
LogicalResult FunctionPartitioner::partitionInitializer(Operation *op) {
  auto result = cast<NamedTensorType>(op->getResult(0).getType());
  NamedTensorType local = localTypeOf(result, mesh);
  Operation *block = builder.clone(*op);
  block->getResult(0).setType(local);
  if (auto parameter = dyn_cast<ParameterOp>(block))
    if (local != result.withLayout(LayoutAttr()))
      parameter.setGlobalTypeAttr(TypeAttr::get(result));
  blocks[op->getResult(0)] = block->getResult(0);
  return success();
}

// Padded splits (pad_uneven layouts) keep one invariant: the padding of
// every block holds zeros. Then a contraction or a sum over a padded
// dimension adds nothing from the padding, and ops that map zeros to zeros
// keep it; after any other op whose result has a padded dimension the
// padding is set to zero again.
static bool keepsZeroPadding(Operation *op, ArrayRef<StringRef> padded) {
  auto hasDim = [](Value operand, StringRef dim) {
    return cast<NamedTensorType>(operand.getType()).hasDim(dim);
  };
  // A sum or difference broadcasting an operand along a padded dimension
  // would write that operand into the padding; a product needs just one
  // operand that is zero there.
  if (isa<AddOp, SubOp>(op))
    return llvm::all_of(padded, [&](StringRef dim) {
      return llvm::all_of(op->getOperands(),
                          [&](Value v) { return hasDim(v, dim); });
    });
  if (isa<MulOp>(op))
    return llvm::all_of(padded, [&](StringRef dim) {
      return llvm::any_of(op->getOperands(),
                          [&](Value v) { return hasDim(v, dim); });
    });
  // A pad writes its value into the padding of the other dimensions' blocks.
  if (auto pad = dyn_cast<PadOp>(op))
    return pad.getValue().isZero();
  // A splat of zero is zero in the padding too.
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    if (auto real = dyn_cast<FloatAttr>(constant.getValue()))
      return real.getValue().isZero();
    if (auto integer = dyn_cast<IntegerAttr>(constant.getValue()))
      return integer.getValue().isZero();
    return false;
  }
  // Reshapes, slices and concatenations move elements, and their rules keep
  // a padded split only where the padding moves with its block. A
  // parameter's block holds zeros past the end of its dimensions.
  return isa<EinsumOp, NegOp, ReluOp, AbsOp, TransposeOp, RenameOp, CastOp,
             ReduceOp, ReshapeOp, SliceOp, ConcatOp, ParameterOp, DropoutOp>(
      op);
}

LogicalResult FunctionPartitioner::partition(Operation *op) {
  for (Type type : op->getResultTypes())
    if (auto tensor = dyn_cast<NamedTensorType>(type))
      if (failed(checkLayoutOnMesh(tensor, mesh,
                                   [&] { return op->emitOpError(); })))
        return failure();
  if (failed(partitionByRule(op)))
    return failure();
  if (op->getNumResults() != 1)
    return success();
  auto result = dyn_cast<NamedTensorType>(op->getResult(0).getType());
  if (!result)
    return success();
  SmallVector<StringRef> padded = paddedDimsOf(result, mesh);
  if (padded.empty() || keepsZeroPadding(op, padded))
    return success();
  Resharder resharder(builder, op->getLoc(), mesh);
  blocks[op->getResult(0)] =
      resharder.maskPadding(blocks.lookup(op->getResult(0)), result, 0.0);
  return success();
}

LogicalResult FunctionPartitioner::partitionByRule(Operation *op) {
  auto partitionable = dyn_cast<PartitionableOpInterface>(op);
  if (!partitionable)
    return op->emitOpError() << "cannot be partitioned: it is not a "
                                "model-level op";
  switch (partitionable.getPartitionRule()) {
  case PartitionRule::Elementwise:
    return partitionElementwise(op);
  case PartitionRule::Contraction:
    return partitionEinsum(cast<EinsumOp>(op));
  case PartitionRule::Reduction:
    return partitionReduce(cast<ReduceOp>(op));
  case PartitionRule::Positional:
    return partitionRename(cast<RenameOp>(op));
  case PartitionRule::Regrouping:
    return partitionReshape(cast<ReshapeOp>(op));
  case PartitionRule::Across:
    return partitionAcross(op, partitionable.getDimsWorkedAcross());
  case PartitionRule::SlidingWindow:
    return partitionWindow(op);
  case PartitionRule::WindowGradient:
    return partitionWindowGradient(op);
  case PartitionRule::Initializer:
    return partitionInitializer(op);
  case PartitionRule::Whole:
    return partitionWhole(op);
  }
  llvm_unreachable("unknown partition rule");
}

LogicalResult FunctionPartitioner::run() {
  Block &body = func.getBody().front();
  // The ops of the per-rank program index blocks, so the range of an id
  // input is recorded while the global program still shows it: before any
  // argument (an embedding table, say) becomes a block.
  for (BlockArgument argument : body.getArguments())
    if (std::optional<int64_t> bound = getIndexBound(argument))
      func.setArgAttr(argument.getArgNumber(), kIndexBoundAttrName,
                      builder.getI64IntegerAttr(*bound));
  // Arguments become blocks; their global types are kept for the tools.
  for (BlockArgument argument : body.getArguments()) {
    auto type = dyn_cast<NamedTensorType>(argument.getType());
    if (!type)
      return func.emitError() << "argument #" << argument.getArgNumber()
                              << " is not a tessel tensor";
    if (failed(checkLayoutOnMesh(type, mesh, [&] {
          return emitError(argument.getLoc())
                 << "argument #" << argument.getArgNumber() << " of @"
                 << func.getSymName() << ": ";
        })))
      return failure();
    argumentTypes[argument] = type;
    func.setArgAttr(argument.getArgNumber(), kGlobalTypeAttrName,
                    TypeAttr::get(type));
    argument.setType(localTypeOf(type, mesh));
    blocks[argument] = argument;
  }

  SmallVector<Operation *> originals;
  for (Operation &op : body.without_terminator())
    originals.push_back(&op);
  for (Operation *op : originals) {
    builder.setInsertionPoint(op);
    if (failed(partition(op)))
      return failure();
  }

  // Each result leaves in the layout its function type promises.
  Operation *terminator = body.getTerminator();
  builder.setInsertionPoint(terminator);
  for (OpOperand &returned : terminator->getOpOperands()) {
    NamedTensorType global = globalTypeOf(returned.get());
    func.setResultAttr(returned.getOperandNumber(), kGlobalTypeAttrName,
                       TypeAttr::get(global));
    returned.set(blocks.lookup(returned.get()));
  }
  for (Operation *op : llvm::reverse(originals))
    op->erase();
  func.setType(FunctionType::get(func.getContext(), body.getArgumentTypes(),
                                 terminator->getOperandTypes()));
  return success();
}

struct PartitionPass : mlir::tessel::impl::TesselPartitionBase<PartitionPass> {
  void runOnOperation() final {
    ModuleOp module = getOperation();
    MeshAttr mesh = getEnclosingMesh(module);
    if (!mesh) {
      module.emitError() << "tessel-partition needs a mesh: run "
                            "tessel-apply-layout first";
      return signalPassFailure();
    }
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && failed(FunctionPartitioner(func, mesh).run()))
        return signalPassFailure();
  }
};

} // namespace
