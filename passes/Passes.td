//===- Passes.td - tessel's passes -------------------------*- tablegen -*-===//

#ifndef TESSEL_PASSES_TD
#define TESSEL_PASSES_TD

include "mlir/Pass/PassBase.td"

def TesselApplyLayout : Pass<"tessel-apply-layout", "::mlir::ModuleOp"> {
  let summary = "give every tensor its layout on the device mesh";
  let description = [{
    Reads a layout (a YAML file, or Mesh-TensorFlow's mesh and rules strings),
    records its mesh as the module's `tessel.mesh` attribute, and gives every
    function argument and op result the layout the rules and overrides
    decide for it: a dimension named by a rule is split over the rule's mesh
    axes, unless an override for the value's name (`tessel.name`, or a
    parameter's name) says otherwise.

    Every split is checked: an axis used twice in one tensor, a split that
    does not divide its dimension, an override naming a tensor or dimension
    that does not exist are errors at the value's location, with a note at
    the rule in the layout file. A rule that matches no tensor is a warning.

    Before, with `--tessel-apply-layout="mesh=data:2 rules=batch:data"`:

    ```mlir
    func.func @f(%x: !tessel.tensor<[batch:8, hidden:4], f32>) ...
    ```

    After:

    ```mlir
    module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
      func.func @f(%x: !tessel.tensor<[batch:8, hidden:4], f32,
                                      #tessel.layout<{batch = [data]}>>) ...
    ```
  }];
  let options = [
    Option<"layoutFile", "layout-file", "std::string", /*default=*/"",
           "a YAML layout file">,
    Option<"meshSpec", "mesh", "std::string", /*default=*/"",
           "the mesh in string syntax, e.g. \"data:2;model:4\"">,
    Option<"rulesSpec", "rules", "std::string", /*default=*/"",
           "the rules in string syntax, e.g. \"batch:data;hidden:model\"">,
  ];
  let dependentDialects = ["::mlir::tessel::TesselDialect"];
}

#endif // TESSEL_PASSES_TD
