//===- PartitionRule.h - the ways an op can be partitioned -------*- C++
//-*-===//

#ifndef TESSEL_DIALECT_PARTITIONRULE_H
#define TESSEL_DIALECT_PARTITIONRULE_H

namespace mlir::tessel {

/// How tessel-partition turns an op over global tensors into an op over
/// blocks; PartitionableOpInterface documents each.
enum class PartitionRule {
  Elementwise,
  Contraction,
  Reduction,
  Positional,
  Regrouping,
  Across,
  SlidingWindow,
  WindowGradient,
  Initializer,
  Whole,
};

} // namespace mlir::tessel

#endif // TESSEL_DIALECT_PARTITIONRULE_H
