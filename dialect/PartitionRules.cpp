//===- PartitionRules.cpp - which partitioning rule each op follows -------===//
//
// The PartitionableOpInterface implementations of the model-level ops. Ops
// not listed here use the interface's default: operands gathered whole.
//
//===----------------------------------------------------------------------===//

#include "dialect/TesselDialect.h"

using namespace mlir;
using namespace mlir::tessel;

#define TESSEL_PARTITION_RULE(Op, Rule)                                        \
  PartitionRule Op::getPartitionRule() { return PartitionRule::Rule; }

TESSEL_PARTITION_RULE(NegOp, Elementwise)
TESSEL_PARTITION_RULE(AbsOp, Elementwise)
TESSEL_PARTITION_RULE(ExpOp, Elementwise)
TESSEL_PARTITION_RULE(LogOp, Elementwise)
TESSEL_PARTITION_RULE(SqrtOp, Elementwise)
TESSEL_PARTITION_RULE(RsqrtOp, Elementwise)
TESSEL_PARTITION_RULE(TanhOp, Elementwise)
TESSEL_PARTITION_RULE(SigmoidOp, Elementwise)
TESSEL_PARTITION_RULE(ReluOp, Elementwise)
// A buffer's next value is laid out as the buffer.
TESSEL_PARTITION_RULE(UpdateBufferOp, Elementwise)
TESSEL_PARTITION_RULE(GeluOp, Elementwise)
TESSEL_PARTITION_RULE(ErfOp, Elementwise)
TESSEL_PARTITION_RULE(SinOp, Elementwise)
TESSEL_PARTITION_RULE(CosOp, Elementwise)
TESSEL_PARTITION_RULE(AddOp, Elementwise)
TESSEL_PARTITION_RULE(SubOp, Elementwise)
TESSEL_PARTITION_RULE(MulOp, Elementwise)
TESSEL_PARTITION_RULE(DivOp, Elementwise)
TESSEL_PARTITION_RULE(MaxOp, Elementwise)
TESSEL_PARTITION_RULE(MinOp, Elementwise)
TESSEL_PARTITION_RULE(PowOp, Elementwise)
TESSEL_PARTITION_RULE(CompareOp, Elementwise)
TESSEL_PARTITION_RULE(SelectOp, Elementwise)
TESSEL_PARTITION_RULE(CastOp, Elementwise)
// Dropout runs on the block of its input that the result's layout gives,
// each element drawing its mask from its global index (the partitioner
// records the global type in `block of`).
TESSEL_PARTITION_RULE(DropoutOp, Elementwise)
// Each result element reads the input element at its own indices, so once
// the input has the result's layout on the dimensions it has, the copy is
// local.
TESSEL_PARTITION_RULE(BroadcastOp, Elementwise)
// A transpose keeps every element under its dimension names.
TESSEL_PARTITION_RULE(TransposeOp, Elementwise)
TESSEL_PARTITION_RULE(EinsumOp, Contraction)
TESSEL_PARTITION_RULE(RenameOp, Positional)
TESSEL_PARTITION_RULE(ReshapeOp, Regrouping)
// Slices, pads and concatenations move elements along the dimensions they
// change and copy every index of the others alike.
TESSEL_PARTITION_RULE(SliceOp, Across)
TESSEL_PARTITION_RULE(PadOp, Across)
TESSEL_PARTITION_RULE(ConcatOp, Across)
TESSEL_PARTITION_RULE(SoftmaxOp, Across)
TESSEL_PARTITION_RULE(LogSoftmaxOp, Across)
TESSEL_PARTITION_RULE(SoftmaxCrossEntropyOp, Across)
TESSEL_PARTITION_RULE(LayerNormOp, Across)
// A prefix sum along a split dimension would need the sums of the earlier
// blocks, and an argmax the other blocks' maxima: both gather the dimension
// they work along whole, and keep the splits of the others.
TESSEL_PARTITION_RULE(CumsumOp, Across)
TESSEL_PARTITION_RULE(ArgmaxOp, Across)
// A top-k keeps the splits of the other dimensions; along a split `dim`
// tessel-partition takes a top-k of each block first (Partition.cpp).
TESSEL_PARTITION_RULE(TopKOp, Across)
TESSEL_PARTITION_RULE(Conv2DOp, SlidingWindow)
TESSEL_PARTITION_RULE(PoolOp, SlidingWindow)
TESSEL_PARTITION_RULE(Conv2DBackwardInputOp, WindowGradient)
TESSEL_PARTITION_RULE(Conv2DBackwardFilterOp, WindowGradient)
TESSEL_PARTITION_RULE(PoolBackwardOp, WindowGradient)
TESSEL_PARTITION_RULE(GatherOp, Across)
TESSEL_PARTITION_RULE(OneHotOp, Across)
// Each rank initialises its own block of a parameter: no whole tensor on
// any rank, no slicing.
TESSEL_PARTITION_RULE(ParameterOp, Initializer)
#undef TESSEL_PARTITION_RULE

