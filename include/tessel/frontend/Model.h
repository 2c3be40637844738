//===- Model.h - a tessel model under construction ---------------*- C++ -*-===//
//
// A `Model` owns the MLIR module that the front end writes: public
// functions (`forward`, `evaluate`) defined from C++ (or Python) callables,
// trainable parameters, and layers, each of which becomes a private
// function called with a `tessel.scope` (docs/user-guide.md, "Layers as
// functions"). The module is the same IR a user could write by hand; the
// compiler inlines the layers, prefixing their parameter names with the
// scope, so `fc1.w` and `fc2.w` are two weights of one `Linear` function.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_FRONTEND_MODEL_H
#define TESSEL_FRONTEND_MODEL_H

#include "tessel/frontend/Tensor.h"

#include <functional>
#include <memory>
#include <optional>

namespace tessel {

/// A function argument: the data a model is fed, found by name by the
/// runtime's data loader and by `tessel-eval --input NAME=FILE.npy`.
struct Input {
  Input(std::string name, Dims dims, DType dtype = DType::F32)
      : name(std::move(name)), dims(std::move(dims)), dtype(dtype) {}
  std::string name;
  Dims dims;
  DType dtype;
};

/// A function result, optionally named (an evaluation function names its
/// metrics: "loss", "correct").
struct Output {
  Output(Tensor value) : value(std::move(value)) {}
  Output(std::string name, Tensor value)
      : name(std::move(name)), value(std::move(value)) {}
  std::string name;
  Tensor value;
};

/// How a parameter's elements are drawn. Each element is a pure function
/// of the seed and its global index, so every layout starts from the same
/// weights.
struct Initializer {
  enum class Kind { Zeros, Ones, Uniform, Normal };
  Kind kind = Kind::Normal;
  double scale = 0.02;

  static Initializer zeros() { return {Kind::Zeros, 1.0}; }
  static Initializer ones() { return {Kind::Ones, 1.0}; }
  /// Uniform in [-bound, bound).
  static Initializer uniform(double bound) { return {Kind::Uniform, bound}; }
  /// Normal with standard deviation `stddev`.
  static Initializer normal(double stddev) { return {Kind::Normal, stddev}; }
};

class Model {
public:
  using Body = std::function<std::vector<Output>(const std::vector<Tensor> &)>;
  using LayerBody =
      std::function<std::vector<Tensor>(const std::vector<Tensor> &)>;

  Model();
  ~Model();
  Model(const Model &) = delete;
  Model &operator=(const Model &) = delete;

  /// Defines the public function `name` over `inputs`: `body` receives one
  /// tensor per input and returns the results. A training model defines
  /// `forward`, which returns the scalar loss.
  /// `training` says whether layers trace their training form (BatchNorm
  /// normalises with the batch's statistics and updates its running ones)
  /// or their evaluation form; by default only `forward`, the loss that
  /// training differentiates, is traced for training.
  void define(const std::string &name, const std::vector<Input> &inputs,
              const Body &body, std::optional<bool> training = std::nullopt);

  /// Whether the function being defined is traced for training.
  bool training() const;

  /// A trainable parameter of the function being defined. Inside a layer,
  /// `name` is local ("w") and the call's scope makes it unique
  /// ("fc1.w"); the same full name twice is one shared weight. The seed
  /// defaults to one derived from `name`.
  Tensor parameter(const std::string &name, const Dims &dims,
                   Initializer init = Initializer::normal(0.02),
                   DType dtype = DType::F32,
                   std::optional<int64_t> seed = std::nullopt);

  /// Non-trainable state of the function being defined (a `tessel.parameter
  /// ... buffer`: batch norm's running statistics). A training step takes
  /// and returns it (role "buffer") without a gradient or optimizer state;
  /// checkpoints save it and `evaluate` takes it like the parameters.
  Tensor buffer(const std::string &name, const Dims &dims,
                Initializer init = Initializer::zeros(),
                DType dtype = DType::F32);

  /// Records `value` as the value `buffer` takes after a training step
  /// (`tessel.update_buffer`); returns `value`.
  Tensor updateBuffer(const Tensor &buffer, const Tensor &value);

  /// Calls the layer `kind` with `args` under `scope`: `body` is traced
  /// into a private function, which is reused by every later call whose
  /// traced function is the same (the same kind, shapes and
  /// hyperparameters). Returns the call's results.
  std::vector<Tensor> callLayer(const std::string &kind,
                                const std::string &scope,
                                const std::vector<Tensor> &args,
                                const LayerBody &body);

  /// Names `tensor` (its op's `tessel.name`) so that a layout file can
  /// override the layout of that one tensor.
  void name(const Tensor &tensor, const std::string &name);

  /// The source location given to the ops built from now on (the bindings
  /// set the Python caller's file and line).
  void setLocation(const std::string &file, int line);

  /// The module as MLIR text; with `locations`, every op carries the
  /// source line that built it (`loc("model.py":12:1)`), so that the
  /// compiler's messages about it name that line.
  std::string str(bool locations = false) const;
  /// Writes the module to `path` (through a temporary file beside it, so a
  /// failure never leaves half a file); throws Error on failure.
  void write(const std::string &path, bool locations = false) const;

  /// Whether a function of this name has been defined.
  bool hasFunction(const std::string &name) const;

  /// The implementation (MLIR context, module, builder); for the bindings
  /// and for tools that take the module (frontend/ModelState.h).
  ModelState &state() { return *impl; }
  const ModelState &state() const { return *impl; }

  /// The model a tensor belongs to.
  static Model &of(const Tensor &tensor);

private:
  /// Shared so that tensors can tell (weakly) whether their model lives.
  std::shared_ptr<ModelState> impl;
};

} // namespace tessel

#endif // TESSEL_FRONTEND_MODEL_H
