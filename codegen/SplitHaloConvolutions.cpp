//===- SplitHaloConvolutions.cpp - a convolution's interior first ---------===//
//
// Implements tessel-split-halo-convolutions. A convolution whose input a
// halo_exchange widens (a spatial dimension split over ranks,
// docs/partitioning.md) needs the neighbours' rows only for its first and
// last output rows. This pass computes the output rows that read the local
// block alone (the interior) from the halo_exchange's operand, and the
// boundary rows from thin slices of the exchanged tensor, joined in order:
//
//   %wide = tessel.halo_exchange %x along "h" ... halo [L, H]
//   %y = tessel.conv2d %wide, %k          (unpadded on h, stride s)
//
// becomes
//
//   %wide = tessel.halo_exchange %x along "h" ... halo [L, H]
//   %inner = tessel.conv2d %x, %k
//   %low = tessel.conv2d (tessel.slice %wide: the first rows), %k
//   %high = tessel.conv2d (tessel.slice %wide: the last rows), %k
//   %y = tessel.concat %low, %inner, %high over "h"
//
// The gradient of such a convolution with respect to its input,
// conv2d_backward_input, reads a halo-exchanged dy the same way: its input
// gradient row h is the sum over the filter taps i of dy's exchanged row
// h + pl - i*d (stride 1, low padding pl, dilation d), so the rows whose
// taps all fall in the local block come from the halo_exchange's operand
// alone, and the first and last rows from slices of the exchanged tensor.
//
// tessel-lower-to-runtime waits for the exchange before its first user, so
// the interior convolution, which does not use it, runs while the halos
// move (tessel-schedule-collectives puts it there). Every output element
// is the same sum over the same inputs and filter taps as before.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"

#include <optional>
#include <utility>

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELSPLITHALOCONVOLUTIONS
#include "codegen/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// `type` with dimension `dim` of size `size`.
NamedTensorType withDimSize(NamedTensorType type, unsigned dim, int64_t size) {
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = size;
  return NamedTensorType::get(type.getContext(), type.getDimNames(), shape,
                              type.getElementType(), type.getLayout());
}

/// The halo_exchange that makes `input` of `op` (a conv2d or its input
/// gradient), and the position among op's spatial dims of the dim it
/// exchanges; none where `input` is not such an exchange's result.
template <typename ConvolutionOp>
std::optional<std::pair<HaloExchangeOp, unsigned>>
exchangedSpatialDim(ConvolutionOp op, Value input) {
  auto exchange = input.getDefiningOp<HaloExchangeOp>();
  if (!exchange)
    return std::nullopt;
  ArrayRef<Attribute> spatial = op.getSpatial().getValue();
  auto at = llvm::find_if(spatial, [&](Attribute name) {
    return cast<StringAttr>(name).getValue() == exchange.getDim();
  });
  if (at == spatial.end())
    return std::nullopt;
  return std::pair{exchange, static_cast<unsigned>(at - spatial.begin())};
}

/// The rows of the filter window of `op` along its spatial dim `which`,
/// dilation included.
template <typename ConvolutionOp>
int64_t windowAlong(ConvolutionOp op, unsigned which) {
  auto filterType = cast<NamedTensorType>(op.getFilter().getType());
  StringRef kernelDim =
      cast<StringAttr>(op.getKernel().getValue()[which]).getValue();
  return op.getDilations()[which] * (*filterType.getDimSize(kernelDim) - 1) + 1;
}

