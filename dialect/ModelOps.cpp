//===- ModelOps.cpp - verifiers and folders of the model-level ops --------===//

#include "dialect/AssemblyHelpers.h"
#include "dialect/DimensionChecks.h"
#include "dialect/MeshConversion.h"
#include "dialect/TesselDialect.h"
#include "layouts/CheckedArithmetic.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tessel;

#define GET_OP_CLASSES
#include "dialect/TesselModelOps.cpp.inc"

namespace {

/// Checks that `names` are unique dimensions of `type`; `what` names the
/// attribute in the message.
LogicalResult verifyDimList(Operation *op, NamedTensorType type,
                            ArrayAttr names, StringRef what) {
  llvm::SmallDenseSet<Attribute> seen;
  for (Attribute name : names) {
    StringRef dim = cast<StringAttr>(name).getValue();
    if (!seen.insert(name).second)
      return op->emitOpError()
             << what << " lists dimension '" << dim << "' twice";
    if (failed(verifyHasDim(op, type, dim, "input")))
      return failure();
  }
  return success();
}

/// Returns the string at `index` of an array of string attributes.
StringRef nameAt(ArrayAttr names, unsigned index) {
  return cast<StringAttr>(names[index]).getValue();
}

/// Returns the number of positions of a sliding window, 0 when the window
/// does not fit the padded input even once, or nullopt when the padded
/// input is larger than 2^63 - 1 (the attributes of a model file can be
/// anything up to that each, so their sum can overflow).
std::optional<int64_t> windowOutputSize(int64_t input, int64_t low,
                                        int64_t high, int64_t window,
                                        int64_t stride) {
  std::optional<int64_t> padded = ::tessel::checkedAdd(input, low);
  if (padded)
    padded = ::tessel::checkedAdd(*padded, high);
  if (!padded)
    return std::nullopt;
  int64_t slack = *padded - window;
  return slack < 0 ? 0 : slack / stride + 1;
}

/// The error of a padded spatial dimension larger than 2^63 - 1.
InFlightDiagnostic emitPaddedTooLarge(Operation *op, StringRef dim,
                                      int64_t size, int64_t low, int64_t high) {
  return op->emitOpError() << "padding [" << low << ", " << high
                           << "] of dimension '" << dim << "' (size " << size
                           << ") makes it larger than 2^63 - 1";
}

/// Checks that the two names of a window attribute are distinct.
LogicalResult verifyDistinctPair(Operation *op, ArrayAttr names,
                                 StringRef what) {
  if (names[0] == names[1])
    return op->emitOpError()
           << what << " lists dimension '"
           << cast<StringAttr>(names[0]).getValue() << "' twice";
  return success();
}

/// Checks that `block` is a rank's block of the parameter `global` (a
/// laid-out type) on the mesh of the module around `op`: the same
/// dimensions and element type, a layout that is legal there, and the block
/// shape that layout gives (ceil(n / g) along a dimension split g ways).
LogicalResult verifyParameterBlock(Operation *op, NamedTensorType block,
                                   NamedTensorType global) {
  if (!global.getLayout())
    return op->emitOpError()
           << "'block of' type " << global << " has no layout";
  if (global.getDimNames() != block.getDimNames() ||
      global.getElementType() != block.getElementType())
    return op->emitOpError()
           << "result " << block << " is not a block of " << global
           << ": the dimensions and element type must be the same";
  MeshAttr mesh = getEnclosingMesh(op);
  if (!mesh)
    return op->emitOpError()
           << "'block of' requires a '" << TesselDialect::kMeshAttrName
           << "' attribute on an enclosing module";
  ::tessel::layout::Mesh layoutMesh = toLayoutMesh(mesh);
  ::tessel::layout::TensorLayout layout = toTensorLayout(global);
  std::string error;
  if (!::tessel::layout::checkLayout(layoutMesh, layout, error,
                                     /*padUneven=*/true))
    return op->emitOpError() << "'block of' type: " << error;
  std::vector<int64_t> shape = ::tessel::layout::localShape(layoutMesh, layout);
  for (auto [dim, size, expected] :
       llvm::zip(block.getDimNames(), block.getShape(), shape))
    if (size != expected)
      return op->emitOpError()
             << "dimension '" << dim.getValue() << "' of the block has size "
             << size << ", but the layout of " << global << " on " << mesh
             << " gives blocks of " << expected;
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Sources
//===----------------------------------------------------------------------===//

LogicalResult ParameterOp::verify() {
  if (getName().empty())
    return emitOpError() << "parameter name must not be empty";
  if (getScale().convertToDouble() < 0)
    return emitOpError() << "scale must not be negative";
  if (failed(verifyFloatElements(*this, getType(), "a parameter")))
    return failure();
  if (!getGlobalType())
    return success();
  return verifyParameterBlock(*this, getType(), *getGlobalType());
}

LogicalResult UpdateBufferOp::verify() {
  // The buffer a training step updates: a buffer parameter, maybe cast
  // (mixed precision), or the argument it became.
  Value buffer = getBuffer();
  while (auto cast = buffer.getDefiningOp<CastOp>())
    buffer = cast.getInput();
  if (isa<BlockArgument>(buffer))
    return success();
  auto parameter = buffer.getDefiningOp<ParameterOp>();
  if (!parameter || !parameter.getBuffer())
    return emitOpError() << "updates a value that is not a buffer (a "
                            "tessel.parameter marked `buffer`)";
  return success();
}

LogicalResult ConstantOp::verify() {
  Attribute value = getValue();
  bool floatResult = isa<FloatType>(getType().getElementType());
  if (isa<FloatAttr, IntegerAttr>(value)) {
    if (isa<FloatAttr>(value) != floatResult)
      return emitOpError() << "value " << value << " does not suit elements of "
                           << getType().getElementType();
    return success();
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return emitOpError()
           << "value must be a float, an integer or dense elements";
  if (isa<FloatType>(dense.getElementType()) != floatResult)
    return emitOpError() << "dense elements of " << dense.getElementType()
                         << " do not suit elements of "
                         << getType().getElementType();
  if (dense.getNumElements() != getType().getNumElements())
    return emitOpError() << "value has " << dense.getNumElements()
                         << " elements but the result has "
                         << getType().getNumElements();
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult IotaOp::verify() {
  return verifyHasDim(*this, getType(), getDim(), "result");
}

//===----------------------------------------------------------------------===//
// Contraction
//===----------------------------------------------------------------------===//

LogicalResult EinsumOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "expected at least one input";
  llvm::SmallDenseMap<StringAttr, int64_t> sizes;
  SmallVector<NamedTensorType> types;
  for (auto [index, input] : llvm::enumerate(getInputs())) {
    auto type = cast<NamedTensorType>(input.getType());
    types.push_back(type);
    for (auto [name, size] : llvm::zip(type.getDimNames(), type.getShape())) {
      auto [it, inserted] = sizes.try_emplace(name, size);
      if (!inserted && it->second != size)
        return emitOpError()
               << "dimension '" << name.getValue() << "' has size "
               << it->second << " in one input but " << size << " in input #"
               << index;
    }
  }
  NamedTensorType result = getType();
  for (auto [name, size] : llvm::zip(result.getDimNames(), result.getShape())) {
    auto it = sizes.find(name);
    if (it == sizes.end())
      return emitOpError() << "result dimension '" << name.getValue()
                           << "' does not appear in any input";
    if (it->second != size)
      return emitOpError() << "result dimension '" << name.getValue()
                           << "' has size " << size << " but " << it->second
                           << " in the inputs";
  }
  types.push_back(result);
  return verifySameElementType(*this, types);
}

//===----------------------------------------------------------------------===//
// Element-wise ops
//===----------------------------------------------------------------------===//

#define TESSEL_UNARY_VERIFIER(Op, requiresFloat)                               \
  LogicalResult Op::verify() {                                                 \
    if (failed(verifySameShape(*this, getInput().getType(), getType())))       \
      return failure();                                                        \
    if (requiresFloat)                                                         \
      return verifyFloatElements(*this, getType(), "the operand");             \
    return success();                                                          \
  }
TESSEL_UNARY_VERIFIER(NegOp, false)
TESSEL_UNARY_VERIFIER(AbsOp, false)
TESSEL_UNARY_VERIFIER(ReluOp, false)
TESSEL_UNARY_VERIFIER(ExpOp, true)
TESSEL_UNARY_VERIFIER(LogOp, true)
TESSEL_UNARY_VERIFIER(SqrtOp, true)
TESSEL_UNARY_VERIFIER(RsqrtOp, true)
TESSEL_UNARY_VERIFIER(TanhOp, true)
TESSEL_UNARY_VERIFIER(SigmoidOp, true)
TESSEL_UNARY_VERIFIER(GeluOp, true)
TESSEL_UNARY_VERIFIER(ErfOp, true)
TESSEL_UNARY_VERIFIER(SinOp, true)
TESSEL_UNARY_VERIFIER(CosOp, true)
#undef TESSEL_UNARY_VERIFIER

/// Verifies a binary op: broadcasting by name, one element type.
template <typename BinaryOp> static LogicalResult verifyBinary(BinaryOp op) {
  SmallVector<NamedTensorType> types = {op.getLhs().getType(),
                                        op.getRhs().getType()};
  if (failed(verifyBroadcastByName(op, types, op.getType())))
    return failure();
  types.push_back(op.getType());
  return verifySameElementType(op, types);
}

#define TESSEL_BINARY_VERIFIER(Op)                                             \
  LogicalResult Op::verify() { return verifyBinary(*this); }
TESSEL_BINARY_VERIFIER(AddOp)
TESSEL_BINARY_VERIFIER(SubOp)
TESSEL_BINARY_VERIFIER(MulOp)
TESSEL_BINARY_VERIFIER(DivOp)
TESSEL_BINARY_VERIFIER(MaxOp)
TESSEL_BINARY_VERIFIER(MinOp)
TESSEL_BINARY_VERIFIER(PowOp)
#undef TESSEL_BINARY_VERIFIER

LogicalResult CompareOp::verify() {
  SmallVector<NamedTensorType> operands = {getLhs().getType(),
                                           getRhs().getType()};
  if (failed(verifyBroadcastByName(*this, operands, getType())) ||
      failed(verifySameElementType(*this, operands)))
    return failure();
  if (!getType().getElementType().isSignlessInteger(1))
    return emitOpError() << "result must hold i1, got "
                         << getType().getElementType();
  return success();
}

LogicalResult SelectOp::verify() {
  SmallVector<NamedTensorType> operands = {
      getCondition().getType(), getOnTrue().getType(), getOnFalse().getType()};
  if (failed(verifyBroadcastByName(*this, operands, getType())))
    return failure();
  return verifySameElementType(
      *this, {getOnTrue().getType(), getOnFalse().getType(), getType()});
}

LogicalResult CastOp::verify() {
  NamedTensorType input = getInput().getType();
  if (input.getDimNames() != getType().getDimNames() ||
      input.getShape() != getType().getShape())
    return emitOpError() << "result must have the input's dimensions";
  return success();
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

LogicalResult BroadcastOp::verify() {
  NamedTensorType input = getInput().getType();
  for (auto [name, size] : llvm::zip(input.getDimNames(), input.getShape())) {
    std::optional<int64_t> resultSize = getType().getDimSize(name.getValue());
    if (!resultSize)
      return emitOpError() << "input dimension '" << name.getValue()
                           << "' is not a result dimension";
    if (*resultSize != size)
      return emitOpError() << "dimension '" << name.getValue() << "' has size "
                           << size << " in the input but " << *resultSize
                           << " in the result";
  }
  return verifySameElementType(*this, {input, getType()});
}

OpFoldResult BroadcastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// Reductions and normalisations
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  NamedTensorType input = getInput().getType();
  for (auto [name, size] :
       llvm::zip(getType().getDimNames(), getType().getShape())) {
    std::optional<int64_t> inputSize = input.getDimSize(name.getValue());
    if (!inputSize)
      return emitOpError() << "result dimension '" << name.getValue()
                           << "' is not an input dimension";
    if (*inputSize != size)
      return emitOpError() << "result dimension '" << name.getValue()
                           << "' has size " << size << " but " << *inputSize
                           << " in the input";
  }
  return verifySameElementType(*this, {input, getType()});
}

LogicalResult SoftmaxOp::verify() {
  if (failed(verifySameShape(*this, getInput().getType(), getType())) ||
      failed(verifyHasDim(*this, getType(), getDim(), "input")))
    return failure();
  return verifyFloatElements(*this, getType(), "the input");
}

LogicalResult LogSoftmaxOp::verify() {
  if (failed(verifySameShape(*this, getInput().getType(), getType())) ||
      failed(verifyHasDim(*this, getType(), getDim(), "input")))
    return failure();
  return verifyFloatElements(*this, getType(), "the input");
}

LogicalResult SoftmaxCrossEntropyOp::verify() {
  NamedTensorType logits = getLogits().getType();
  NamedTensorType labels = getLabels().getType();
  if (failed(verifyHasDim(*this, logits, getDim(), "logits")) ||
      failed(verifyFloatElements(*this, logits, "logits")) ||
      failed(verifyIntegerElements(*this, labels, "labels")))
    return failure();
  SmallVector<std::pair<StringAttr, int64_t>> expected;
  for (auto [name, size] : llvm::zip(logits.getDimNames(), logits.getShape()))
    if (name.getValue() != getDim())
      expected.push_back({name, size});
  for (auto [name, size] : expected) {
    std::optional<int64_t> labelSize = labels.getDimSize(name.getValue());
    if (!labelSize)
      return emitOpError() << "labels are missing dimension '"
                           << name.getValue() << "'";
    if (*labelSize != size)
      return emitOpError() << "dimension '" << name.getValue() << "' has size "
                           << size << " in logits but " << *labelSize
                           << " in labels";
  }
  if (labels.getRank() != expected.size())
    return emitOpError() << "labels must have exactly the logits' dimensions "
                            "other than '"
                         << getDim() << "'";
  if (failed(verifyResultDims(*this, getType(), expected)))
    return failure();
  return verifySameElementType(*this, {logits, getType()});
}

LogicalResult CumsumOp::verify() {
  if (failed(verifySameShape(*this, getInput().getType(), getType())))
    return failure();
  return verifyHasDim(*this, getType(), getDim(), "input");
}

LogicalResult ArgmaxOp::verify() {
  NamedTensorType input = getInput().getType();
  if (failed(verifyHasDim(*this, input, getDim(), "input")) ||
      failed(verifyIntegerElements(*this, getType(), "the result")))
    return failure();
  if (getType().getElementType().isInteger(1))
    return emitOpError() << "result must hold integers wider than i1 (an "
                            "index), got i1";
  SmallVector<std::pair<StringAttr, int64_t>> expected;
  for (auto [name, size] : llvm::zip(input.getDimNames(), input.getShape()))
    if (name.getValue() != getDim())
      expected.push_back({name, size});
  return verifyResultDims(*this, getType(), expected);
}

LogicalResult TopKOp::verify() {
  NamedTensorType input = getInput().getType();
  if (failed(verifyHasDim(*this, input, getDim(), "input")))
    return failure();
  int64_t size = *input.getDimSize(getDim()), k = getKAttr().getInt();
  if (k < 1 || k > size)
    return emitOpError() << "k must be between 1 and the size of '" << getDim()
                         << "' (" << size << "), got " << k;
  if (input.hasDim(getOutDim()))
    return emitOpError() << "out_dim '" << getOutDim()
                         << "' is already an input dimension";
  if (getIndices()) {
    if (failed(verifyIntegerElements(*this, getType(), "the indices")))
      return failure();
    if (getType().getElementType().isInteger(1))
      return emitOpError() << "indices must be integers wider than i1, got i1";
  } else if (failed(verifySameElementType(*this, {input, getType()}))) {
    return failure();
  }
  SmallVector<std::pair<StringAttr, int64_t>> expected;
  for (auto [name, dimSize] : llvm::zip(input.getDimNames(), input.getShape()))
    if (name.getValue() != getDim())
      expected.push_back({name, dimSize});
  expected.push_back({getOutDimAttr(), k});
  return verifyResultDims(*this, getType(), expected);
}

LogicalResult DropoutOp::verify() {
  double rate = getRate().convertToDouble();
  if (!(rate >= 0.0 && rate < 1.0))
    return emitOpError() << "rate must be in [0, 1), got " << rate;
  if (failed(verifySameShape(*this, getInput().getType(), getType())) ||
      failed(verifyFloatElements(*this, getType(), "the input")))
    return failure();
  NamedTensorType step = getStep().getType();
  if (step.getRank() != 0)
    return emitOpError() << "step must be a scalar, got " << step;
  if (failed(verifyIntegerElements(*this, step, "step")))
    return failure();
  if (!getGlobalType())
    return success();
  return verifyParameterBlock(*this, getType(), *getGlobalType());
}

LogicalResult LayerNormOp::verify() {
  if (failed(verifySameShape(*this, getInput().getType(), getType())))
    return failure();
  if (getDims().empty())
    return emitOpError() << "expected at least one dimension to normalise";
  if (getEpsilon().convertToDouble() <= 0)
    return emitOpError() << "epsilon must be positive";
  if (failed(verifyDimList(*this, getType(), getDims(), "dims")))
    return failure();
  return verifyFloatElements(*this, getType(), "the input");
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

/// Checks that a window op's integer attributes have the expected lengths
/// and signs.
static LogicalResult verifyWindowAttrs(Operation *op, ArrayAttr spatial,
                                       ArrayRef<int64_t> strides,
                                       ArrayRef<int64_t> padding) {
  if (spatial.size() != 2)
    return op->emitOpError() << "expected two spatial dimensions";
  if (strides.size() != 2 ||
      llvm::any_of(strides, [](int64_t s) { return s < 1; }))
    return op->emitOpError() << "expected two positive strides";
  if (padding.size() != 4 ||
      llvm::any_of(padding, [](int64_t p) { return p < 0; }))
    return op->emitOpError()
           << "expected four non-negative paddings [low_h, high_h, low_w, "
              "high_w]";
  return success();
}

/// Checks a convolution's attributes and that `output` is what convolving
/// `input` with `filter` yields; `outputName` names the output in messages
/// ("result" for conv2d, "result gradient" for its gradients).
template <typename ConvLike>
static LogicalResult
verifyConvolution(ConvLike op, NamedTensorType input, NamedTensorType filter,
                  NamedTensorType output, StringRef outputName) {
  ArrayRef<int64_t> strides = op.getStrides(), padding = op.getPadding(),
                    dilations = op.getDilations();
  if (failed(verifyWindowAttrs(op, op.getSpatial(), strides, padding)))
    return failure();
  if (op.getKernel().size() != 2)
    return op.emitOpError() << "expected two kernel dimensions";
  if (failed(verifyDistinctPair(op, op.getSpatial(), "spatial")) ||
      failed(verifyDistinctPair(op, op.getKernel(), "kernel")))
    return failure();
  if (dilations.size() != 2 ||
      llvm::any_of(dilations, [](int64_t d) { return d < 1; }))
    return op.emitOpError() << "expected two positive dilations";
  StringRef inC = op.getInputChannel(), outC = op.getOutputChannel();
  if (failed(verifyHasDim(op, input, inC, "input")) ||
      failed(verifyHasDim(op, filter, inC, "filter")) ||
      failed(verifyHasDim(op, filter, outC, "filter")))
    return failure();
  if (input.hasDim(outC))
    return op.emitOpError()
           << "output channel '" << outC << "' must not be an input dimension";
  int64_t groups = op.getGroups();
  if (groups < 1)
    return op.emitOpError() << "groups must be positive, got " << groups;
  int64_t channels = *input.getDimSize(inC);
  if (channels % groups != 0)
    return op.emitOpError()
           << "groups " << groups << " does not divide the input channel '"
           << inC << "' of size " << channels;
  if (*filter.getDimSize(outC) % groups != 0)
    return op.emitOpError()
           << "groups " << groups << " does not divide the output channel '"
           << outC << "' of size " << *filter.getDimSize(outC);
  if (channels / groups != *filter.getDimSize(inC)) {
    if (groups == 1)
      return op.emitOpError() << "dimension '" << inC << "' has size "
                              << channels << " in the input but "
                              << *filter.getDimSize(inC) << " in the filter";
    return op.emitOpError() << "dimension '" << inC << "' has size " << channels
                            << " in the input, so with groups " << groups
                            << " the filter's must be " << channels / groups
                            << ", got " << *filter.getDimSize(inC);
  }
  // The size of the output along each spatial dimension.
  int64_t outputSizes[2];
  for (unsigned i = 0; i < 2; ++i) {
    StringRef spatial = nameAt(op.getSpatial(), i),
              kernel = nameAt(op.getKernel(), i);
    if (failed(verifyHasDim(op, input, spatial, "input")) ||
        failed(verifyHasDim(op, filter, kernel, "filter")))
      return failure();
    int64_t kernelSize = *filter.getDimSize(kernel);
    // The dilated kernel spans dilation * (size - 1) + 1 elements.
    std::optional<int64_t> extent =
        ::tessel::checkedMul(dilations[i], kernelSize - 1);
    if (extent)
      extent = ::tessel::checkedAdd(*extent, 1);
    if (!extent)
      return op.emitOpError()
             << "dilation " << dilations[i] << " of kernel '" << kernel
             << "' (size " << kernelSize
             << ") makes the dilated kernel larger than 2^63 - 1";
    int64_t inputSize = *input.getDimSize(spatial);
    std::optional<int64_t> size = windowOutputSize(
        inputSize, padding[2 * i], padding[2 * i + 1], *extent, strides[i]);
    if (!size)
      return emitPaddedTooLarge(op, spatial, inputSize, padding[2 * i],
                                padding[2 * i + 1]);
    if (*size < 1)
      return op.emitOpError()
             << "kernel '" << kernel
             << "' is larger than the padded dimension '" << spatial << "'";
    outputSizes[i] = *size;
  }
  llvm::SmallDenseSet<StringRef> filterDims = {
      inC, outC, nameAt(op.getKernel(), 0), nameAt(op.getKernel(), 1)};
  if (filter.getRank() != 4 || filterDims.size() != 4 ||
      llvm::any_of(filter.getDimNames(), [&](StringAttr name) {
        return !filterDims.contains(name.getValue());
      }))
    return op.emitOpError()
           << "filter must have exactly the dimensions '" << inC << "', '"
           << outC << "' and the two kernel ones";
  SmallVector<std::pair<StringAttr, int64_t>> expected;
  for (auto [name, size] : llvm::zip(input.getDimNames(), input.getShape())) {
    if (name.getValue() == inC)
      continue;
    int64_t expectedSize = size;
    for (unsigned i = 0; i < 2; ++i)
      if (name.getValue() == nameAt(op.getSpatial(), i))
        expectedSize = outputSizes[i];
    expected.push_back({name, expectedSize});
  }
  expected.push_back(
      {StringAttr::get(op.getContext(), outC), *filter.getDimSize(outC)});
  if (failed(verifyDims(op, output, expected, outputName)))
    return failure();
  return verifySameElementType(op, {input, filter, output});
}

LogicalResult Conv2DOp::verify() {
  return verifyConvolution(*this, getInput().getType(), getFilter().getType(),
                           getType(), "result");
}

LogicalResult Conv2DBackwardInputOp::verify() {
  return verifyConvolution(*this, getType(), getFilter().getType(),
                           getResultGradient().getType(), "result gradient");
}

LogicalResult Conv2DBackwardFilterOp::verify() {
  return verifyConvolution(*this, getInput().getType(), getType(),
                           getResultGradient().getType(), "result gradient");
}

/// Checks a pooling's attributes and that `output` is what pooling `input`
/// yields; `outputName` names the output in messages.
template <typename PoolLike>
static LogicalResult verifyPooling(PoolLike op, NamedTensorType input,
                                   NamedTensorType output,
                                   StringRef outputName) {
  ArrayRef<int64_t> window = op.getWindow(), strides = op.getStrides(),
                    padding = op.getPadding();
  if (failed(verifyWindowAttrs(op, op.getSpatial(), strides, padding)))
    return failure();
  if (window.size() != 2 ||
      llvm::any_of(window, [](int64_t w) { return w < 1; }))
    return op.emitOpError() << "expected two positive window sizes";
  if (failed(verifyDistinctPair(op, op.getSpatial(), "spatial")))
    return failure();
  for (unsigned i = 0; i < 2; ++i) {
    if (failed(verifyHasDim(op, input, nameAt(op.getSpatial(), i), "input")))
      return failure();
    // A window made only of padding would have nothing to pool.
    if (padding[2 * i] >= window[i] || padding[2 * i + 1] >= window[i])
      return op.emitOpError() << "padding of '" << nameAt(op.getSpatial(), i)
                              << "' must be smaller than the window";
  }
  SmallVector<std::pair<StringAttr, int64_t>> expected;
  for (auto [name, size] : llvm::zip(input.getDimNames(), input.getShape())) {
    int64_t expectedSize = size;
    for (unsigned i = 0; i < 2; ++i) {
      if (name.getValue() != nameAt(op.getSpatial(), i))
        continue;
      std::optional<int64_t> outputSize = windowOutputSize(
          size, padding[2 * i], padding[2 * i + 1], window[i], strides[i]);
      if (!outputSize)
        return emitPaddedTooLarge(op, name.getValue(), size, padding[2 * i],
                                  padding[2 * i + 1]);
      expectedSize = *outputSize;
    }
    if (expectedSize < 1)
      return op.emitOpError() << "window is larger than the padded dimension '"
                              << name.getValue() << "'";
    expected.push_back({name, expectedSize});
  }
  if (failed(verifyDims(op, output, expected, outputName)))
    return failure();
  return verifySameElementType(op, {input, output});
}

LogicalResult PoolOp::verify() {
  return verifyPooling(*this, getInput().getType(), getType(), "result");
}

LogicalResult PoolBackwardOp::verify() {
  if (failed(verifyPooling(*this, getInput().getType(),
                           getResultGradient().getType(), "result gradient")))
    return failure();
  return verifySameShape(*this, getInput().getType(), getType());
}

//===----------------------------------------------------------------------===//
// Lookups
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::verify() {
  NamedTensorType table = getTable().getType(), ids = getIds().getType();
  if (failed(verifyHasDim(*this, table, getDim(), "table")) ||
      failed(verifyIntegerElements(*this, ids, "ids")))
    return failure();
  SmallVector<std::pair<StringAttr, int64_t>> expected;
  for (auto [name, size] : llvm::zip(ids.getDimNames(), ids.getShape())) {
    if (table.hasDim(name.getValue()))
      return emitOpError() << "dimension '" << name.getValue()
                           << "' is in both the ids and the table";
    expected.push_back({name, size});
  }
  for (auto [name, size] : llvm::zip(table.getDimNames(), table.getShape()))
    if (name.getValue() != getDim())
      expected.push_back({name, size});
  if (failed(verifyResultDims(*this, getType(), expected)))
    return failure();
  return verifySameElementType(*this, {table, getType()});
}

LogicalResult OneHotOp::verify() {
  NamedTensorType ids = getIds().getType();
  if (failed(verifyIntegerElements(*this, ids, "ids")))
    return failure();
  if (ids.hasDim(getDim()))
    return emitOpError() << "ids already have dimension '" << getDim() << "'";
  if (failed(verifyHasDim(*this, getType(), getDim(), "result")))
    return failure();
  SmallVector<std::pair<StringAttr, int64_t>> expected;
  for (auto [name, size] : llvm::zip(ids.getDimNames(), ids.getShape()))
    expected.push_back({name, size});
  expected.push_back({StringAttr::get(getContext(), getDim()),
                      *getType().getDimSize(getDim())});
  return verifyResultDims(*this, getType(), expected);
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

LogicalResult RenameOp::verify() {
  NamedTensorType input = getInput().getType();
  if (input.getShape() != getType().getShape())
    return emitOpError() << "rename keeps the rank and every size, position "
                            "by position";
  return verifySameElementType(*this, {input, getType()});
}

OpFoldResult RenameOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

LogicalResult ReshapeOp::verify() {
  NamedTensorType input = getInput().getType();
  if (input.getNumElements() != getType().getNumElements())
    return emitOpError() << "input has " << input.getNumElements()
                         << " elements but the result has "
                         << getType().getNumElements();
  return verifySameElementType(*this, {input, getType()});
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

LogicalResult TransposeOp::verify() {
  NamedTensorType input = getInput().getType();
  SmallVector<std::pair<StringAttr, int64_t>> expected;
  for (auto [name, size] : llvm::zip(input.getDimNames(), input.getShape()))
    expected.push_back({name, size});
  if (failed(verifyResultDims(*this, getType(), expected)))
    return failure();
  return verifySameElementType(*this, {input, getType()});
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

LogicalResult SliceOp::verify() {
  NamedTensorType input = getInput().getType();
  ArrayRef<int64_t> starts = getStarts();
  if (getDims().size() != starts.size())
    return emitOpError() << "expected one start per sliced dimension";
  if (failed(verifyDimList(*this, input, getDims(), "dims")))
    return failure();
  if (input.getDimNames() != getType().getDimNames())
    return emitOpError() << "result must have the input's dimensions in the "
                            "same order";
  for (auto [name, size, resultSize] :
       llvm::zip(input.getDimNames(), input.getShape(), getType().getShape())) {
    auto position =
        llvm::find_if(getDims(), [&](Attribute dim) { return dim == name; });
    if (position == getDims().end()) {
      if (resultSize != size)
        return emitOpError() << "dimension '" << name.getValue()
                             << "' is not sliced but changes size";
      continue;
    }
    int64_t start = starts[position - getDims().begin()];
    std::optional<int64_t> end = ::tessel::checkedAdd(start, resultSize);
    if (!end)
      return emitOpError() << "start " << start << " of dimension '"
                           << name.getValue() << "' and the result's size "
                           << resultSize
                           << " end the slice past 2^63 - 1, outside its size "
                           << size;
    if (start < 0 || *end > size)
      return emitOpError() << "slice [" << start << ", " << *end
                           << ") of dimension '" << name.getValue()
                           << "' is outside its size " << size;
  }
  return verifySameElementType(*this, {input, getType()});
}

LogicalResult ConcatOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "expected at least one input";
  SmallVector<NamedTensorType> types;
  int64_t total = 0;
  for (Value input : getInputs()) {
    auto type = cast<NamedTensorType>(input.getType());
    types.push_back(type);
    if (failed(verifyHasDim(*this, type, getDim(), "input")))
      return failure();
    std::optional<int64_t> sum =
        ::tessel::checkedAdd(total, *type.getDimSize(getDim()));
    if (!sum)
      return emitOpError() << "the sizes of dimension '" << getDim()
                           << "' add up to more than 2^63 - 1";
    total = *sum;
    if (type.getDimNames() != types.front().getDimNames())
      return emitOpError() << "inputs must have the same dimensions in the "
                              "same order";
    for (auto [name, size, firstSize] : llvm::zip(
             type.getDimNames(), type.getShape(), types.front().getShape()))
      if (name.getValue() != getDim() && size != firstSize)
        return emitOpError() << "dimension '" << name.getValue()
                             << "' differs in size between inputs ("
                             << firstSize << " and " << size << ")";
  }
  if (getType().getDimNames() != types.front().getDimNames())
    return emitOpError() << "result must have the inputs' dimensions in the "
                            "same order";
  if (failed(verifyResultDims(*this, getType(),
                              dimsWithSize(types.front(), getDim(), total))))
    return failure();
  types.push_back(getType());
  return verifySameElementType(*this, types);
}

LogicalResult PadOp::verify() {
  NamedTensorType input = getInput().getType();
  ArrayRef<int64_t> low = getLow(), high = getHigh();
  if (getDims().size() != low.size() || low.size() != high.size())
    return emitOpError() << "expected one low and one high per padded "
                            "dimension";
  if (failed(verifyDimList(*this, input, getDims(), "dims")))
    return failure();
  if (input.getDimNames() != getType().getDimNames())
    return emitOpError() << "result must have the input's dimensions in the "
                            "same order";
  for (auto [i, dim] : llvm::enumerate(getDims())) {
    StringRef name = cast<StringAttr>(dim).getValue();
    if (low[i] < 0 || high[i] < 0)
      return emitOpError() << "padding of '" << name
                           << "' must not be negative";
    int64_t size = *input.getDimSize(name);
    std::optional<int64_t> expected = ::tessel::checkedAdd(size, low[i]);
    if (expected)
      expected = ::tessel::checkedAdd(*expected, high[i]);
    if (!expected)
      return emitOpError() << "low " << low[i] << " and high " << high[i]
                           << " of dimension '" << name << "' (size " << size
                           << ") make it larger than 2^63 - 1";
    if (*getType().getDimSize(name) != *expected)
      return emitOpError() << "result dimension '" << name << "' has size "
                           << *getType().getDimSize(name) << ", expected "
                           << *expected;
  }
  for (auto [name, size, resultSize] :
       llvm::zip(input.getDimNames(), input.getShape(), getType().getShape()))
    if (!llvm::is_contained(getDims(), name) && size != resultSize)
      return emitOpError() << "dimension '" << name.getValue()
                           << "' is not padded but changes size";
  return verifySameElementType(*this, {input, getType()});
}
