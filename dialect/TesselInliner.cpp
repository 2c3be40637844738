//===- TesselInliner.cpp - tessel ops may be inlined ----------------------===//
//
// Layers are functions: a model may call a function that declares
// parameters and computes with tessel ops, and the compiler inlines the
// call before anything else looks at the model (tessel-inline-layers,
// passes/InlineLayers.cpp). Every tessel op is pure apart from
// `tessel.parameter`, whose value depends on its name, initializer and
// seed alone, so any of them may be inlined anywhere, and their regions
// (tessel.fused's body) may be inlined into theirs. This interface is also
// what lets upstream's `--inline` inline calls of tessel models; it knows
// nothing of `tessel.scope`, which only tessel-inline-layers applies.
//
//===----------------------------------------------------------------------===//

#include "dialect/TesselDialect.h"

#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

struct TesselInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  /// A call of a function whose body is made of tessel ops may be inlined.
  bool isLegalToInline(Operation *call, Operation *callable,
                       bool wouldBeCloned) const final {
    return true;
  }

  /// Regions inside tessel ops may receive inlined code.
  bool isLegalToInline(Region *dest, Region *src, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }

  /// Every tessel op may be inlined into any region.
  bool isLegalToInline(Operation *op, Region *dest, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }
};

} // namespace

void mlir::tessel::addTesselInlinerInterface(TesselDialect &dialect) {
  dialect.addInterfaces<TesselInlinerInterface>();
}
