//===- Interpreter.h - run a tessel function with the reference kernels -*- C++
//-*-===//
//
// Executes a function of tessel ops, op by op, with the reference kernels.
// A partitioned program runs for every rank of its module's mesh at once, in
// lock step: each value holds one tensor per rank, model-level ops run on
// every rank's shard, and mesh-level ops are simulated across ranks. A
// program without a mesh runs on one rank.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_EVALUATOR_INTERPRETER_H
#define TESSEL_EVALUATOR_INTERPRETER_H

#include "dialect/TesselDialect.h"
#include "reference/Tensor.h"
#include "layouts/Mesh.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <map>

namespace tessel::eval {

/// One tensor per rank, indexed by rank.
using PerRank = std::vector<ref::Tensor>;

/// Returns the reference spec of a tessel tensor type.
ref::TensorSpec specOf(mlir::tessel::NamedTensorType type);

/// Returns the mesh `func` runs on: its module's mesh, or a one-rank mesh.
layout::Mesh meshOf(mlir::func::FuncOp func);

/// Global values of parameters by name (trained or imported weights).
using ParameterValues = std::map<std::string, ref::Tensor>;

/// Runs `func` on every rank of meshOf(func). `inputs[i]` holds argument i
/// on every rank. A tessel.parameter named in `parameters` takes that value
/// (each rank its block of it), which must have the parameter's global dims
/// and shape; any other is initialized by its initializer. Returns the
/// results, one PerRank per function result, or failure after emitting an
/// error at the op that failed (for instance a label outside its class
/// range).
mlir::FailureOr<std::vector<PerRank>>
interpret(mlir::func::FuncOp func, const std::vector<PerRank> &inputs,
          const ParameterValues &parameters = {});

} // namespace tessel::eval

#endif // TESSEL_EVALUATOR_INTERPRETER_H
