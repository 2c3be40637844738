//===- IndexBounds.cpp - the range an integer tensor indexes --------------===//

#include "dialect/IndexBounds.h"

using namespace mlir;
using namespace mlir::tessel;

std::optional<int64_t> mlir::tessel::getIndexBound(Value value) {
  std::optional<int64_t> bound;
  auto tighten = [&](int64_t size) {
    bound = bound ? std::min(*bound, size) : size;
  };
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (auto loss = dyn_cast<SoftmaxCrossEntropyOp>(user)) {
      if (use.get() == loss.getLabels())
        tighten(*loss.getLogits().getType().getDimSize(loss.getDim()));
    } else if (auto gather = dyn_cast<GatherOp>(user)) {
      if (use.get() == gather.getIds())
        tighten(*gather.getTable().getType().getDimSize(gather.getDim()));
    } else if (auto oneHot = dyn_cast<OneHotOp>(user)) {
      tighten(*oneHot.getType().getDimSize(oneHot.getDim()));
    }
  }
  return bound;
}
