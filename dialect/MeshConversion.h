//===- MeshConversion.h - between mesh attributes and layout maths -*- C++
//-*-===//
//
// The IR carries meshes as #tessel.mesh attributes; the layout maths in
// layouts/ works on plain tessel::layout::Mesh values. These convert.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_MESHCONVERSION_H
#define TESSEL_DIALECT_MESHCONVERSION_H

#include "dialect/TesselDialect.h"
#include "layouts/Mesh.h"
#include "layouts/Sharding.h"

namespace mlir::tessel {

/// Returns the mesh an attribute describes (a one-rank mesh for null).
::tessel::layout::Mesh toLayoutMesh(MeshAttr mesh);

/// Returns the attribute that describes `mesh`.
MeshAttr toMeshAttr(MLIRContext *context, const ::tessel::layout::Mesh &mesh);

/// Returns the layout maths' view of a tensor type: its dimensions, global
/// sizes and the axes its layout splits each over.
::tessel::layout::TensorLayout toTensorLayout(NamedTensorType type);

/// Returns the name a layout override refers to `value` by: the
/// `tessel.name` of a function argument or of the op that defines it, or a
/// parameter's name; empty when the value has none.
StringRef getTensorName(Value value);

} // namespace mlir::tessel

#endif // TESSEL_DIALECT_MESHCONVERSION_H
