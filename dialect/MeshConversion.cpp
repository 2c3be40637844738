//===- MeshConversion.cpp - between mesh attributes and layout maths ------===//

#include "dialect/MeshConversion.h"

using namespace mlir;
using namespace mlir::tessel;

::tessel::layout::Mesh mlir::tessel::toLayoutMesh(MeshAttr mesh) {
  if (!mesh)
    return ::tessel::layout::Mesh({}, {});
  std::vector<std::string> names;
  for (StringAttr name : mesh.getAxisNames())
    names.push_back(name.str());
  return ::tessel::layout::Mesh(
      names, std::vector<int64_t>(mesh.getAxisSizes().begin(),
                                  mesh.getAxisSizes().end()));
}

MeshAttr mlir::tessel::toMeshAttr(MLIRContext *context,
                                  const ::tessel::layout::Mesh &mesh) {
  SmallVector<StringAttr> names;
  for (const std::string &name : mesh.axisNames())
    names.push_back(StringAttr::get(context, name));
  return MeshAttr::get(context, names, mesh.axisSizes());
}

::tessel::layout::TensorLayout
mlir::tessel::toTensorLayout(NamedTensorType type) {
  ::tessel::layout::TensorLayout result;
  for (auto [name, size] : llvm::zip(type.getDimNames(), type.getShape())) {
    result.dims.push_back(name.str());
    result.shape.push_back(size);
    ::tessel::layout::AxisList axes;
    if (LayoutAttr layout = type.getLayout())
      for (StringAttr axis : layout.getAxesOf(name.getValue()))
        axes.push_back(axis.str());
    result.axes.push_back(axes);
  }
  return result;
}

StringRef mlir::tessel::getTensorName(Value value) {
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    auto func = dyn_cast<func::FuncOp>(argument.getOwner()->getParentOp());
    if (func)
      if (auto name = func.getArgAttrOfType<StringAttr>(
              argument.getArgNumber(), TesselDialect::kNameAttrName))
        return name.getValue();
    return {};
  }
  Operation *op = value.getDefiningOp();
  if (auto name = op->getAttrOfType<StringAttr>(TesselDialect::kNameAttrName))
    return name.getValue();
  if (auto parameter = dyn_cast<ParameterOp>(op))
    return parameter.getName();
  return {};
}
