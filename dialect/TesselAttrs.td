//===- TesselAttrs.td - mesh and layout attributes ---------*- tablegen -*-===//

#ifndef TESSEL_ATTRS_TD
#define TESSEL_ATTRS_TD

include "dialect/TesselDialect.td"
include "mlir/IR/AttrTypeBase.td"

class Tessel_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tessel_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Tessel_MeshAttr : Tessel_Attr<"Mesh", "mesh"> {
  let summary = "a logical device mesh with named axes";
  let description = [{
    An n-dimensional grid of ranks whose axes have names and sizes. Ranks are
    numbered row-major over the axes in the order they are listed: the last
    axis varies fastest, so in `[data:2, model:4]` ranks 0-3 share `data`
    coordinate 0.

    Example:

    ```mlir
    #tessel.mesh<[data:2, model:4]>
    ```

    Constraints checked by the verifier: axis names are unique and every size
    is at least 1.
  }];
  let parameters = (ins
    ArrayRefParameter<"::mlir::StringAttr", "axis names">:$axisNames,
    ArrayRefParameter<"int64_t", "axis sizes">:$axisSizes);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Returns the number of ranks in the mesh.
    int64_t getNumRanks() const;
    /// Returns the size of the named axis, or std::nullopt if there is none.
    std::optional<int64_t> getAxisSize(::llvm::StringRef name) const;
    /// Returns the product of the sizes of the named axes, or std::nullopt
    /// if one of them is not an axis of the mesh.
    std::optional<int64_t> getGroupSize(::llvm::ArrayRef<::mlir::StringAttr> axes) const;
  }];
}

def Tessel_LayoutAttr : Tessel_Attr<"Layout", "layout"> {
  let summary = "the mesh axes each named dimension is split over";
  let description = [{
    Maps dimension names to the ordered list of mesh axes that split them.
    A dimension that is not listed is replicated. A dimension split over
    several axes is divided by the product of their sizes, the first axis
    outermost (`hidden = [data, model]` gives rank (d, m) the block
    `d * |model| + m`).

    Example:

    ```mlir
    #tessel.layout<{batch = [data], hidden = [model]}>
    ```

    Constraints checked by the verifier: no dimension has an empty axis
    list, and no mesh axis is used twice.
  }];
  let parameters = (ins
    ArrayRefParameter<"::mlir::StringAttr", "split dimensions">:$dims,
    ArrayRefParameter<"::mlir::ArrayAttr", "mesh axes per dimension">:$axes);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Returns the mesh axes that split `dim`, empty when it is replicated.
    ::llvm::SmallVector<::mlir::StringAttr> getAxesOf(::llvm::StringRef dim) const;
  }];
}

#endif // TESSEL_ATTRS_TD