// A splat's block is the same splat (optimizer state starts as one); a
// dense constant is cut from the whole.
PartitionRule ConstantOp::getPartitionRule() {
  return isa<FloatAttr, IntegerAttr>(getValue()) ? PartitionRule::Initializer
                                                 : PartitionRule::Whole;
}

// A product has no collective to combine partial products with.
PartitionRule ReduceOp::getPartitionRule() {
  return getKind() == ReduceKind::Prod ? PartitionRule::Whole
                                       : PartitionRule::Reduction;
}

/// Returns the names in an array of string attributes.
static SmallVector<StringRef> namesOf(ArrayAttr names) {
  SmallVector<StringRef> result;
  for (Attribute name : names)
    result.push_back(cast<StringAttr>(name).getValue());
  return result;
}

SmallVector<StringRef> SoftmaxOp::getDimsWorkedAcross() { return {getDim()}; }
SmallVector<StringRef> LogSoftmaxOp::getDimsWorkedAcross() {
  return {getDim()};
}
SmallVector<StringRef> SoftmaxCrossEntropyOp::getDimsWorkedAcross() {
  return {getDim()};
}
SmallVector<StringRef> CumsumOp::getDimsWorkedAcross() { return {getDim()}; }
SmallVector<StringRef> ArgmaxOp::getDimsWorkedAcross() { return {getDim()}; }
// The new dimension is made whole on every rank, like one_hot's.
SmallVector<StringRef> TopKOp::getDimsWorkedAcross() {
  return {getDim(), getOutDim()};
}
SmallVector<StringRef> LayerNormOp::getDimsWorkedAcross() {
  return namesOf(getDims());
}
// The window slides over the spatial dimensions, and the input channel is
// contracted. A grouped convolution's output channel is gathered whole too:
// a block of it would need a block of the input channels that a split of
// the output channel does not line up with.
SmallVector<StringRef> Conv2DOp::getDimsWorkedAcross() {
  SmallVector<StringRef> dims = namesOf(getSpatial());
  llvm::append_range(dims, namesOf(getKernel()));
  dims.push_back(getInputChannel());
  if (getGroups() > 1)
    dims.push_back(getOutputChannel());
  return dims;
}
SmallVector<StringRef> PoolOp::getDimsWorkedAcross() {
  return namesOf(getSpatial());
}
SmallVector<StringRef> GatherOp::getDimsWorkedAcross() { return {getDim()}; }
SmallVector<StringRef> OneHotOp::getDimsWorkedAcross() { return {getDim()}; }
SmallVector<StringRef> SliceOp::getDimsWorkedAcross() {
  return namesOf(getDims());
}
// A dimension padded by nothing is copied as it is, so its split can stay.
SmallVector<StringRef> PadOp::getDimsWorkedAcross() {
  SmallVector<StringRef> dims;
  for (auto [dim, low, high] : llvm::zip(getDims(), getLow(), getHigh()))
    if (low != 0 || high != 0)
      dims.push_back(cast<StringAttr>(dim).getValue());
  return dims;
}
SmallVector<StringRef> ConcatOp::getDimsWorkedAcross() { return {getDim()}; }