/// Splits `conv` into its interior and boundary rows when its input is a
/// halo_exchange's result along one of its spatial dimensions, unpadded
/// there, and the local block has interior rows; returns whether it did.
bool splitConvolution(Conv2DOp conv) {
  auto exchanged = exchangedSpatialDim(conv, conv.getInput());
  if (!exchanged)
    return false;
  auto [exchange, which] = *exchanged;
  StringRef dim = exchange.getDim();
  ArrayRef<int64_t> padding = conv.getPadding();
  if (padding[2 * which] != 0 || padding[2 * which + 1] != 0)
    return false;
  int64_t stride = conv.getStrides()[which];
  int64_t window = windowAlong(conv, which);

  ArrayRef<int64_t> halo = exchange.getHalo();
  int64_t low = halo[0];
  auto blockType = cast<NamedTensorType>(exchange.getInput().getType());
  auto wideType = cast<NamedTensorType>(exchange.getResult().getType());
  auto resultType = cast<NamedTensorType>(conv.getResult().getType());
  int64_t block = *blockType.getDimSize(dim);
  [[maybe_unused]] int64_t wide = *wideType.getDimSize(dim);
  int64_t rows = *resultType.getDimSize(dim);
  // Output row r reads wide rows r*s .. r*s + window - 1, that is block
  // rows r*s - low ..: the interior starts at row low/s, and only when
  // stride divides `low` do its rows line up with a convolution of the
  // block alone.
  if (low % stride != 0 || block < window)
    return false;
  int64_t lowRows = low / stride;
  int64_t innerRows = (block - window) / stride + 1;
  int64_t highRows = rows - lowRows - innerRows;
  if (highRows < 0 || (lowRows == 0 && highRows == 0))
    return false;

  OpBuilder builder(conv);
  Location loc = conv.getLoc();
  unsigned wideDim = *wideType.getDimIndex(dim);
  unsigned resultDim = *resultType.getDimIndex(dim);
  // The convolution, as it is, of `input` into `count` rows.
  auto convolve = [&](Value input, int64_t count) -> Value {
    IRMapping mapping;
    mapping.map(conv.getInput(), input);
    Operation *part = builder.clone(*conv, mapping);
    part->getResult(0).setType(withDimSize(resultType, resultDim, count));
    return part->getResult(0);
  };
  // The `count` output rows from `first` on, from the exchanged tensor.
  auto boundary = [&](int64_t first, int64_t count) -> Value {
    int64_t start = first * stride;
    int64_t size = (count - 1) * stride + window;
    assert(start + size <= wide && "a boundary slab lies in the halo'd rows");
    auto slice = SliceOp::create(
        builder, loc, withDimSize(wideType, wideDim, size), exchange,
        builder.getStrArrayAttr({dim}), builder.getDenseI64ArrayAttr({start}));
    return convolve(slice, count);
  };

  SmallVector<Value> parts;
  if (lowRows > 0)
    parts.push_back(boundary(0, lowRows));
  parts.push_back(convolve(exchange.getInput(), innerRows));
  if (highRows > 0)
    parts.push_back(boundary(lowRows + innerRows, highRows));
  auto joined = ConcatOp::create(builder, loc, resultType, parts,
                                 builder.getStringAttr(dim));
  conv.getResult().replaceAllUsesWith(joined.getResult());
  conv.erase();
  return true;
}

