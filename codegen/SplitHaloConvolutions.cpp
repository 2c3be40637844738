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
// tessel-lower-to-runtime waits for the exchange before its first user, so
// the interior convolution, which does not use it, runs while the halos
// move (tessel-schedule-collectives puts it there). Every output element
// is the same sum over the same inputs and filter taps as before.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"

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

/// Splits `conv` into its interior and boundary rows when its input is a
/// halo_exchange's result along one of its spatial dimensions, unpadded
/// there, and the local block has interior rows; returns whether it did.
bool splitConvolution(Conv2DOp conv) {
  auto exchange = conv.getInput().getDefiningOp<HaloExchangeOp>();
  if (!exchange)
    return false;
  StringRef dim = exchange.getDim();
  ArrayRef<Attribute> spatial = conv.getSpatial().getValue();
  auto at = llvm::find_if(spatial, [&](Attribute name) {
    return cast<StringAttr>(name).getValue() == dim;
  });
  if (at == spatial.end())
    return false;
  unsigned which = at - spatial.begin();
  ArrayRef<int64_t> padding = conv.getPadding();
  if (padding[2 * which] != 0 || padding[2 * which + 1] != 0)
    return false;
  int64_t stride = conv.getStrides()[which];
  int64_t dilation = conv.getDilations()[which];
  auto filterType = cast<NamedTensorType>(conv.getFilter().getType());
  StringRef kernelDim =
      cast<StringAttr>(conv.getKernel().getValue()[which]).getValue();
  int64_t window = dilation * (*filterType.getDimSize(kernelDim) - 1) + 1;

  ArrayRef<int64_t> halo = exchange.getHalo();
  int64_t low = halo[0];
  auto blockType = cast<NamedTensorType>(exchange.getInput().getType());
  auto wideType = cast<NamedTensorType>(exchange.getResult().getType());
  auto resultType = cast<NamedTensorType>(conv.getResult().getType());
  int64_t block = *blockType.getDimSize(dim);
  int64_t wide = *wideType.getDimSize(dim);
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

struct TesselSplitHaloConvolutionsPass
    : mlir::tessel::impl::TesselSplitHaloConvolutionsBase<
          TesselSplitHaloConvolutionsPass> {
  void runOnOperation() final {
    SmallVector<Conv2DOp> convolutions;
    getOperation().walk([&](Conv2DOp conv) { convolutions.push_back(conv); });
    for (Conv2DOp conv : convolutions)
      splitConvolution(conv);
  }
};

} // namespace
