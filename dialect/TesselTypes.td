//===- TesselTypes.td - the named-dimension tensor type ----*- tablegen -*-===//

#ifndef TESSEL_TYPES_TD
#define TESSEL_TYPES_TD

include "dialect/TesselAttrs.td"
include "mlir/IR/AttrTypeBase.td"

def Tessel_NamedTensorType : TypeDef<Tessel_Dialect, "NamedTensor"> {
  let mnemonic = "tensor";
  let summary = "a tensor whose dimensions have names";
  let description = [{
    A ranked tensor whose every dimension has a name and a static size. Names
    are unique within one tensor; the order of the dimensions is the row-major
    storage order. The element type is one of f32, f16, bf16, f64, i1, i32 or
    i64. An optional layout records which mesh axes split each dimension once
    a layout has been applied; the sizes are always the global ones.

    Example:

    ```mlir
    !tessel.tensor<[batch:64, hidden:1024], f32>
    !tessel.tensor<[batch:64, hidden:1024], bf16, #tessel.layout<{batch = [data]}>>
    !tessel.tensor<[], f32>   // a scalar
    ```

    Constraints checked by the verifier: names are unique and non-empty,
    sizes are at least 1, the element type is supported, and the layout only
    names dimensions of the tensor.
  }];
  let parameters = (ins
    ArrayRefParameter<"::mlir::StringAttr", "dimension names">:$dimNames,
    ArrayRefParameter<"int64_t", "dimension sizes">:$shape,
    "::mlir::Type":$elementType,
    OptionalParameter<"::mlir::tessel::LayoutAttr">:$layout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins
        "::llvm::ArrayRef<::mlir::StringAttr>":$dimNames,
        "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), dimNames, shape, elementType,
                   ::mlir::tessel::LayoutAttr());
    }]>
  ];
  let extraClassDeclaration = [{
    unsigned getRank() const { return getShape().size(); }
    int64_t getNumElements() const;
    /// Returns the position of the named dimension, or std::nullopt.
    std::optional<unsigned> getDimIndex(::llvm::StringRef name) const;
    /// Returns the size of the named dimension, or std::nullopt.
    std::optional<int64_t> getDimSize(::llvm::StringRef name) const;
    bool hasDim(::llvm::StringRef name) const {
      return getDimIndex(name).has_value();
    }
    /// Returns the same tensor type with another element type.
    NamedTensorType withElementType(::mlir::Type elementType) const;
    /// Returns the same tensor type with another layout (null for none).
    NamedTensorType withLayout(::mlir::tessel::LayoutAttr layout) const;
    /// Returns true if both types have the same names, sizes and element
    /// type, whatever their layouts.
    bool hasSameShapeAs(NamedTensorType other) const;
  }];
}

def Tessel_Tensor : Type<CPred<"::llvm::isa<::mlir::tessel::NamedTensorType>($_self)">,
    "tessel tensor", "::mlir::tessel::NamedTensorType">;

#endif // TESSEL_TYPES_TD