/// Splits `grad`, a conv2d_backward_input whose result gradient dy is a
/// halo_exchange's result along one of its spatial dims, with stride 1
/// there, into the input-gradient rows that read the local block of dy
/// alone and those at either end, read from slices of the exchanged
/// tensor; returns whether it did. Each part is the same op over its own
/// rows of dy, with the padding that keeps every tap on the row it read
/// (taps past either end of the exchanged tensor read the op's padding
/// zeros, as before).
bool splitBackwardInput(Conv2DBackwardInputOp grad) {
  auto exchanged = exchangedSpatialDim(grad, grad.getResultGradient());
  if (!exchanged)
    return false;
  auto [exchange, which] = *exchanged;
  StringRef dim = exchange.getDim();
  if (grad.getStrides()[which] != 1)
    return false;
  int64_t padLow = grad.getPadding()[2 * which];
  int64_t window = windowAlong(grad, which);

  int64_t low = exchange.getHalo()[0];
  auto blockType = cast<NamedTensorType>(exchange.getInput().getType());
  auto wideType = cast<NamedTensorType>(exchange.getResult().getType());
  auto resultType = cast<NamedTensorType>(grad.getResult().getType());
  int64_t block = *blockType.getDimSize(dim);
  int64_t wide = *wideType.getDimSize(dim);
  int64_t rows = *resultType.getDimSize(dim);
  // Row h reads exchanged rows h + padLow - (window - 1) .. h + padLow;
  // the block is exchanged rows low .. low + block - 1.
  int64_t innerFirst = low - padLow + window - 1;
  int64_t innerRows = block - window + 1;
  if (innerRows <= 0 || innerFirst < 0 || innerFirst + innerRows > rows ||
      (innerFirst == 0 && innerFirst + innerRows == rows))
    return false;

  OpBuilder builder(grad);
  Location loc = grad.getLoc();
  unsigned wideDim = *wideType.getDimIndex(dim);
  unsigned resultDim = *resultType.getDimIndex(dim);
  // Rows first .. first + count - 1 of the input gradient, from `input`,
  // which holds exchanged rows inputFirst .. inputFirst + its size - 1.
  auto part = [&](Value input, int64_t inputFirst, int64_t first,
                  int64_t count) -> Value {
    int64_t inputRows = *cast<NamedTensorType>(input.getType()).getDimSize(dim);
    int64_t partLow = first + padLow - inputFirst;
    int64_t partHigh = inputRows - count - partLow + window - 1;
    assert(partLow >= 0 && partHigh >= 0 && "a part reads past its rows");
    SmallVector<int64_t> padding(grad.getPadding());
    padding[2 * which] = partLow;
    padding[2 * which + 1] = partHigh;
    IRMapping mapping;
    mapping.map(grad.getResultGradient(), input);
    auto made = cast<Conv2DBackwardInputOp>(builder.clone(*grad, mapping));
    made.setPaddingAttr(builder.getDenseI64ArrayAttr(padding));
    made.getResult().setType(withDimSize(resultType, resultDim, count));
    return made.getResult();
  };
  // The same from the exchanged rows it reads (within the tensor).
  auto boundary = [&](int64_t first, int64_t count) -> Value {
    int64_t start = std::max<int64_t>(0, first + padLow - (window - 1));
    int64_t end = std::min(wide, first + count + padLow);
    auto slice = SliceOp::create(
        builder, loc, withDimSize(wideType, wideDim, end - start), exchange,
        builder.getStrArrayAttr({dim}), builder.getDenseI64ArrayAttr({start}));
    return part(slice, start, first, count);
  };

  SmallVector<Value> parts;
  if (innerFirst > 0)
    parts.push_back(boundary(0, innerFirst));
  parts.push_back(part(exchange.getInput(), low, innerFirst, innerRows));
  int64_t highFirst = innerFirst + innerRows;
  if (highFirst < rows)
    parts.push_back(boundary(highFirst, rows - highFirst));
  auto joined = ConcatOp::create(builder, loc, resultType, parts,
                                 builder.getStringAttr(dim));
  grad.getResult().replaceAllUsesWith(joined.getResult());
  grad.erase();
  return true;
}

struct TesselSplitHaloConvolutionsPass
    : mlir::tessel::impl::TesselSplitHaloConvolutionsBase<
          TesselSplitHaloConvolutionsPass> {
  void runOnOperation() final {
    SmallVector<Conv2DOp> convolutions;
    SmallVector<Conv2DBackwardInputOp> gradients;
    getOperation().walk([&](Operation *op) {
      if (auto conv = dyn_cast<Conv2DOp>(op))
        convolutions.push_back(conv);
      else if (auto grad = dyn_cast<Conv2DBackwardInputOp>(op))
        gradients.push_back(grad);
    });
    for (Conv2DOp conv : convolutions)
      splitConvolution(conv);
    for (Conv2DBackwardInputOp grad : gradients)
      splitBackwardInput(grad);
  }
};

} // namespace
