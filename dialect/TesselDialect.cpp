//===- TesselDialect.cpp - the tessel dialect -----------------------------===//

#include "dialect/TesselDialect.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::tessel;

#include "dialect/TesselDialect.cpp.inc"
#include "dialect/TesselEnums.cpp.inc"
#include "dialect/TesselInterfaces.cpp.inc"

void TesselDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "dialect/TesselModelOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialect/TesselMeshOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialect/TesselFusedOps.cpp.inc"
      >();
  // Layer functions may be inlined into models (tessel-inline-layers, and
  // upstream's --inline).
  addTesselInlinerInterface(*this);
}

LogicalResult TesselDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  if (attr.getName() == kMeshAttrName) {
    if (!isa<ModuleOp>(op))
      return op->emitError()
             << "'" << kMeshAttrName << "' may only be attached to a module";
    if (!isa<MeshAttr>(attr.getValue()))
      return op->emitError()
             << "'" << kMeshAttrName << "' must be a #tessel.mesh attribute";
    return success();
  }
  // Any op may name its result, so that layout overrides can refer to it.
  if (attr.getName() == kNameAttrName) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError() << "'" << kNameAttrName << "' must be a string";
    return success();
  }
  // A call of a layer function may give the layer's names a scope.
  if (attr.getName() == kScopeAttrName) {
    if (!isa<func::CallOp>(op))
      return op->emitError()
             << "'" << kScopeAttrName
             << "' may only be attached to a func.call (it scopes the names "
                "of the layer function the call inlines), not to '"
             << op->getName() << "'";
    auto scope = dyn_cast<StringAttr>(attr.getValue());
    if (!scope || scope.getValue().empty())
      return op->emitError()
             << "'" << kScopeAttrName << "' must be a non-empty string";
    return success();
  }
  // The marks of a pipelined step (docs/pipeline.md).
  if (attr.getName() == kPipelineAttrName) {
    if (!isa<ModuleOp>(op) || !isa<DictionaryAttr>(attr.getValue()))
      return op->emitError() << "'" << kPipelineAttrName
                             << "' must be a dictionary on a module";
    return success();
  }
  if (attr.getName() == kPipelineForwardAttrName ||
      attr.getName() == kStageGradientNormAttrName) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << attr.getName().getValue()
                             << "' must be a unit attribute";
    return success();
  }
  if (attr.getName() == kPipelineOutputAttrName) {
    if (!isa<IntegerAttr>(attr.getValue()))
      return op->emitError()
             << "'" << kPipelineOutputAttrName << "' must be an integer";
    return success();
  }
  return op->emitError() << "unknown tessel attribute '"
                         << attr.getName().getValue() << "'";
}

MeshAttr mlir::tessel::getEnclosingMesh(Operation *op) {
  for (Operation *parent = op; parent; parent = parent->getParentOp())
    if (auto mesh =
            parent->getAttrOfType<MeshAttr>(TesselDialect::kMeshAttrName))
      return mesh;
  return {};
}

bool mlir::tessel::isSupportedElementType(Type type) {
  if (type.isF32() || type.isF16() || type.isBF16() || type.isF64())
    return true;
  return type.isSignlessInteger(1) || type.isSignlessInteger(32) ||
         type.isSignlessInteger(64);
}
