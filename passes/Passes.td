//===- Passes.td - tessel's passes -------------------------*- tablegen -*-===//

#ifndef TESSEL_PASSES_TD
#define TESSEL_PASSES_TD

include "mlir/Pass/PassBase.td"

def TesselInlineLayers : Pass<"tessel-inline-layers", "::mlir::ModuleOp"> {
  let summary = "inline the layer functions a model calls, scoping their names";
  let description = [{
    A layer is a function: it takes tensors, declares its weights with
    `tessel.parameter` and returns tensors, and a model calls it with
    `func.call`. This pass inlines every `func.call` of the module, so that
    autodiff, layouts, partitioning and `tessel explain` see one flat
    function. `tessel compile` runs it first, and `tessel explain` and
    `tessel-eval` run it on every model that calls a function; nobody needs
    to run it by hand except before another pass in `tessel-opt`.

    - Callees are inlined before their callers (post-order over the call
      graph), so layers may call layers. A call cycle (recursion) is an
      error at a call of the cycle that names its functions; so is a callee
      with more than one block, or one without a body.
    - A call may carry `tessel.scope = "S"` (a non-empty string, allowed on
      a `func.call` only). Every `tessel.parameter` the call inlines is
      renamed "S." + name, and so is every `tessel.name` of an inlined op
      (the result names a layout file's overrides refer to). Scopes of
      nested calls compose: `@block` called with scope "block0" that calls
      `@attention` with scope "attn" gives "block0.attn.wq". The scope is
      mixed into each inlined parameter's seed (FNV-1a of the scope,
      SplitMix64's finaliser, 63 bits), so that the copies of a layer start
      from different values. A call without a scope leaves names and seeds
      as they are.
    - A `tessel.name` on a call of one result names that result: it moves
      to the inlined op that computes it (`func.call @head(%x)
      {tessel.name = "logits"}` is a tensor a layout can override).
    - A parameter is its full name: the `tessel.parameter` ops of one
      function that have the same full name, after inlining, are one shared
      weight (a tied embedding, a layer called twice without a scope) and
      become the first of them. They must agree on type, initializer, scale
      and seed; otherwise it is an error at the second that names the
      parameter, with a note at the first. Passing a parameter as an
      argument to the layers that share it is the other way to tie weights.
    - Afterwards, private functions that nothing refers to any more are
      erased; public functions stay (with their calls inlined too), so that
      `@forward` and `@evaluate` can call the same public layer functions.

    Before:

    ```mlir
    func.func private @dense(%x: !tessel.tensor<[batch:4, k:3], f32>)
        -> !tessel.tensor<[batch:4, n:2], f32> {
      %w = tessel.parameter "w" normal scale 0.1 seed 1
          : !tessel.tensor<[k:3, n:2], f32>
      %y = tessel.einsum %x, %w : (...) -> !tessel.tensor<[batch:4, n:2], f32>
      return %y : !tessel.tensor<[batch:4, n:2], f32>
    }
    func.func @forward(%x: !tessel.tensor<[batch:4, k:3], f32>) -> ... {
      %h = func.call @dense(%x) {tessel.scope = "layer0"} : (...) -> ...
      ...
    }
    ```

    After:

    ```mlir
    func.func @forward(%x: !tessel.tensor<[batch:4, k:3], f32>) -> ... {
      %w = tessel.parameter "layer0.w" normal scale 0.1 seed 1
          : !tessel.tensor<[k:3, n:2], f32>
      %h = tessel.einsum %x, %w : (...) -> !tessel.tensor<[batch:4, n:2], f32>
      ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::tessel::TesselDialect",
                           "::mlir::func::FuncDialect"];
}

def TesselAutodiff : Pass<"tessel-autodiff", "::mlir::ModuleOp"> {
  let summary = "generate the training step of a model from its loss";
  let description = [{
    Differentiates the function that returns the model's scalar loss
    (`function`, `forward` by default) in reverse mode and adds two
    functions to the module, keeping the loss function as it is:

    - `@init() -> (parameters..., state...)`: every `tessel.parameter` with
      its initializer, and the optimizer's state at zero;
    - `@train_step(parameters..., state..., data..., learning_rate)
      -> (parameters..., state..., loss, gradient_norm)`: the loss, its
      gradient with respect to every parameter, the optimizer's update, and
      the L2 norm of all gradients together before clipping (summed in f32,
      or f64 if a gradient is f64), by which a driver stops or skips a step
      whose gradients are not finite.

    Each op's gradient comes from its DifferentiableOpInterface and is
    written with model-level ops, so the training step is laid out and
    partitioned like any program: a parameter split over a mesh axis has its
    gradient and optimizer state split the same way. Parameters and state
    are named (`tessel.name`) after the parameter: `w1`, `w1.momentum`,
    `w1.adam_m`, `w1.adam_v`, and `step` for Adam's step count. Every other
    function that declares parameters (an evaluation function, say) takes
    them as leading arguments of the same names instead, so that it runs on
    the values training holds. A parameter is its name: `tessel.parameter`
    ops of one function with the same name are one shared weight (they must
    agree on type, initializer, scale and seed), with one argument, one
    gradient (the sum of its uses') and one set of state. Layer functions
    are inlined first by tessel-inline-layers; a `func.call` left in the
    module is an error. Optimizers:
    `sgd`, `momentum`, `adam` (bias-corrected; `weight-decay` is an L2 term)
    and `adamw` (decoupled weight decay); `clip-norm` scales all gradients
    to at most that global L2 norm. The learning rate is an input, so that
    a schedule lives in the program that calls the step.

    `precision=bf16` (or `f16`) trains in mixed precision without editing
    the model: the parameters, the optimizer state, the update and the loss
    stay f32 (master weights), the forward and backward ops compute in the
    narrow type, and casts at the parameters carry f32 gradients back.
    With `precision=f16` the step scales its loss dynamically
    (`loss-scale`, `loss-scale-growth-interval`; passes/LossScaling.h):
    the backward pass starts from the state `loss_scale` instead of 1, the
    gradients are divided by it before the optimizer, and the step returns
    its next value (halved after non-finite gradients, doubled after
    `loss-scale-growth-interval` finite steps) and that of
    `loss_scale.good_steps`.

    Before:

    ```mlir
    func.func @forward(%x: !tessel.tensor<[batch:4, k:3], f32>)
        -> !tessel.tensor<[], f32> {
      %w = tessel.parameter "w" normal scale 0.1 seed 1
          : !tessel.tensor<[k:3], f32>
      %y = tessel.einsum %x, %w : (...) -> !tessel.tensor<[batch:4], f32>
      %l = tessel.reduce mean %y : ... -> !tessel.tensor<[], f32>
      return %l : !tessel.tensor<[], f32>
    }
    ```

    After (`optimizer=sgd`), beside `@forward`:

    ```mlir
    func.func @init() -> (!tessel.tensor<[k:3], f32> {tessel.name = "w"}) {
      %w = tessel.parameter "w" normal scale 0.1 seed 1 : ...
      return %w : ...
    }
    func.func @train_step(%w: ... {tessel.name = "w"}, %x: ...,
                          %lr: !tessel.tensor<[], f32> {tessel.name = "learning_rate"})
        -> (... {tessel.name = "w"}, !tessel.tensor<[], f32> {tessel.name = "loss"},
            !tessel.tensor<[], f32> {tessel.name = "gradient_norm"}) {
      // forward, then d loss / d w = einsum(dy, x), then w - lr * dw,
      // and sqrt(sum(dw * dw))
    }
    ```
  }];
  let options = [
    Option<"functionName", "function", "std::string", /*default=*/"\"forward\"",
           "the function that returns the scalar loss">,
    Option<"optimizer", "optimizer", "std::string", /*default=*/"\"sgd\"",
           "sgd, momentum, adam or adamw">,
    Option<"momentum", "momentum", "double", /*default=*/"0.9",
           "momentum of the momentum optimizer">,
    Option<"beta1", "beta1", "double", /*default=*/"0.9",
           "Adam's first-moment decay">,
    Option<"beta2", "beta2", "double", /*default=*/"0.999",
           "Adam's second-moment decay">,
    Option<"epsilon", "epsilon", "double", /*default=*/"1e-8",
           "Adam's denominator term">,
    Option<"weightDecay", "weight-decay", "double", /*default=*/"0.0",
           "L2 term (sgd, momentum, adam) or decoupled decay (adamw)">,
    Option<"clipNorm", "clip-norm", "double", /*default=*/"0.0",
           "clip gradients to this global L2 norm; 0 for none">,
    Option<"precision", "precision", "std::string", /*default=*/"\"f32\"",
           "f32 (the model's own types), or bf16 or f16: mixed precision "
           "with f32 master weights">,
    Option<"lossScale", "loss-scale", "std::string", /*default=*/"\"auto\"",
           "dynamic loss scaling: auto (on from 32768 for precision=f16, "
           "off otherwise), off, or the initial scale">,
    Option<"lossScaleGrowthInterval", "loss-scale-growth-interval",
           "int64_t", /*default=*/"2000",
           "finite steps in a row after which the loss scale doubles">,
  ];
  let dependentDialects = ["::mlir::tessel::TesselDialect",
                           "::mlir::func::FuncDialect"];
}

def TesselSplitStages : Pass<"tessel-split-stages", "::mlir::ModuleOp"> {
  let summary = "cut a model's loss into pipeline stages and micro-batches";
  let description = [{
    The first of the three passes of a pipelined training step
    (docs/pipeline.md); `tessel compile` runs it in place of
    tessel-inline-layers' first place when the layout file has a
    `pipeline:` section, then tessel-inline-layers,
    tessel-pipeline-autodiff, the layout and tessel-split-forward-backward.

    - The batch dimension (`batch_dim`, "batch") of every tensor becomes a
      micro-batch: its size divided by `microbatches` (which must divide
      it). So does every dimension that holds the batch under another
      name: the one a `tessel.rename` puts in its position, or a
      `tessel.reshape` keeps as a dimension of its own (a mixture of
      experts' `group`), and on through further renames and reshapes; and
      one that a reshape merges the batch into, outermost, with the
      dimensions inside it (`[batch:8, seq:4]` -> `tokens:32`), which
      becomes the micro-batch times their sizes (16 for 2 micro-batches),
      as the reshape back splits it. A reshape that merges the batch
      further in than the outermost dimension of its group, or splits the
      batch itself, is an error at the reshape.
    - Every op of the loss function gets a stage: a layer call
      (`func.call` with `tessel.scope`) listed in the pipeline's `stages`
      (the first call with that scope) starts its stage, and every other
      op is in the stage of the last call that started one. Without
      `stages`, the calls of the most repeated layer are shared out evenly
      and start the stages. The stages must follow the function's order.
    - A value made in one stage and read in a later one crosses every
      stage between (passed on unchanged). Only float tensors may cross;
      ops that read nothing (parameters, constants, iotas) are made again
      in every stage that reads them, so a weight that two stages read (a
      tied embedding) is one weight held by both.
    - Stage s becomes `@stage{s}_loss(data it reads...,
      stage{s}.input{k}..., stage{s+1}.input{k}.gradient...)`, which
      returns, for the last stage, the loss, and for the others the sum of
      every output times its cotangent, whose gradient is the stage's
      vector-Jacobian product.
    - The module gets `tessel.pipeline = {axis, microbatches, schedule,
      remat, batch_dim, stages}`; the loss function and the module's other
      public functions (an evaluation) are erased.
  }];
  let options = [
    Option<"layoutFile", "layout-file", "std::string", /*default=*/"",
           "the layout file with the `pipeline:` section">,
    Option<"functionName", "function", "std::string", /*default=*/"\"forward\"",
           "the function that returns the scalar loss">,
  ];
  let dependentDialects = ["::mlir::tessel::TesselDialect",
                           "::mlir::func::FuncDialect"];
}

def TesselPipelineAutodiff
    : Pass<"tessel-pipeline-autodiff", "::mlir::ModuleOp"> {
  let summary = "the step, init and optimizer update of every pipeline stage";
  let description = [{
    For every `@stage{s}_loss` of tessel-split-stages (layers inlined):
    `@stage{s}_step`, the gradient function of the stage's loss (one
    micro-batch's forward and backward; the ops of the forward are marked
    `tessel.pipeline_forward` for tessel-split-forward-backward);
    `@stage{s}_init() -> (parameters..., optimizer state...)`, named as
    tessel-autodiff's @init names them; and `@stage{s}_apply(parameters...,
    state..., <parameter>.gradient..., learning_rate) -> (parameters...,
    state..., gradient_norm)`, the optimizer's update from the gradients
    summed over the micro-batches (divided by their number first), and
    their norm, which tessel-sum-gradient-norm-over-stages takes over
    every stage. Each `@stage{s}_evaluate` of tessel-split-stages takes
    its weights as leading arguments, named as the stage holds them (a
    weight the stage does not train leaves every stage's evaluation out,
    with a warning). With `precision=bf16`
    each stage differentiates a copy of its loss that computes in bf16
    from f32 weights, as tessel-autodiff does, and the activations and
    cotangents that cross stages are bf16 (f16 likewise). With
    `clip-norm`, apply clips by that global norm. With dynamic loss
    scaling (`loss-scale`, on by default for f16) the last stage's
    backward starts from the scale, every stage keeps the scale and its
    count as state, and each apply unscales its gradients and updates the
    scale from the global norm, so every stage halves or grows it alike.
    Buffers (running statistics) are not supported in a pipelined step yet
    and are errors.
  }];
  let options = [
    Option<"optimizer", "optimizer", "std::string", /*default=*/"\"sgd\"",
           "sgd, momentum, adam or adamw">,
    Option<"momentum", "momentum", "double", /*default=*/"0.9",
           "momentum of the momentum optimizer">,
    Option<"beta1", "beta1", "double", /*default=*/"0.9",
           "Adam's first-moment decay">,
    Option<"beta2", "beta2", "double", /*default=*/"0.999",
           "Adam's second-moment decay">,
    Option<"epsilon", "epsilon", "double", /*default=*/"1e-8",
           "Adam's denominator term">,
    Option<"weightDecay", "weight-decay", "double", /*default=*/"0.0",
           "L2 term (sgd, momentum, adam) or decoupled decay (adamw)">,
    Option<"clipNorm", "clip-norm", "double", /*default=*/"0.0",
           "clip the gradients to this global L2 norm, over every stage's "
           "(with tessel-sum-gradient-norm-over-stages); 0: off">,
    Option<"precision", "precision", "std::string", /*default=*/"\"f32\"",
           "f32 (the model's own types), or bf16 or f16 (mixed precision: "
           "narrow compute, f32 weights, narrow between stages)">,
    Option<"lossScale", "loss-scale", "std::string", /*default=*/"\"auto\"",
           "dynamic loss scaling: auto (on from 32768 for precision=f16, "
           "off otherwise), off, or the initial scale">,
    Option<"lossScaleGrowthInterval", "loss-scale-growth-interval",
           "int64_t", /*default=*/"2000",
           "finite steps in a row after which the loss scale doubles">,
  ];
  let dependentDialects = ["::mlir::tessel::TesselDialect",
                           "::mlir::func::FuncDialect"];
}

def TesselSumGradientNormOverStages
    : Pass<"tessel-sum-gradient-norm-over-stages", "::mlir::ModuleOp"> {
  let summary = "take a pipelined step's gradient norm over every stage's "
                "gradients";
  let description = [{
    Runs after tessel-partition on a pipelined step (docs/pipeline.md).
    tessel-pipeline-autodiff marks the `tessel.sqrt` of each
    `@stage{s}_apply` that takes the norm of the stage's own gradients
    (`tessel.stage_gradient_norm`); this pass all-reduces its operand, the
    stage's sum of squared gradients, over the pipeline axis, so that
    every stage returns, and clips by (`clip-norm`), the norm of all the
    model's gradients. A weight held by several stages is counted by the
    first of them only. With one stage it only removes the mark.

    Before:

    ```mlir
    %n = tessel.sqrt %squares {tessel.stage_gradient_norm} : !tessel.tensor<[], f32>
    ```

    After:

    ```mlir
    %all = tessel.all_reduce sum %squares over ["stage"] : !tessel.tensor<[], f32>
    %n = tessel.sqrt %all : !tessel.tensor<[], f32>
    ```
  }];
  let dependentDialects = ["::mlir::tessel::TesselDialect",
                           "::mlir::func::FuncDialect"];
}

def TesselSplitForwardBackward
    : Pass<"tessel-split-forward-backward", "::mlir::ModuleOp"> {
  let summary = "cut each pipeline stage's step into its forward and backward";
  let description = [{
    Runs after tessel-apply-layout on the steps of tessel-pipeline-autodiff.
    Each `@stage{s}_step` becomes
    `@stage{s}_forward(parameters..., data..., stage{s}.input{k}...) ->
    (stage{s+1}.input{k}... or loss, stage{s}.residual{i}...)` and
    `@stage{s}_backward(parameters..., data..., stage{s}.input{k}...,
    stage{s+1}.input{k}.gradient..., stage{s}.residual{i}...) ->
    (<parameter>.gradient..., stage{s}.input{k}.gradient...)`. The residuals
    are the forward's values that the backward reads, with the layout they
    had in the step; with the pipeline's `remat`, there are none and the
    backward computes the forward again. Every tensor that leaves one of
    these functions for another (an activation for the next stage, a
    cotangent for the one before, a gradient for `@stage{s}_apply`) is
    given the layout the receiving function takes it with; a value that
    would have to be passed on in another layout is an error.
  }];
  let dependentDialects = ["::mlir::tessel::TesselDialect",
                           "::mlir::func::FuncDialect"];
}

def TesselReduceGradientsOncePerStep
    : Pass<"tessel-reduce-gradients-once-per-step", "::mlir::ModuleOp"> {
  let summary = "all-reduce a pipeline stage's gradients once a step, in its "
                "apply";
  let description = [{
    Runs after tessel-partition on the stage functions of a pipelined step
    (docs/pipeline.md) and before tessel-bucket-all-reduces. A parameter's
    gradient that `@stage{s}_backward` all-reduces over a data axis is
    all-reduced once per micro-batch; the driver sums the backward's
    `<parameter>.gradient` results over the micro-batches and calls
    `@stage{s}_apply` with the sums once a step, and the sum of the
    all_reduces is the all_reduce of the sum. For every such result made by
    a `tessel.all_reduce sum` used by nothing else, the backward returns the
    all_reduce's input instead, and apply all-reduces its argument of that
    name, over the same axes, before anything reads it: one all_reduce a
    step instead of m. Gradients made otherwise (a ZeRO override's
    reduce_scatter) or used elsewhere in the backward are left as they are.

    Before:

    ```mlir
    func.func @stage0_backward(...) -> (!tessel.tensor<[d:4], f32> {tessel.name = "w.gradient"}) {
      %g = tessel.all_reduce sum %partial over ["data"] : !tessel.tensor<[d:4], f32>
      return %g : !tessel.tensor<[d:4], f32>
    }
    func.func @stage0_apply(%w: ..., %sum: !tessel.tensor<[d:4], f32> {tessel.name = "w.gradient"}, ...) -> ... {
      ... uses of %sum ...
    }
    ```

    After:

    ```mlir
    func.func @stage0_backward(...) -> (!tessel.tensor<[d:4], f32> {tessel.name = "w.gradient"}) {
      return %partial : !tessel.tensor<[d:4], f32>
    }
    func.func @stage0_apply(%w: ..., %sum: !tessel.tensor<[d:4], f32> {tessel.name = "w.gradient"}, ...) -> ... {
      %reduced = tessel.all_reduce sum %sum over ["data"] : !tessel.tensor<[d:4], f32>
      ... uses of %reduced ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::tessel::TesselDialect",
                           "::mlir::func::FuncDialect"];
}

def TesselLiftParameters : Pass<"tessel-lift-parameters", "::mlir::ModuleOp"> {
  let summary = "make every function take its parameters as arguments "
                "(forward-only programs)";
  let description = [{
    The forward-only counterpart of tessel-autodiff (`tessel compile --mode
    infer`): every function of the module with a body takes each
    `tessel.parameter` it declares as a leading argument named after it
    (`tessel.name`), with `tessel.role` "parameter", or "buffer" for a
    buffer (batch norm's running statistics), in the order of the ops;
    `tessel.update_buffer` ops go (a buffer changes only in training) with
    what only they used. No function is added: no `@init`, no
    `@train_step`, no optimizer state, no gradient. The driver fills these
    arguments from a checkpoint, by name, and runs any function on data
    (runtime/driver/Inference.cpp).

    A parameter is its name, as in tessel-autodiff: the ops of one function
    with the same name are one argument (they must agree, see
    tessel-inline-layers), and a name declared by several functions must
    have the same type in each, since one checkpoint tensor feeds them all.
    A `func.call` left in the module (run tessel-inline-layers first) and a
    function already named `train_step` are errors.

    Before:

    ```mlir
    func.func @predict(%x: !tessel.tensor<[batch:4, k:3], f32>)
        -> (!tessel.tensor<[batch:4], f32> {tessel.name = "scores"}) {
      %w = tessel.parameter "w" normal scale 0.1 seed 1
          : !tessel.tensor<[k:3], f32>
      %y = tessel.einsum %x, %w : (...) -> !tessel.tensor<[batch:4], f32>
      return %y : !tessel.tensor<[batch:4], f32>
    }
    ```

    After:

    ```mlir
    func.func @predict(
        %w: !tessel.tensor<[k:3], f32> {tessel.name = "w", tessel.role = "parameter"},
        %x: !tessel.tensor<[batch:4, k:3], f32>)
        -> (!tessel.tensor<[batch:4], f32> {tessel.name = "scores"}) {
      %y = tessel.einsum %x, %w : (...) -> !tessel.tensor<[batch:4], f32>
      return %y : !tessel.tensor<[batch:4], f32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::tessel::TesselDialect",
                           "::mlir::func::FuncDialect"];
}

def TesselResizeDims : Pass<"tessel-resize-dims", "::mlir::ModuleOp"> {
  let summary = "give named dimensions new sizes throughout the model";
  let description = [{
    A model is written at one size, but the batch a run wants, or the width
    a benchmark scales to, is a property of the run: this pass gives every
    dimension named in `sizes` (`batch=256,hidden=1024`) its new size in
    every tensor type of every function: arguments, results and op results.
    Attributes are left alone, so an op that states a size itself (a
    `slice` of that dimension, a dense `constant` with one value per
    element) no longer verifies, and the pass stops with that op's error:
    such a model does not allow the resize. A name that no tensor has is an
    error too, since it is most likely a typo.

    `batch-size` is the number of examples per step: it resizes `batch-dim`
    and every dimension that holds the batch's elements under another name,
    found as tessel-split-stages finds the dimensions its micro-batches cut
    (a `rename` of the batch, or a `reshape` that keeps it a dimension of
    its own: a mixture of experts' `group`). A dimension that a reshape
    merges the batch into, outermost, with the dimensions inside it
    (`[batch:8, seq:4]` -> `tokens:32`) takes `batch-size` times their sizes
    (`tokens` is 4 x `batch-size`). A reshape that merges the batch
    further in (`[seq, batch]` -> `tokens`, which interleaves the examples)
    or splits the batch itself is an error at the reshape; such a model
    gives each size by name in `sizes`. A size in `sizes` for one of these
    dimensions must be the one `batch-size` gives it.

    Before, with `--tessel-resize-dims="sizes=batch=8"`:

    ```mlir
    func.func @f(%x: !tessel.tensor<[batch:4, k:3], f32>)
        -> !tessel.tensor<[batch:4], f32>
    ```

    After:

    ```mlir
    func.func @f(%x: !tessel.tensor<[batch:8, k:3], f32>)
        -> !tessel.tensor<[batch:8], f32>
    ```
  }];
  let options = [
    ListOption<"sizes", "sizes", "std::string",
               "NAME=SIZE for each dimension to resize">,
    Option<"batchSize", "batch-size", "int64_t", /*default=*/"0",
           "the new size of batch-dim; every dimension that holds its "
           "elements under another name takes it times its factor (0: none)">,
    Option<"batchDim", "batch-dim", "std::string", /*default=*/"\"batch\"",
           "the dimension batch-size resizes">,
  ];
}

def TesselDecomposeEinsum
    : Pass<"tessel-decompose-einsum", "::mlir::ModuleOp"> {
  let summary = "split einsums of three or more inputs into pairwise ones, "
                "in the cheapest order";
  let description = [{
    An einsum of n >= 3 inputs becomes a tree of n - 1 einsums of two
    inputs each, which the runtimes run as matmuls (oneDNN, cuBLAS)
    instead of with the reference kernel's loops (a low-rank layer's
    training step: 0.67 ms split, 8.3 s whole).
    The einsum's meaning (multiply the inputs, broadcast by name, sum every
    dimension the result lacks) does not depend on the order in which the
    inputs are combined, but the cost does: the pass chooses the tree whose
    pairwise steps cost the fewest FLOPs in all, a step costing the product
    of the sizes of every dimension of its two operands.

    - Up to `optimal-max-operands` inputs (8), every contraction tree is
      considered (dynamic programming over subsets of the inputs, like
      opt_einsum's "optimal"); beyond, the cheapest pair is combined first,
      again and again (greedy). Ties go to the first candidate in a fixed
      order, so the result is deterministic.
    - The intermediate of a set of inputs keeps exactly the dimensions that
      the result or an input not yet combined has, in order of first
      appearance among the einsum's inputs; every other dimension of the
      set is summed in that step. A dimension that two inputs A and C share
      but the result lacks stays in the product of A and B until C is
      combined.
    - A dimension that one input alone has and the result lacks is summed
      by a `tessel.reduce sum` of that input before any product.
    - The last step has the einsum's result type, and the einsum's
      attributes (its `tessel.name`); every new op has its location.
    - Einsums of one or two inputs are left alone, and so are einsums whose
      types carry a layout: run the pass before `tessel-apply-layout`.

    `tessel compile` runs it after tessel-inline-layers and
    tessel-resize-dims (the sizes choose the order) and before
    tessel-autodiff, so gradients, layouts, partitioning and `tessel
    explain` all see pairwise contractions; `tessel compile
    --no-decompose-einsum` leaves n-ary einsums to the runtime.

    Before (the inputs in an order where left to right costs 17x more):

    ```mlir
    %y = tessel.einsum %c, %b, %a {tessel.name = "y"}
        : (!tessel.tensor<[k:100, l:50], f32>,
           !tessel.tensor<[j:100, k:100], f32>,
           !tessel.tensor<[i:2, j:100], f32>)
        -> !tessel.tensor<[i:2, l:50], f32>
    ```

    After (B·A first: 20000 + 10000 FLOPs instead of 500000 + 10000):

    ```mlir
    %ba = tessel.einsum %b, %a
        : (!tessel.tensor<[j:100, k:100], f32>,
           !tessel.tensor<[i:2, j:100], f32>)
        -> !tessel.tensor<[k:100, i:2], f32>
    %y = tessel.einsum %c, %ba {tessel.name = "y"}
        : (!tessel.tensor<[k:100, l:50], f32>,
           !tessel.tensor<[k:100, i:2], f32>)
        -> !tessel.tensor<[i:2, l:50], f32>
    ```
  }];
  let options = [
    Option<"optimalMaxOperands", "optimal-max-operands", "unsigned",
           /*default=*/"8",
           "search every contraction tree up to this many inputs (at most "
           "16), combine the cheapest pair first beyond">,
  ];
  let statistics = [
    Statistic<"einsumsDecomposed", "einsums-decomposed",
              "einsums of three or more inputs decomposed">,
    Statistic<"pairwiseEinsums", "pairwise-einsums",
              "einsums of two inputs made">,
    Statistic<"reductionsAdded", "reductions-added",
              "inputs summed over a dimension only they have">,
  ];
  let dependentDialects = ["::mlir::tessel::TesselDialect"];
}

def TesselApplyLayout : Pass<"tessel-apply-layout", "::mlir::ModuleOp"> {
  let summary = "give every tensor its layout on the device mesh";
  let description = [{
    Reads a layout (a YAML file, or Mesh-TensorFlow's mesh and rules strings),
    records its mesh as the module's `tessel.mesh` attribute, and gives every
    function argument and op result the layout the rules and overrides
    decide for it: a dimension named by a rule is split over the rule's mesh
    axes, unless an override for the value's name (`tessel.name`, or a
    parameter's name) says otherwise.

    Every split is checked: an axis used twice in one tensor, a split that
    does not divide its dimension (unless the layout says `pad_uneven:
    true`, or `pad-uneven` is set: then every block has ceil(size / blocks)
    elements and the last ones are padded), an override naming a tensor or
    dimension that does not exist are errors at the value's location, with a
    note at the rule in the layout file. A rule that matches no tensor is a
    warning.

    Before, with `--tessel-apply-layout="mesh=data:2 rules=batch:data"`:

    ```mlir
    func.func @f(%x: !tessel.tensor<[batch:8, hidden:4], f32>) ...
    ```

    After:

    ```mlir
    module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
      func.func @f(%x: !tessel.tensor<[batch:8, hidden:4], f32,
                                      #tessel.layout<{batch = [data]}>>) ...
    ```
  }];
  let options = [
    Option<"layoutFile", "layout-file", "std::string", /*default=*/"",
           "a YAML layout file">,
    Option<"meshSpec", "mesh", "std::string", /*default=*/"",
           "the mesh in string syntax, e.g. \"data:2;model:4\"">,
    Option<"rulesSpec", "rules", "std::string", /*default=*/"",
           "the rules in string syntax, e.g. \"batch:data;hidden:model\"">,
    Option<"padUneven", "pad-uneven", "bool", /*default=*/"false",
           "pad splits that do not divide their dimension (as the layout "
           "file's `pad_uneven: true`)">,
  ];
  let dependentDialects = ["::mlir::tessel::TesselDialect"];
}

def TesselPartition : Pass<"tessel-partition", "::mlir::ModuleOp"> {
  let summary = "turn a program over laid-out global tensors into the program every rank runs";
  let description = [{
    Rewrites every function of a module whose values carry layouts (after
    tessel-apply-layout) into the SPMD program one rank runs: every value
    becomes the rank's local block, and mesh-level ops move data where an op
    needs it.

    - einsum runs locally on blocks; a contracted dimension that is split
      leaves a partial sum, reduced with all_reduce over its axes.
    - element-wise ops (unary, binary, compare, select, cast) run locally
      once their operands have the result's layout.
    - reduce over a split dimension reduces locally, then all_reduce
      (`mean` as a sum scaled by the global count).
    - every other op (softmax, cross-entropy, layer norm, convolution,
      pooling, lookups, shape ops) gathers the dimensions it works across,
      runs on its local operands, and slices its result to its layout.
    - resharding between two layouts gathers the dimensions whose split
      changes (all_gather) and then slices them to the new split
      (shard_slice), dimension by dimension.

    Each function argument and result keeps its global type in a
    `tessel.global_type` attribute, so that tools can hand every rank its
    block of the inputs and reassemble the outputs.

    Before:

    ```mlir
    %h = tessel.einsum %x, %w
        : (!tessel.tensor<[batch:8, k:4], f32, #tessel.layout<{k = [model]}>>,
           !tessel.tensor<[k:4, n:2], f32, #tessel.layout<{k = [model]}>>)
        -> !tessel.tensor<[batch:8, n:2], f32>
    ```

    After, on `model:2`:

    ```mlir
    %p = tessel.einsum %x, %w : (!tessel.tensor<[batch:8, k:2], f32>,
                                 !tessel.tensor<[k:2, n:2], f32>)
        -> !tessel.tensor<[batch:8, n:2], f32>
    %h = tessel.all_reduce sum %p over ["model"] : !tessel.tensor<[batch:8, n:2], f32>
    ```
  }];
  let dependentDialects = ["::mlir::tessel::TesselDialect"];
}

def TesselOptimizeComm : Pass<"tessel-optimize-comm", "::mlir::ModuleOp"> {
  let summary = "replace communication patterns by cheaper collectives";
  let description = [{
    Rewrites patterns of mesh-level ops in a partitioned program:

    - `all_reduce` whose uses all keep the same block of it (`shard_slice`
      over the same axes) becomes one `reduce_scatter`, which sends half as
      much;
    - `all_gather` along a dimension whose result is sliced back along the
      same dimension over the same axes is the rank's own block: both go;
    - `all_gather` along one dimension sliced along another over the same
      axes moves the split from one dimension to the other: one
      `all_to_all`, which sends a 1/g share instead of the whole gather;
    - `add` or `sub` of two `all_reduce sum` over the same axes becomes one
      `all_reduce` of the sum of the partial sums;
    - a `shard_slice` of an element-wise op's result (every use of which
      keeps that block) becomes the op on the slices of its operands (not
      for padded blocks), so that the slice meets the collective above it;
    - a `reduce sum` over d of one `all_reduce sum`, or of element-wise ops
      of it (and constants), whose other uses keep its block along d,
      becomes an `all_reduce sum` of the sum of that block (gradient
      clipping's norm under ZeRO), so that every use of the all_reduce
      keeps the block.

    Before:

    ```mlir
    %s = tessel.all_reduce sum %p over ["model"] : !tessel.tensor<[b:4, n:8], f32>
    %k = tessel.shard_slice %s along "n" over ["model"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:2], f32>
    ```

    After:

    ```mlir
    %k = tessel.reduce_scatter sum %p along "n" over ["model"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:2], f32>
    ```
  }];
  let dependentDialects = ["::mlir::tessel::TesselDialect"];
}

def TesselBucketAllReduces
    : Pass<"tessel-bucket-all-reduces", "::mlir::func::FuncOp"> {
  let summary = "merge small all_reduces (reduce_scatters, all_gathers) over one group into one buffer";
  let description = [{
    Merges `all_reduce`s of the same kind, group and element type that can
    run at one point of the program (every input computed before the first
    of their results is used) into one: each input is flattened, the
    inputs are concatenated into one buffer, the buffer is all-reduced
    once, and each result is cut back out of it. A training step's gradient
    all_reduces, one per parameter, become a few calls, each paying the
    collective's fixed cost once. Only tensors of at most `max-bytes` (the
    whole tensor: a reduce_scatter's input, an all_gather's result) take
    part and no bucket grows past it, since the copies in and out of the
    buffer cost more than the saved call for large tensors.

    `reduce_scatter`s and `all_gather`s (ZeRO's gradients and parameters)
    are merged the same way, along any dimension: each tensor, transposed
    so that its split dimension comes first, is g blocks one after the
    other, reshaped to `[bucket_rank:g, bucket:n/g]` (an all_gather's input
    block to `[bucket_rank:1, bucket:n]`) and concatenated along `bucket`;
    one reduce_scatter (all_gather) along `bucket_rank` leaves each member
    its row (gives every row), and each result is its columns, reshaped and
    transposed back.

    Before:

    ```mlir
    %ga = tessel.all_reduce sum %a over ["data"] : !tessel.tensor<[i:4, o:2], f32>
    %gb = tessel.all_reduce sum %b over ["data"] : !tessel.tensor<[o:2], f32>
    ```

    After:

    ```mlir
    %fa = tessel.reshape %a : !tessel.tensor<[i:4, o:2], f32> -> !tessel.tensor<[bucket:8], f32>
    %fb = tessel.reshape %b : !tessel.tensor<[o:2], f32> -> !tessel.tensor<[bucket:2], f32>
    %buffer = tessel.concat %fa, %fb over "bucket" : (...) -> !tessel.tensor<[bucket:10], f32>
    %sum = tessel.all_reduce sum %buffer over ["data"] : !tessel.tensor<[bucket:10], f32>
    %sa = tessel.slice %sum {dims = ["bucket"], starts = array<i64: 0>} : ... -> !tessel.tensor<[bucket:8], f32>
    %ga = tessel.reshape %sa : !tessel.tensor<[bucket:8], f32> -> !tessel.tensor<[i:4, o:2], f32>
    ...
    ```
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"262144",
           "the largest tensor and bucket, in bytes (0: merge nothing)">,
  ];
  let dependentDialects = ["::mlir::tessel::TesselDialect"];
}

def TesselFuseElementwise
    : Pass<"tessel-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "compute chains of element-wise ops as one op";
  let description = [{
    Groups chains of element-wise ops on f32, bf16 and f16 tensors into
    `tessel.fused` ops, which the runtime computes (in f32 registers, each
    bf16 or f16 value rounded to its type) in one pass over the data: one call
    instead of one per op, and no intermediate tensor written to memory or
    read back. An optimizer's update (AdamW is sixteen ops per parameter),
    GELU and its gradient, and the element-wise parts of a layer norm's
    gradient each become one op.

    A group grows backwards from an op with a float result over the ops that
    compute its operands. A producer joins when it is an element-wise op
    (unary, binary, `compare` of floats, `select`, `cast` between f32, bf16
    and f16), it has the same
    dimensions as the group's result (a smaller one, broadcast into it,
    would be computed again for every element it is broadcast to), and all
    its uses are in the group. Splat constants are copied into each body
    that uses them. Groups of one op are left alone, but for an op on bf16
    or f16 values, which only the fused kernel computes fast for every op.

    It runs on a rank's program, after tessel-partition; `tessel compile`
    runs it last before lowering to runtime calls, for the CPU runtime.

    Before:

    ```mlir
    %x = tessel.mul %m, %b1 : !tessel.tensor<[i:64], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[i:64], f32>
    %y = tessel.mul %g, %c1 : !tessel.tensor<[i:64], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[i:64], f32>
    %m2 = tessel.add %x, %y : !tessel.tensor<[i:64], f32>, !tessel.tensor<[i:64], f32> -> !tessel.tensor<[i:64], f32>
    ```

    After:

    ```mlir
    %m2 = tessel.fused %m, %b1, %g, %c1 : (...) -> !tessel.tensor<[i:64], f32> {
    ^bb0(%a: ..., %s: ..., %b: ..., %t: ...):
      %x = tessel.mul %a, %s : ...
      %y = tessel.mul %b, %t : ...
      %z = tessel.add %x, %y : ...
      tessel.yield %z : !tessel.tensor<[i:64], f32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::tessel::TesselDialect"];
}

def TesselMergeFusedOutputs
    : Pass<"tessel-merge-fused-outputs", "::mlir::func::FuncOp"> {
  let summary = "compute a fused op and the fused op after it that reads it "
                "as one op of several results";
  let description = [{
    tessel-fuse-elementwise leaves a value that is used outside its chain,
    or returned, as the result of a fused op of its own: an optimizer's
    new moments, which its parameter's update reads and the step returns,
    are each a pass over the gradient and the old moment, and the update a
    third pass that reads them back. This pass merges such a fused op into
    the fused op right after it that reads one of its results: the merged
    op computes both bodies in one pass and writes every result, so that
    AdamW's step reads the gradient, the moments and the parameter once and
    writes each new value once (28 bytes an element, not 40) in one call
    instead of three.

    An element-wise op that tessel-fuse-elementwise left alone (its value
    is used outside any chain, such as a bias added before GELU, which
    GELU's gradient reads again), with a float result of more than one
    element, takes part as a fused op of its own.

    A producer merges when it is the op right before its consumer (but for
    ops that make only constants and scalars, such as an optimizer's bias
    corrections, and do not read it), so that no value lives longer than
    it did but across those, no other user of its results comes before the
    consumer, neither ends in a sum, and its results have the consumer's first result's dimensions
    and sizes, in its order (their element types may differ). The merged op
    stands where the consumer stood; its results are the consumer's, then
    the producer's. Merging repeats, so a chain of such ops becomes one.

    It runs after tessel-fuse-elementwise; `tessel compile` runs it for the
    CPU runtime with `--merge-fused-outputs` only (off by default: the
    merged passes ran slower steps on one core a rank, docs/codegen.md;
    the GPU runtime's fused kernel writes one result).

    Before:

    ```mlir
    %m2 = tessel.fused %m, %g : (!T, !T) -> !T { ... }
    %p2 = tessel.fused %p, %m2, %lr : (!T, !T, !S) -> !T { ... }
    ```

    After:

    ```mlir
    %p2, %m2 = tessel.fused %p, %m, %g, %lr : (!T, !T, !T, !S) -> (!T, !T) {
      ... (the first body, then the second's, reading the first's value)
      tessel.yield %p2v, %m2v : !T, !T
    }
    ```
  }];
  let dependentDialects = ["::mlir::tessel::TesselDialect"];
}

#endif // TESSEL_PASSES_TD
