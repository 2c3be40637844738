//===- MeshOps.cpp - verifiers of the mesh-level ops ----------------------===//

#include "dialect/AssemblyHelpers.h"
#include "dialect/DimensionChecks.h"
#include "dialect/TesselDialect.h"
#include "layouts/CheckedArithmetic.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tessel;

#define GET_OP_CLASSES
#include "dialect/TesselMeshOps.cpp.inc"

/// Checks that the enclosing module has a mesh and that `axes` are distinct
/// axes of it; returns the size of a group over them, or failure.
static FailureOr<int64_t> verifyGroupAxes(Operation *op, ArrayAttr axes) {
  MeshAttr mesh = getEnclosingMesh(op);
  if (!mesh)
    return op->emitOpError() << "requires a '" << TesselDialect::kMeshAttrName
                             << "' attribute on an enclosing module";
  if (axes.empty())
    return op->emitOpError() << "expected at least one mesh axis";
  llvm::SmallDenseSet<Attribute> seen;
  int64_t groupSize = 1;
  for (Attribute axis : axes) {
    StringRef name = cast<StringAttr>(axis).getValue();
    if (!seen.insert(axis).second)
      return op->emitOpError() << "mesh axis '" << name << "' is listed twice";
    std::optional<int64_t> size = mesh.getAxisSize(name);
    if (!size)
      return op->emitOpError() << "mesh has no axis '" << name << "'";
    groupSize *= *size;
  }
  return groupSize;
}

/// Checks that the group size divides `dim` of `type`.
static LogicalResult verifyDivisible(Operation *op, NamedTensorType type,
                                     StringRef dim, int64_t groupSize) {
  if (failed(verifyHasDim(op, type, dim, "input")))
    return failure();
  if (*type.getDimSize(dim) % groupSize != 0)
    return op->emitOpError()
           << "dimension '" << dim << "' of size " << *type.getDimSize(dim)
           << " does not divide into " << groupSize << " blocks";
  return success();
}

/// Returns `size` (of `dim`) times the group size, or emits an error if
/// that is larger than 2^63 - 1: a group of up to 2^31 ranks gathers
/// blocks of up to 2^63 - 1 elements.
static FailureOr<int64_t> verifyGroupTimes(Operation *op, StringRef dim,
                                           int64_t size, int64_t groupSize) {
  std::optional<int64_t> product = ::tessel::checkedMul(size, groupSize);
  if (!product)
    return op->emitOpError()
           << "dimension '" << dim << "' of size " << size << " times the "
           << groupSize << " ranks of the group is larger than 2^63 - 1";
  return *product;
}

/// Checks the result of an op that scales `dim` of its input, and keeps the
/// element type.
static LogicalResult verifyScaledResult(Operation *op, NamedTensorType input,
                                        NamedTensorType result, StringRef dim,
                                        int64_t newSize) {
  if (result.getDimNames() != input.getDimNames())
    return op->emitOpError() << "result must have the input's dimensions in "
                                "the same order";
  if (failed(verifyResultDims(op, result, dimsWithSize(input, dim, newSize))))
    return failure();
  return verifySameElementType(op, {input, result});
}

LogicalResult AllReduceOp::verify() {
  if (failed(verifyGroupAxes(*this, getAxes())))
    return failure();
  return verifySameShape(*this, getInput().getType(), getType());
}

LogicalResult AllGatherOp::verify() {
  FailureOr<int64_t> groupSize = verifyGroupAxes(*this, getAxes());
  NamedTensorType input = getInput().getType();
  if (failed(groupSize) ||
      failed(verifyHasDim(*this, input, getDim(), "input")))
    return failure();
  FailureOr<int64_t> gathered = verifyGroupTimes(
      *this, getDim(), *input.getDimSize(getDim()), *groupSize);
  if (failed(gathered))
    return failure();
  return verifyScaledResult(*this, input, getType(), getDim(), *gathered);
}

/// Verifies an op that leaves each group member one of the group-size
/// blocks of `dim` (reduce_scatter, shard_slice).
static LogicalResult verifyKeepsOneBlock(Operation *op, NamedTensorType input,
                                         NamedTensorType result, StringRef dim,
                                         ArrayAttr axes) {
  FailureOr<int64_t> groupSize = verifyGroupAxes(op, axes);
  if (failed(groupSize) || failed(verifyDivisible(op, input, dim, *groupSize)))
    return failure();
  return verifyScaledResult(op, input, result, dim,
                            *input.getDimSize(dim) / *groupSize);
}

