//===- TesselDialect.td - the tessel dialect ---------------*- tablegen -*-===//
//
// The dialect definition shared by the type, attribute and op files.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TD
#define TESSEL_DIALECT_TD

include "mlir/IR/OpBase.td"

def Tessel_Dialect : Dialect {
  let name = "tessel";
  let cppNamespace = "::mlir::tessel";
  let summary = "Tensors with named dimensions, laid out on a device mesh";
  let description = [{
    The tessel dialect expresses models over tensors whose dimensions have
    names (`!tessel.tensor<[batch:64, hidden:1024], f32>`). Dimension names
    are the contract between a model and a layout: a layout maps names onto
    the axes of a device mesh (`#tessel.mesh<[data:2, model:4]>`), and the
    partitioner turns model-level ops over global tensors into per-rank ops
    over shards plus the mesh-level collectives that connect them.

    A module that holds mesh-level ops names its mesh with the discardable
    module attribute `tessel.mesh`.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();

    /// The name of the module attribute that holds the device mesh.
    static constexpr ::llvm::StringLiteral kMeshAttrName = "tessel.mesh";
    /// The name of the attribute that names a value: an input (on a
    /// function argument) or an op's result (on the op).
    static constexpr ::llvm::StringLiteral kNameAttrName = "tessel.name";
    /// The name of the attribute that gives a `func.call` of a layer
    /// function its scope: tessel-inline-layers prefixes the names of the
    /// parameters and named results it inlines from the call with
    /// "<scope>.".
    static constexpr ::llvm::StringLiteral kScopeAttrName = "tessel.scope";
    /// The module attribute of a pipelined training step (a dictionary:
    /// axis, microbatches, schedule, remat, batch_dim, stages), set by
    /// tessel-split-stages and written into the program's metadata.
    static constexpr ::llvm::StringLiteral kPipelineAttrName =
        "tessel.pipeline";
    /// Marks the ops of a stage's step that belong to its forward pass
    /// (unit), between tessel-split-stages and
    /// tessel-split-forward-backward.
    static constexpr ::llvm::StringLiteral kPipelineForwardAttrName =
        "tessel.pipeline_forward";
    /// Marks the product of a stage's output k with its cotangent (an
    /// integer k), by which tessel-split-forward-backward finds the outputs.
    static constexpr ::llvm::StringLiteral kPipelineOutputAttrName =
        "tessel.pipeline_output";
    /// Marks the `tessel.sqrt` of a stage's apply whose operand is the sum
    /// of that stage's squared gradients (unit), to which
    /// tessel-sum-gradient-norm-over-stages adds the other stages' so that
    /// clipping by the global norm sees every stage's gradients.
    static constexpr ::llvm::StringLiteral kStageGradientNormAttrName =
        "tessel.stage_gradient_norm";
  }];
}

class Tessel_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tessel_Dialect, mnemonic, traits>;

#endif // TESSEL_DIALECT_TD
