//===- ModelState.h - the MLIR behind a front-end Model ----------*- C++ -*-===//
//
// What the public headers keep opaque: the context, the module, the
// builder, the stack of function bodies being traced, and the layer
// functions traced so far. The op functions (Ops.cpp) build through it;
// tools and the bindings that want the module itself include this header.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_FRONTEND_MODELSTATE_H
#define TESSEL_FRONTEND_MODELSTATE_H

#include "tessel/frontend/Model.h"

#include "dialect/TesselDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>
#include <memory>

namespace tessel {

struct ModelState : std::enable_shared_from_this<ModelState> {
  explicit ModelState(Model &owner);

  Model &owner;
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::OpBuilder builder;
  mlir::Location location;
  /// The bodies of the functions being traced, innermost last: ops go into
  /// the last one, and a tensor may only be used in the body it belongs to.
  std::vector<mlir::Block *> bodies;
  /// The number of each body in `bodies` (Tensor::owner), and the next one.
  std::vector<uint64_t> bodyIds;
  uint64_t nextBodyId = 1;
  /// Whether the function being defined is traced for training.
  bool training = true;
  /// The traced layer functions of each kind, with the printed form that
  /// tells whether a new trace is the same function.
  std::map<std::string,
           std::vector<std::pair<std::string, mlir::func::FuncOp>>>
      layerFunctions;
  /// What MLIR reported since the last check (verifier messages).
  std::vector<std::string> diagnostics;

  /// The tensor type of `dims`; throws Error naming `op` when a name repeats
  /// or a size is not positive.
  mlir::tessel::NamedTensorType tensorType(const Dims &dims, DType dtype,
                                           const std::string &op);
  mlir::Type elementType(DType dtype);

  /// The value of `tensor` for an operand of `op`: throws Error when the
  /// tensor is empty, of another model, or of another function.
  mlir::Value operand(const Tensor &tensor, const std::string &op);

  /// Verifies the op just built and wraps its single result; on failure
  /// erases the op and throws Error with `op` and the verifier's message.
  Tensor finish(mlir::Operation *built, const std::string &op);
  /// The tensor of a value of the body being traced.
  Tensor wrap(mlir::Value value);

  /// The body ops are being added to; throws Error outside a function.
  mlir::Block *currentBody(const std::string &op);
  /// Takes and clears the collected diagnostics, joined into one message.
  std::string takeDiagnostics();
};

/// The state of the model that `tensor` belongs to; throws Error naming
/// `op` when the tensor is empty.
ModelState &stateOf(const Tensor &tensor, const std::string &op);

DType dtypeOf(mlir::Type elementType);

} // namespace tessel

#endif // TESSEL_FRONTEND_MODELSTATE_H