LogicalResult ReduceScatterOp::verify() {
  return verifyKeepsOneBlock(*this, getInput().getType(), getType(), getDim(),
                             getAxes());
}

// A slice need not divide its dimension: every block has ceil(n / g)
// elements and the last blocks are padded with zeros (pad_uneven layouts).
LogicalResult ShardSliceOp::verify() {
  FailureOr<int64_t> groupSize = verifyGroupAxes(*this, getAxes());
  NamedTensorType input = getInput().getType();
  if (failed(groupSize) ||
      failed(verifyHasDim(*this, input, getDim(), "input")))
    return failure();
  int64_t size = *input.getDimSize(getDim());
  return verifyScaledResult(*this, input, getType(), getDim(),
                            llvm::divideCeilSigned(size, *groupSize));
}

LogicalResult AllToAllOp::verify() {
  FailureOr<int64_t> groupSize = verifyGroupAxes(*this, getAxes());
  NamedTensorType input = getInput().getType();
  if (failed(groupSize) ||
      failed(verifyDivisible(*this, input, getSplitDim(), *groupSize)) ||
      failed(verifyHasDim(*this, input, getConcatDim(), "input")))
    return failure();
  SmallVector<std::pair<StringAttr, int64_t>> expected;
  for (auto [name, size] : llvm::zip(input.getDimNames(), input.getShape())) {
    int64_t expectedSize = size;
    if (name.getValue() == getSplitDim())
      expectedSize /= *groupSize;
    // Cannot overflow: the split dimension holds at least groupSize
    // elements (groupSize divides it), so this is at most the input's
    // element count, which its type bounds.
    if (name.getValue() == getConcatDim())
      expectedSize *= *groupSize;
    expected.push_back({name, expectedSize});
  }
  if (getType().getDimNames() != input.getDimNames())
    return emitOpError() << "result must have the input's dimensions in the "
                            "same order";
  if (failed(verifyResultDims(*this, getType(), expected)))
    return failure();
  return verifySameElementType(*this, {input, getType()});
}

LogicalResult HaloExchangeOp::verify() {
  MeshAttr mesh = getEnclosingMesh(*this);
  if (!mesh)
    return emitOpError() << "requires a '" << TesselDialect::kMeshAttrName
                         << "' attribute on an enclosing module";
  if (!mesh.getAxisSize(getAxis()))
    return emitOpError() << "mesh has no axis '" << getAxis() << "'";
  NamedTensorType input = getInput().getType();
  if (failed(verifyHasDim(*this, input, getDim(), "input")))
    return failure();
  ArrayRef<int64_t> halo = getHalo();
  if (halo.size() != 2 || halo[0] < 0 || halo[1] < 0)
    return emitOpError() << "expected two non-negative halo widths [low, high]";
  int64_t size = *input.getDimSize(getDim());
  // A neighbour can only send rows it has.
  if (halo[0] > size || halo[1] > size)
    return emitOpError() << "halo of dimension '" << getDim()
                         << "' is wider than its local size " << size;
  std::optional<int64_t> withHalo = ::tessel::checkedAdd(size, halo[0]);
  if (withHalo)
    withHalo = ::tessel::checkedAdd(*withHalo, halo[1]);
  if (!withHalo)
    return emitOpError() << "halo [" << halo[0] << ", " << halo[1]
                         << "] of dimension '" << getDim() << "' (size " << size
                         << ") makes it larger than 2^63 - 1";
  return verifyScaledResult(*this, input, getType(), getDim(), *withHalo);
}

LogicalResult CollectivePermuteOp::verify() {
  FailureOr<int64_t> groupSize = verifyGroupAxes(*this, getAxes());
  if (failed(groupSize) ||
      failed(verifySameShape(*this, getInput().getType(), getType())))
    return failure();
  ArrayRef<int64_t> pairs = getPairs();
  if (pairs.size() % 2 != 0)
    return emitOpError() << "pairs must list (source, target) positions";
  llvm::SmallDenseSet<int64_t> targets;
  for (int64_t position : pairs)
    if (position < 0 || position >= *groupSize)
      return emitOpError() << "position " << position
                           << " is outside the group of " << *groupSize;
  for (size_t i = 1; i < pairs.size(); i += 2)
    if (!targets.insert(pairs[i]).second)
      return emitOpError() << "position " << pairs[i]
                           << " is the target of two sources";
  return success();
}
