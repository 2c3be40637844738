//===- Blocks.h - global tensors and the blocks ranks hold -------*- C++
//-*-===//
//
// A partitioned function keeps the global type of each argument and result
// (`tessel.global_type`). These cut a global tensor into the block each
// rank holds, and put the blocks of a result back together, so that a
// partitioned program can be fed and checked with global data.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_EVALUATOR_BLOCKS_H
#define TESSEL_EVALUATOR_BLOCKS_H

#include "evaluator/Interpreter.h"

namespace tessel::eval {

/// The name of the attribute that holds an argument's or result's global
/// type in a partitioned function.
constexpr const char *kGlobalTypeAttrName = "tessel.global_type";
/// Marks an argument that is never negative (Adam's second moment, a step
/// count), so that random inputs for it are drawn from [0, 1).
constexpr const char *kNonNegativeAttrName = "tessel.nonnegative";

/// Returns the block of `global` (a tensor of the laid-out `globalType`)
/// that `rank` of `mesh` holds.
ref::Tensor blockOf(const ref::Tensor &global,
                    mlir::tessel::NamedTensorType globalType,
                    const layout::Mesh &mesh, int64_t rank);

/// Puts the ranks' blocks of a tensor of `globalType` back together. Ranks
/// that hold copies of one block must agree; returns false with a message
/// naming the first element where they do not.
bool assembleGlobal(const PerRank &blocks,
                    mlir::tessel::NamedTensorType globalType,
                    const layout::Mesh &mesh, ref::Tensor &global,
                    std::string &error);

} // namespace tessel::eval

#endif // TESSEL_EVALUATOR_BLOCKS_H
