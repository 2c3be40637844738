//===- TesselEnums.td - enumerations of the tessel dialect -*- tablegen -*-===//

#ifndef TESSEL_ENUMS_TD
#define TESSEL_ENUMS_TD

include "mlir/IR/EnumAttr.td"

def Tessel_ReduceKind : I32EnumAttr<"ReduceKind",
    "how a reduction combines elements", [
  I32EnumAttrCase<"Sum", 0, "sum">,
  I32EnumAttrCase<"Mean", 1, "mean">,
  I32EnumAttrCase<"Max", 2, "max">,
  I32EnumAttrCase<"Min", 3, "min">,
  I32EnumAttrCase<"Prod", 4, "prod">
]> {
  let cppNamespace = "::mlir::tessel";
}

// Collectives combine with an associative operation only: a mean across
// ranks is a sum followed by a scale, which the partitioner emits itself.
def Tessel_CollectiveKind : I32EnumAttr<"CollectiveKind",
    "how a collective combines the members' values", [
  I32EnumAttrCase<"Sum", 0, "sum">,
  I32EnumAttrCase<"Max", 1, "max">,
  I32EnumAttrCase<"Min", 2, "min">
]> {
  let cppNamespace = "::mlir::tessel";
}

def Tessel_CompareKind : I32EnumAttr<"CompareKind", "a comparison", [
  I32EnumAttrCase<"Eq", 0, "eq">,
  I32EnumAttrCase<"Ne", 1, "ne">,
  I32EnumAttrCase<"Lt", 2, "lt">,
  I32EnumAttrCase<"Le", 3, "le">,
  I32EnumAttrCase<"Gt", 4, "gt">,
  I32EnumAttrCase<"Ge", 5, "ge">
]> {
  let cppNamespace = "::mlir::tessel";
}

def Tessel_PoolKind : I32EnumAttr<"PoolKind", "a pooling window's reduction", [
  I32EnumAttrCase<"Max", 0, "max">,
  I32EnumAttrCase<"Avg", 1, "avg">
]> {
  let cppNamespace = "::mlir::tessel";
}

def Tessel_InitKind : I32EnumAttr<"InitKind", "how a parameter is initialised", [
  I32EnumAttrCase<"Zeros", 0, "zeros">,
  I32EnumAttrCase<"Ones", 1, "ones">,
  I32EnumAttrCase<"Uniform", 2, "uniform">,
  I32EnumAttrCase<"Normal", 3, "normal">
]> {
  let cppNamespace = "::mlir::tessel";
}

#endif // TESSEL_ENUMS_TD
