//===- TesselInterfaces.td - how ops are partitioned -------*- tablegen -*-===//

#ifndef TESSEL_INTERFACES_TD
#define TESSEL_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Tessel_PartitionableOpInterface : OpInterface<"PartitionableOpInterface"> {
  let cppNamespace = "::mlir::tessel";
  let description = [{
    Says how tessel-partition turns an op over global tensors into an op
    over blocks, so that supporting a new op is implementing this interface
    rather than editing the partitioner. The rules (see PartitionRule):

    - Elementwise: each result element comes from the same-named element of
      the operands; operands take the result's layout and the op runs
      locally (unary and binary ops, compare, select, cast, transpose).
    - Contraction: an einsum; contracted dimensions may stay split and leave
      partial sums.
    - Reduction: a reduce; reduced dimensions may stay split.
    - Positional: the result's dimension i is the operand's dimension i under
      another name (rename).
    - Regrouping: the result's dimensions regroup the operand's elements in
      row-major order (reshape); a split of a group's major dimension
      carries over where both sides cut the group into the same runs
      (layouts/Reshape.h), and the dimensions of other groups keep theirs.
    - Across: the op combines elements across the dimensions
      getDimsWorkedAcross() names and treats every index of the others
      alike; those dimensions are gathered, the other splits stay.
    - SlidingWindow: a convolution or pooling; a spatial dimension split over
      one mesh axis stays split when every block's window fits the block
      plus a halo, which a halo_exchange with the neighbours brings; the
      other dimensions it works across are gathered as for Across.
    - WindowGradient: a gradient of a convolution or pooling; splits are
      kept where blocks line up (with halos of the gradient or the input),
      and a split dimension the op sums over leaves a partial sum.
    - Initializer: a source whose block a rank makes without the rest of
      it: a parameter, whose every element is a function of its global
      index (the block is a parameter with `block of`, zeros in the padding
      of uneven splits), or a splat constant (the splat of the block type).
      No communication.
    - Whole: operands are gathered whole; the default, correct for any op.
  }];
  let methods = [
    InterfaceMethod<"Returns how the op is partitioned.",
      "::mlir::tessel::PartitionRule", "getPartitionRule", (ins), "",
      [{ return ::mlir::tessel::PartitionRule::Whole; }]>,
    InterfaceMethod<[{
        Returns the dimensions the op combines elements across, for the
        Across and SlidingWindow rules.
      }],
      "::llvm::SmallVector<::llvm::StringRef>", "getDimsWorkedAcross", (ins),
      "", [{ return {}; }]>,
  ];
}

def Tessel_DifferentiableOpInterface : OpInterface<"DifferentiableOpInterface"> {
  let cppNamespace = "::mlir::tessel";
  let description = [{
    Says how tessel-autodiff carries the gradient of an op's result back to
    its operands (reverse mode), so that a new op becomes differentiable by
    implementing this interface rather than by editing the pass. The
    gradients are built from model-level ops only, so the backward program
    is laid out and partitioned like the forward one.
  }];
  let methods = [
    InterfaceMethod<[{
        Builds, at the builder's insertion point, the gradient of every
        operand given `resultGradient`, the gradient of the op's only result
        (which has the result's type). Appends one value per operand to
        `operandGradients`, each of its operand's type, or a null value for
        an operand through which no gradient flows (integer ids, labels,
        conditions).
      }],
      "void", "buildGradients",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::Value":$resultGradient,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$operandGradients)>,
  ];
}

#endif // TESSEL_INTERFACES_TD
