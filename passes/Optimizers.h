//===- Optimizers.h - parameter updates as model-level ops ------*- C++ -*-===//
//
// The update rules tessel-autodiff appends to a training step. They are
// element-wise ops on each parameter, its gradient and its state, so a
// parameter split over a mesh axis has its gradient and its optimizer state
// split the same way, and the update needs no communication of its own
// (the global norm of the gradients, which the step returns and clipping
// uses, adds one scalar sum).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_PASSES_OPTIMIZERS_H
#define TESSEL_PASSES_OPTIMIZERS_H

#include "dialect/TensorBuilder.h"

#include <optional>

namespace mlir::tessel {

enum class OptimizerKind { Sgd, Momentum, Adam, AdamW };

/// Parses "sgd", "momentum", "adam" or "adamw".
std::optional<OptimizerKind> parseOptimizerKind(StringRef name);

struct OptimizerConfig {
  OptimizerKind kind = OptimizerKind::Sgd;
  double momentum = 0.9;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double epsilon = 1e-8;
  /// L2 regularisation added to the gradient (sgd, momentum, adam), or the
  /// decoupled weight decay of AdamW.
  double weightDecay = 0.0;
  /// Gradients are scaled so that their global L2 norm is at most this;
  /// 0 turns clipping off.
  double clipNorm = 0.0;
};

/// The state tensors the optimizer keeps for each parameter, by suffix of
/// the parameter's name ("momentum"; "adam_m", "adam_v"), each of the
/// parameter's type and starting at zero.
SmallVector<StringRef> perParameterState(OptimizerKind kind);

/// True if the optimizer counts its steps (Adam's bias correction) in a
/// scalar "step" state that starts at 0.
bool countsSteps(OptimizerKind kind);

/// True for state that is never negative (Adam's second moment, the step),
/// which random test inputs must respect.
bool isNonNegativeState(StringRef suffix);

/// One tensor of a training step's optimizer state: its name
/// ("<parameter>.adam_m", "step"), type and whether it is never negative.
struct StateTensor {
  std::string name;
  NamedTensorType type;
  bool nonNegative;
  /// What @init fills it with: 0 for the optimizer's state.
  double initialValue = 0.0;
};

/// The state the optimizer keeps for `parameters`, in the order a step
/// takes it: each parameter's perParameterState, then the step count (a
/// scalar of the first parameter's element type) if the optimizer counts
/// steps.
SmallVector<StateTensor> optimizerStateOf(ArrayRef<ParameterOp> parameters,
                                          OptimizerKind kind);

/// Creates, at the builder's insertion point, the function `name` that
/// returns the initial values of `parameters` (clones of their ops) and of
/// `state` (each filled with its initialValue), each result and each
/// constant named after its tensor so that a layout lays the initial state
/// out as the step's.
func::FuncOp buildInitFunction(OpBuilder &builder, Location loc, StringRef name,
                               ArrayRef<ParameterOp> parameters,
                               ArrayRef<StateTensor> state);

/// One parameter with its gradient and its state in perParameterState order.
struct ParameterSlot {
  Value parameter;
  Value gradient;
  SmallVector<Value> state;
  /// Whether its gradient counts in the global norm: not for a weight that
  /// an earlier pipeline stage holds too, which counts it there.
  bool inGlobalNorm = true;
};

/// What an update yields: for every slot its new value and new state, the
/// new step count (null when the optimizer counts none), and the L2 norm of
/// the gradients together before clipping (those of the slots in the
/// global norm; a scalar in f32, or f64 if a gradient is f64; null when
/// there are no slots), the `tessel.sqrt` of their sum of squares.
struct OptimizerUpdate {
  SmallVector<Value> parameters;
  SmallVector<SmallVector<Value>> state;
  Value step;
  Value gradientNorm;
};

/// Builds the update of every parameter with learning rate
/// `learningRate` (a scalar tensor) and the step count `step` (null when the
/// optimizer counts none).
OptimizerUpdate buildOptimizerUpdate(TensorBuilder &b,
                                     const OptimizerConfig &config,
                                     ArrayRef<ParameterSlot> slots,
                                     Value learningRate, Value step);

} // namespace mlir::tessel

#endif // TESSEL_PASSES_OPTIMIZERS_H
