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
    - Across: the op combines elements across the dimensions
      getDimsWorkedAcross() names and treats every index of the others
      alike; those dimensions are gathered, the other splits stay.
    - SlidingWindow: a convolution or pooling; a spatial dimension split over
      one mesh axis stays split when every block's window fits the block
      plus a halo, which a halo_exchange with the neighbours brings; the
      other dimensions it works across are gathered as for Across.
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

#endif // TESSEL_INTERFACES_TD
