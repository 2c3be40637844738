//===- Inputs.h - the arguments a function is evaluated on -------*- C++
//-*-===//
//
// Finds a function's inputs by name and fills them from .npy files or with
// random values that are valid for the ops that read them.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_EVALUATOR_INPUTS_H
#define TESSEL_EVALUATOR_INPUTS_H

#include "evaluator/Interpreter.h"

#include <map>

namespace tessel::eval {

/// Returns the name of argument `index`: its `tessel.name` attribute, or
/// "arg<index>" when it has none.
std::string argumentName(mlir::func::FuncOp func, unsigned index);

/// Returns the exclusive upper bound that integer argument `index` must stay
/// under: its `tessel.index_bound` (in a partitioned function), else the
/// size of the class, vocabulary or one-hot dimension that the ops reading
/// it index with it, or std::nullopt if no op constrains it.
std::optional<int64_t> integerArgumentBound(mlir::func::FuncOp func,
                                            unsigned index);

/// Builds every argument of `func` on every rank. An argument named in
/// `files` is read from that .npy path, in which "{rank}" stands for the
/// rank number (so each rank can have its own shard). Any other argument is
/// an error unless `values` holds its global value (a checkpoint's
/// weights, for a function that takes its parameters as arguments) or
/// `randomSeed` is set, in which case floats are drawn
/// uniformly from [-1, 1) ([0, 1) for a tessel.nonnegative argument) and
/// integers from [0, integerArgumentBound).
/// Errors name the argument and the file.
mlir::FailureOr<std::vector<PerRank>> buildInputs(
    mlir::func::FuncOp func, const std::map<std::string, std::string> &files,
    std::optional<uint64_t> randomSeed, const ParameterValues &values = {});

} // namespace tessel::eval

#endif // TESSEL_EVALUATOR_INPUTS_H
