//===- TesselModelOps.td - model-level ops -----------------*- tablegen -*-===//
//
// Ops a model is written in. They compute over global tensors with named
// dimensions; dimensions always match by name, never by position.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_MODEL_OPS_TD
#define TESSEL_MODEL_OPS_TD

include "dialect/TesselDialect.td"
include "dialect/TesselEnums.td"
include "dialect/TesselInterfaces.td"
include "dialect/TesselTypes.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// How tessel-partition handles each op (see TesselInterfaces.td): the rule
// is defined in C++ beside the op's verifier; ops without one of these
// traits use the interface's default, gathering their operands whole.
def Tessel_PartitionRuleTrait : DeclareOpInterfaceMethods<
    Tessel_PartitionableOpInterface, ["getPartitionRule"]>;
def Tessel_AcrossRuleTrait : DeclareOpInterfaceMethods<
    Tessel_PartitionableOpInterface,
    ["getPartitionRule", "getDimsWorkedAcross"]>;

// How tessel-autodiff differentiates each op (see TesselInterfaces.td): the
// gradient builders are in Gradients.cpp. Sources, comparisons and one-hot
// encodings have none: no gradient flows through integers.
def Tessel_GradientTrait : DeclareOpInterfaceMethods<
    Tessel_DifferentiableOpInterface, ["buildGradients"]>;

//===----------------------------------------------------------------------===//
// Sources: parameters, constants, iota
//===----------------------------------------------------------------------===//

def Tessel_ParameterOp : Tessel_Op<"parameter", [Pure, Tessel_PartitionRuleTrait]> {
  let summary = "a trainable parameter with its initializer";
  let description = [{
    Declares a parameter tensor and how it is initialised. Every element is a
    pure function of `seed` and its global row-major index, so every layout,
    whichever shard a rank holds, starts from identical weights. `uniform`
    draws from [-scale, scale), `normal` has standard deviation `scale`;
    `zeros` and `ones` ignore both.

    In a partitioned program, `block of` gives the parameter's global type
    with its layout, and the result is the rank's block of it on the
    enclosing module's mesh: each rank initialises only its own elements,
    with the values they have in the whole parameter. Where an uneven split
    (`pad_uneven`) makes the last blocks reach past the end of a dimension,
    the positions past the end hold zeros.

    Example:

    ```mlir
    %w = tessel.parameter "w1" normal scale 0.02 seed 1
        : !tessel.tensor<[pixels:784, hidden:256], f32>
    // The block of one rank of 4 when `hidden` is split over `model`:
    %b = tessel.parameter "w1" normal scale 0.02 seed 1
        block of !tessel.tensor<[pixels:784, hidden:256], f32,
                                #tessel.layout<{hidden = [model]}>>
        : !tessel.tensor<[pixels:784, hidden:64], f32>
    ```

    With `buffer`, the tensor is non-trainable state (batch norm's running
    statistics): tessel-autodiff makes it an argument and a result of the
    training step with `tessel.role = "buffer"`, gives it no gradient and
    no optimizer state, returns the value a `tessel.update_buffer` of it
    gives (or the buffer unchanged), and passes it to other functions
    (`@evaluate`) like the parameters. Checkpoints save it by name.

    ```mlir
    %rm = tessel.parameter "bn1.running_mean" zeros scale 1.0 seed 0 buffer
        : !tessel.tensor<[c:16], f32>
    ```

    Constraints checked by the verifier: the name is not empty, `scale` is
    not negative, and the element type is a float type. With `block of`:
    the global type has a layout, the same dimensions (in the same order)
    and element type as the result, the enclosing module has a mesh on
    which the layout is legal, and the result's shape is the block shape
    the layout gives on that mesh.
  }];
  let arguments = (ins StrAttr:$name, Tessel_InitKind:$init,
                   DefaultValuedAttr<F64Attr, "1.0">:$scale,
                   DefaultValuedAttr<I64Attr, "0">:$seed,
                   OptionalAttr<TypeAttrOf<Tessel_Tensor>>:$global_type,
                   UnitAttr:$buffer);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $name $init `scale` $scale `seed` $seed (`buffer` $buffer^)?
    (`block` `of` $global_type^)? attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tessel_UpdateBufferOp : Tessel_Op<"update_buffer",
    [Tessel_PartitionRuleTrait, MemoryEffects<[MemWrite]>,
     AllTypesMatch<["buffer", "value", "result"]>]> {
  let summary = "the next value of a non-trainable buffer";
  let description = [{
    Yields `value`, and records it as the value that the buffer (a
    `tessel.parameter ... buffer`, batch norm's running mean, say) takes
    after a training step. tessel-autodiff returns it from `@train_step` as
    the buffer's new value and erases the op; in any other function (the
    loss function itself, `@evaluate`) the op only yields `value`, and the
    buffer keeps its value. No gradient flows through it: the loss never
    depends on the result. It is marked as writing memory so that dead-code
    elimination keeps it although nothing uses its result.

    tessel-partition treats it as element-wise: `value` is laid out as the
    result, which has the buffer's dimensions.

    Example (the running mean of a batch norm, momentum 0.1):

    ```mlir
    %next = tessel.update_buffer %running_mean, %new_mean
        : !tessel.tensor<[c:16], f32>
    ```

    Constraints checked by the verifier: `buffer`, `value` and the result
    have one type (element types included); the buffer is, through casts,
    a `tessel.parameter` marked `buffer` or a function argument.
  }];
  let arguments = (ins Tessel_Tensor:$buffer, Tessel_Tensor:$value);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $buffer `,` $value attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tessel_ConstantOp : Tessel_Op<"constant", [Pure, Tessel_PartitionRuleTrait, ConstantLike]> {
  let summary = "a constant tensor";
  let description = [{
    A tensor whose value is a splat (a float or integer attribute) or a dense
    elements attribute holding every element in row-major order.

    Example:

    ```mlir
    %half = tessel.constant 5.000000e-01 : f32 -> !tessel.tensor<[], f32>
    %v = tessel.constant dense<[1.0, 2.0]> : tensor<2xf32>
        -> !tessel.tensor<[k:2], f32>
    ```

    Constraints checked by the verifier: a splat is a float or integer
    attribute; dense elements have as many elements as the result.
  }];
  let arguments = (ins AnyAttr:$value);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = "$value attr-dict `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tessel_IotaOp : Tessel_Op<"iota", [Pure, Tessel_PartitionableOpInterface]> {
  let summary = "each element's index along one dimension";
  let description = [{
    Fills the result with the index of each element along `dim`. Comparing
    two iotas builds masks, such as the causal mask of attention.

    Example:

    ```mlir
    %q = tessel.iota "seq" : !tessel.tensor<[seq:8, key:8], i32>
    ```

    Constraints checked by the verifier: `dim` is a dimension of the result.
  }];
  let arguments = (ins StrAttr:$dim);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = "$dim attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Contraction
//===----------------------------------------------------------------------===//

def Tessel_EinsumOp : Tessel_Op<"einsum", [Pure, Tessel_PartitionRuleTrait, Tessel_GradientTrait]> {
  let summary = "a contraction named by its result's dimensions";
  let description = [{
    Multiplies its inputs element by element, matching dimensions by name,
    and sums over every dimension that appears in an input but not in the
    result. This is Mesh-TensorFlow's einsum: the result type says what is
    contracted, so there is no equation string to keep in sync.

    Example (a matrix product that contracts `pixels`):

    ```mlir
    %h = tessel.einsum %x, %w
        : (!tessel.tensor<[batch:64, pixels:784], f32>,
           !tessel.tensor<[pixels:784, hidden:256], f32>)
        -> !tessel.tensor<[batch:64, hidden:256], f32>
    ```

    Constraints checked by the verifier: at least one input; a dimension that
    appears in several inputs has one size; every result dimension appears in
    an input with the same size; all element types are the same.
  }];
  let arguments = (ins Variadic<Tessel_Tensor>:$inputs);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type($inputs, $result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Element-wise ops
//===----------------------------------------------------------------------===//

class Tessel_UnaryOp<string mnemonic, string formula, bit floatOnly = 1>
    : Tessel_Op<mnemonic, [Pure, Tessel_PartitionRuleTrait, Tessel_GradientTrait]> {
  let summary = "element-wise " # mnemonic;
  let description = "Computes `" # formula # [{` for every element.

    Example:

    ```mlir
    %y = tessel.}] # mnemonic # [{ %x : !tessel.tensor<[batch:4, hidden:8], f32>
    ```

    Constraints checked by the verifier: operand and result have the same
    dimensions and element type (their layouts may differ)}]
    # !if(floatOnly, "; the element type is a float type.", ".");
  let arguments = (ins Tessel_Tensor:$input);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` custom<SameShapeTypes>(type($input), type($result))
  }];
  let hasVerifier = 1;
}

def Tessel_NegOp : Tessel_UnaryOp<"neg", "-x", 0>;
def Tessel_AbsOp : Tessel_UnaryOp<"abs", "|x|", 0>;
def Tessel_ExpOp : Tessel_UnaryOp<"exp", "e^x">;
def Tessel_LogOp : Tessel_UnaryOp<"log", "ln(x)">;
def Tessel_SqrtOp : Tessel_UnaryOp<"sqrt", "sqrt(x)">;
def Tessel_RsqrtOp : Tessel_UnaryOp<"rsqrt", "1 / sqrt(x)">;
def Tessel_TanhOp : Tessel_UnaryOp<"tanh", "tanh(x)">;
def Tessel_SigmoidOp : Tessel_UnaryOp<"sigmoid", "1 / (1 + e^-x)">;
def Tessel_ReluOp : Tessel_UnaryOp<"relu", "max(x, 0)", 0>;
def Tessel_GeluOp : Tessel_UnaryOp<"gelu", "x * (1 + erf(x / sqrt(2))) / 2">;
def Tessel_ErfOp : Tessel_UnaryOp<"erf", "erf(x)">;
def Tessel_SinOp : Tessel_UnaryOp<"sin", "sin(x)">;
def Tessel_CosOp : Tessel_UnaryOp<"cos", "cos(x)">;

class Tessel_BinaryOp<string mnemonic, string formula>
    : Tessel_Op<mnemonic, [Pure, Tessel_PartitionRuleTrait, Tessel_GradientTrait]> {
  let summary = "element-wise " # mnemonic # " with broadcasting by name";
  let description = "Computes `" # formula # [{` for every element of the
    result. Broadcasting is by dimension name: each result element reads the
    operand element that has the same index on every dimension the operand
    has, and a dimension an operand lacks is broadcast.

    Example (adding a bias over `hidden` to every row of a batch):

    ```mlir
    %y = tessel.}] # mnemonic # [{ %x, %b
        : !tessel.tensor<[batch:4, hidden:8], f32>,
          !tessel.tensor<[hidden:8], f32>
        -> !tessel.tensor<[batch:4, hidden:8], f32>
    ```

    Constraints checked by the verifier: every operand dimension is a result
    dimension of the same size; every result dimension comes from an operand;
    all element types are the same.}];
  let arguments = (ins Tessel_Tensor:$lhs, Tessel_Tensor:$rhs);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tessel_AddOp : Tessel_BinaryOp<"add", "lhs + rhs">;
def Tessel_SubOp : Tessel_BinaryOp<"sub", "lhs - rhs">;
def Tessel_MulOp : Tessel_BinaryOp<"mul", "lhs * rhs">;
def Tessel_DivOp : Tessel_BinaryOp<"div", "lhs / rhs">;
def Tessel_MaxOp : Tessel_BinaryOp<"max", "max(lhs, rhs)">;
def Tessel_MinOp : Tessel_BinaryOp<"min", "min(lhs, rhs)">;
def Tessel_PowOp : Tessel_BinaryOp<"pow", "lhs ^ rhs">;

def Tessel_CompareOp : Tessel_Op<"compare", [Pure, Tessel_PartitionRuleTrait]> {
  let summary = "element-wise comparison with broadcasting by name";
  let description = [{
    Compares its operands element by element, broadcasting by name as the
    binary ops do, and yields an i1 tensor.

    Example (the causal mask of attention):

    ```mlir
    %mask = tessel.compare ge, %q, %k
        : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
        -> !tessel.tensor<[seq:8, key:8], i1>
    ```

    Constraints checked by the verifier: broadcasting as for the binary ops;
    both operands have one element type; the result's element type is i1.
  }];
  let arguments = (ins Tessel_CompareKind:$kind, Tessel_Tensor:$lhs,
                   Tessel_Tensor:$rhs);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $kind `,` $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tessel_SelectOp : Tessel_Op<"select", [Pure, Tessel_PartitionRuleTrait, Tessel_GradientTrait]> {
  let summary = "choose between two tensors element by element";
  let description = [{
    Yields `on_true` where `condition` is non-zero and `on_false` elsewhere,
    broadcasting all three operands by name.

    Example:

    ```mlir
    %y = tessel.select %mask, %scores, %neg_inf
        : !tessel.tensor<[seq:8, key:8], i1>,
          !tessel.tensor<[heads:2, seq:8, key:8], f32>,
          !tessel.tensor<[], f32>
        -> !tessel.tensor<[heads:2, seq:8, key:8], f32>
    ```

    Constraints checked by the verifier: broadcasting as for the binary ops;
    `on_true`, `on_false` and the result have one element type.
  }];
  let arguments = (ins Tessel_Tensor:$condition, Tessel_Tensor:$on_true,
                   Tessel_Tensor:$on_false);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $on_true `,` $on_false attr-dict `:` qualified(type($condition)) `,`
    qualified(type($on_true)) `,` qualified(type($on_false)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tessel_CastOp : Tessel_Op<"cast", [Pure, Tessel_PartitionRuleTrait, Tessel_GradientTrait]> {
  let summary = "convert the element type";
  let description = [{
    Converts every element to the result's element type, rounding to nearest
    even for floats and truncating toward zero for integers.

    Example:

    ```mlir
    %h = tessel.cast %x : !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[batch:4], bf16>
    ```

    Constraints checked by the verifier: operand and result have the same
    dimensions.
  }];
  let arguments = (ins Tessel_Tensor:$input);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tessel_BroadcastOp : Tessel_Op<"broadcast",
    [Pure, Tessel_PartitionRuleTrait, Tessel_GradientTrait]> {
  let summary = "repeat a tensor along new named dimensions";
  let description = [{
    Copies the input to every index of the result's dimensions that the
    input lacks: each result element reads the input element with the same
    index on the input's dimensions. It is the gradient of a sum over those
    dimensions, and how a value is spread over dimensions it lacks.

    Example:

    ```mlir
    %b = tessel.broadcast %x : !tessel.tensor<[hidden:8], f32>
                            -> !tessel.tensor<[batch:4, hidden:8], f32>
    ```

    Constraints checked by the verifier: every input dimension is a result
    dimension of the same size; one element type.
  }];
  let arguments = (ins Tessel_Tensor:$input);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and normalisations
//===----------------------------------------------------------------------===//

def Tessel_ReduceOp : Tessel_Op<"reduce", [Pure, Tessel_PartitionRuleTrait, Tessel_GradientTrait]> {
  let summary = "reduce over the dimensions the result drops";
  let description = [{
    Combines elements over every input dimension that the result does not
    have, with `sum`, `mean`, `max`, `min` or `prod`.

    Example (the mean over a batch):

    ```mlir
    %m = tessel.reduce mean %loss : !tessel.tensor<[batch:64], f32> -> !tessel.tensor<[], f32>
    ```

    Constraints checked by the verifier: every result dimension is an input
    dimension of the same size; element types are the same.
  }];
  let arguments = (ins Tessel_ReduceKind:$kind, Tessel_Tensor:$input);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = "$kind $input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

class Tessel_SoftmaxLikeOp<string mnemonic, string formula>
    : Tessel_Op<mnemonic, [Pure, Tessel_AcrossRuleTrait, Tessel_GradientTrait]> {
  let summary = mnemonic # " over one named dimension";
  let description = "Computes `" # formula # [{` along `dim`, subtracting
    the maximum first so that large inputs do not overflow.

    Example:

    ```mlir
    %p = tessel.}] # mnemonic # [{ %logits over "vocab" : !tessel.tensor<[batch:4, vocab:10], f32>
    ```

    Constraints checked by the verifier: `dim` is a dimension of the input;
    the element type is a float type; the result has the input's dimensions
    and element type.}];
  let arguments = (ins Tessel_Tensor:$input, StrAttr:$dim);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $input `over` $dim attr-dict `:` custom<SameShapeTypes>(type($input), type($result))
  }];
  let hasVerifier = 1;
}

def Tessel_SoftmaxOp : Tessel_SoftmaxLikeOp<"softmax", "e^x_i / sum_j e^x_j">;
def Tessel_LogSoftmaxOp
    : Tessel_SoftmaxLikeOp<"log_softmax", "x_i - log(sum_j e^x_j)">;

def Tessel_SoftmaxCrossEntropyOp
    : Tessel_Op<"softmax_cross_entropy", [Pure, Tessel_AcrossRuleTrait, Tessel_GradientTrait]> {
  let summary = "cross-entropy of softmax(logits) against integer labels";
  let description = [{
    For every index of the labels computes
    `log(sum_c e^logits[c]) - logits[label]` over the class dimension `dim`.
    A label outside `[0, size(dim))` is a run-time error.

    Example:

    ```mlir
    %loss = tessel.softmax_cross_entropy %logits, %labels over "classes"
        : !tessel.tensor<[batch:64, classes:10], f32>,
          !tessel.tensor<[batch:64], i32>
        -> !tessel.tensor<[batch:64], f32>
    ```

    Constraints checked by the verifier: `dim` is a logits dimension; the
    labels have integer elements and exactly the logits' other dimensions with
    the same sizes; the result has the labels' dimensions and the logits'
    float element type.
  }];
  let arguments = (ins Tessel_Tensor:$logits, Tessel_Tensor:$labels,
                   StrAttr:$dim);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $logits `,` $labels `over` $dim attr-dict `:` qualified(type($logits)) `,`
    qualified(type($labels)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tessel_DropoutOp : Tessel_Op<"dropout", [Pure, Tessel_PartitionRuleTrait, Tessel_GradientTrait]> {
  let summary = "inverted dropout with a counter-based mask";
  let description = [{
    Zeroes each element with probability `rate` and scales the kept ones by
    `1 / (1 - rate)`: `y = x * keep / (1 - rate)`. Whether an element is
    kept is a pure function of (`seed`, the value of the scalar integer
    `step`, the element's row-major index in the whole, unsplit result):

    `keep = unitUniform(dropoutStream(seed, step), index) >= rate`

    with `unitUniform` the parameters' counter-based generator
    (reference/Initializers.h) and
    `dropoutStream(seed, step) = mix64(seed) ^ mix64(step + 0x9E3779B97F4A7C15)`.
    So every layout draws the same mask, and no rank needs another's: in a
    partitioned program `block of` gives the global type with its layout,
    the result is the rank's block of it on the enclosing module's mesh,
    and each element uses its global index (positions past the end of an
    uneven split hold zeros). Different dropout sites need different seeds
    (the front end derives one from the layer's scope).

    `step` changes the mask from one training step to the next: it is an
    input of the model function, and a `train_step` argument named
    `dropout_step` is filled by `tessel run` with the step's number (from
    0). The gradient is the same dropout of the result's gradient (the same
    mask and scale); `step` gets none.

    Example:

    ```mlir
    %y = tessel.dropout %x step %s rate 0.1 seed 7
        : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[], i64>
    ```

    Constraints checked by the verifier: `0 <= rate < 1`; the input has a
    float element type and the result the input's dimensions and element
    type; `step` is a scalar of integers. With `block of`: as for
    `tessel.parameter`.
  }];
  let arguments = (ins Tessel_Tensor:$input, Tessel_Tensor:$step,
                   F64Attr:$rate, DefaultValuedAttr<I64Attr, "0">:$seed,
                   OptionalAttr<TypeAttrOf<Tessel_Tensor>>:$global_type);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $input `step` $step `rate` $rate `seed` $seed (`block` `of` $global_type^)?
    attr-dict `:` custom<SameShapeTypes>(type($input), type($result)) `,`
    qualified(type($step))
  }];
  let hasVerifier = 1;
}

def Tessel_CumsumOp : Tessel_Op<"cumsum", [Pure, Tessel_AcrossRuleTrait, Tessel_GradientTrait]> {
  let summary = "inclusive prefix sum along one named dimension";
  let description = [{
    Computes `y_i = sum_{j <= i} x_j` along `dim`, separately for every
    index of the other dimensions; with `reverse`, the suffix sum
    `y_i = sum_{j >= i} x_j`. The gradient of a cumsum is the cumsum of the
    result's gradient in the other direction.

    A cumsum along a split dimension needs the sums of the earlier blocks,
    so tessel-partition gathers `dim` whole first (other dimensions keep
    their splits).

    Example:

    ```mlir
    %c = tessel.cumsum %x over "seq" : !tessel.tensor<[batch:4, seq:16], f32>
    %r = tessel.cumsum %x over "seq" reverse : !tessel.tensor<[batch:4, seq:16], f32>
    ```

    Constraints checked by the verifier: `dim` is a dimension of the input;
    the result has the input's dimensions and element type.
  }];
  let arguments = (ins Tessel_Tensor:$input, StrAttr:$dim, UnitAttr:$reverse);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $input `over` $dim (`reverse` $reverse^)? attr-dict `:`
    custom<SameShapeTypes>(type($input), type($result))
  }];
  let hasVerifier = 1;
}

def Tessel_ArgmaxOp : Tessel_Op<"argmax", [Pure, Tessel_AcrossRuleTrait]> {
  let summary = "index of the maximum along one named dimension";
  let description = [{
    For every index of the other dimensions, yields the index along `dim`
    of the largest element: the first one where several are equal, and the
    first NaN where there is one (NaN is larger than everything, as in
    PyTorch). The result drops `dim`. It has no gradient: an integer carries
    none, so tessel-autodiff differentiates a model that uses it as long as
    the loss does not depend on it through anything but comparisons and
    one-hot encodings.

    tessel-partition gathers `dim` whole first (other dimensions keep their
    splits).

    Example (the predicted class):

    ```mlir
    %p = tessel.argmax %logits over "classes"
        : !tessel.tensor<[batch:64, classes:10], f32>
        -> !tessel.tensor<[batch:64], i32>
    ```

    Constraints checked by the verifier: `dim` is an input dimension; the
    result has exactly the input's other dimensions, with their sizes, and
    integer elements wider than i1.
  }];
  let arguments = (ins Tessel_Tensor:$input, StrAttr:$dim);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $input `over` $dim attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tessel_TopKOp : Tessel_Op<"top_k", [Pure, Tessel_AcrossRuleTrait, Tessel_GradientTrait]> {
  let summary = "the k largest elements, or their indices, along one named dimension";
  let description = [{
    For every index of the other dimensions, ranks the elements along `dim`
    from the largest down (equal elements by their index, the smaller
    first; NaN above everything, as argmax has it) and keeps the first `k`.
    The result replaces `dim` by the new dimension `out_dim` of size `k`:
    element j along `out_dim` is the (j+1)-th largest value or, with
    `indices`, its index along `dim` (an integer).

    The values and the indices are two ops on the same input, not one op
    with two results: every layer of tessel (layouts, partitioning, autodiff,
    the runtime's kernels) is built around ops with one result, and the
    two forms select the same elements, so they agree element by element.

    The gradient of the values scatters dy back to the chosen positions:
    `dx = einsum(one_hot(top_k indices), dy)` over the input's dimensions,
    zero elsewhere. The indices have none (an integer carries none).

    tessel-partition keeps the splits of the other dimensions. When `dim`
    is split, it works in two rounds: each rank takes the top min(k, block)
    of its block, the candidates of all blocks (for the indices, with their
    global indices) are gathered along `out_dim` and the top k of them
    taken again, which moves k candidates per block instead of the whole
    dimension. A padded (uneven) split of `dim` is gathered whole first.

    Example (top-2 routing of each token to experts):

    ```mlir
    %gates = tessel.top_k %probs over "experts" k 2 as "choice"
        : !tessel.tensor<[tokens:64, experts:8], f32>
        -> !tessel.tensor<[tokens:64, choice:2], f32>
    %ids = tessel.top_k %probs over "experts" k 2 as "choice" indices
        : !tessel.tensor<[tokens:64, experts:8], f32>
        -> !tessel.tensor<[tokens:64, choice:2], i32>
    ```

    Constraints checked by the verifier: `dim` is an input dimension;
    1 <= k <= its size; `out_dim` is not an input dimension; the result
    has the input's other dimensions with their sizes and `out_dim` of size
    k; its elements are the input's type, or with `indices` integers wider
    than i1.
  }];
  let arguments = (ins Tessel_Tensor:$input, StrAttr:$dim, I64Attr:$k,
                       StrAttr:$out_dim, UnitAttr:$indices);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $input `over` $dim `k` $k `as` $out_dim (`indices` $indices^)? attr-dict `:`
    qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tessel_LayerNormOp : Tessel_Op<"layer_norm", [Pure, Tessel_AcrossRuleTrait, Tessel_GradientTrait]> {
  let summary = "normalise to zero mean and unit variance over named dims";
  let description = [{
    Computes `(x - mean) / sqrt(var + epsilon)` where mean and (population)
    variance are taken over `dims`, separately for every index of the other
    dimensions. Scale and bias are ordinary broadcasting `mul` and `add`, so
    that they partition like any other element-wise op.

    Example:

    ```mlir
    %n = tessel.layer_norm %x over ["hidden"] epsilon 1.0e-05
        : !tessel.tensor<[batch:4, hidden:8], f32>
    ```

    Constraints checked by the verifier: `dims` is not empty, has no
    repeats and names dimensions of the input; `epsilon` is positive; the
    element type is a float type; the result has the input's dimensions and
    element type.
  }];
  let arguments = (ins Tessel_Tensor:$input, StrArrayAttr:$dims,
                   DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $input `over` $dims `epsilon` $epsilon attr-dict `:`
    custom<SameShapeTypes>(type($input), type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

def Tessel_Conv2DOp : Tessel_Op<"conv2d", [Pure, Tessel_AcrossRuleTrait, Tessel_GradientTrait]> {
  let summary = "2-D convolution over two named spatial dimensions";
  let description = [{
    A cross-correlation, as in PyTorch and oneDNN:

    `y[.., f, oh, ow] = sum_{c, i, j} x[.., c, oh*sh - ph + i*dh, ow*sw - pw + j*dw] * k[c, f, i, j]`

    where `c` is `input_channel`, `f` is `output_channel`, the spatial
    dimensions are named by `spatial` and the filter's window dimensions by
    `kernel`. Input positions outside the tensor read zero (`padding` is
    `[low_h, high_h, low_w, high_w]`). Every other input dimension (a batch)
    passes through. The result replaces `input_channel` by `output_channel`,
    keeps the spatial names, and has spatial sizes
    `(H + low + high - dilation * (K - 1) - 1) / stride + 1`.

    Example:

    ```mlir
    %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
                               spatial = ["h", "w"], kernel = ["kh", "kw"],
                               padding = array<i64: 1, 1, 1, 1>}
        : !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>,
          !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
        -> !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
    ```

    Grouped convolution: with `groups = g` the input channels and the
    output channels are split into `g` equal, consecutive groups, and the
    outputs of group `q` see only the inputs of group `q`. The filter's
    `input_channel` then has the size of one group, `C / g` (as PyTorch's
    weight `[F, C/g, kh, kw]`), and the formula above reads
    `x[.., q * C/g + c, ..]` for output `f` of group `q = f / (F/g)`.
    Depthwise convolution is `g = C` (a filter channel of size 1; `F` a
    multiple of `C`). Under a layout a grouped convolution gathers its
    channel dimensions whole (the batch and spatial splits stay).

    ```mlir
    %d = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
                               spatial = ["h", "w"], kernel = ["kh", "kw"],
                               padding = array<i64: 1, 1, 1, 1>, groups = 8}
        : !tessel.tensor<[batch:8, c:8, h:28, w:28], f32>,
          !tessel.tensor<[c:1, f:8, kh:3, kw:3], f32>
        -> !tessel.tensor<[batch:8, f:8, h:28, w:28], f32>
    ```

    Constraints checked by the verifier: the input has `input_channel` and
    both spatial dimensions; the filter has exactly `input_channel`,
    `output_channel` and the two kernel dimensions, with the input's channel
    size divided by `groups`; `groups` is positive and divides the input
    and output channel sizes; strides and dilations are positive and padding
    is not negative; the result has the input's other dimensions plus
    `output_channel`, with the sizes above.
  }];
  let arguments = (ins Tessel_Tensor:$input, Tessel_Tensor:$filter,
      StrAttr:$input_channel, StrAttr:$output_channel,
      StrArrayAttr:$spatial, StrArrayAttr:$kernel,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
      DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $filter attr-dict `:` qualified(type($input)) `,` qualified(type($filter)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tessel_PoolOp : Tessel_Op<"pool", [Pure, Tessel_AcrossRuleTrait, Tessel_GradientTrait]> {
  let summary = "max or average pooling over two named spatial dimensions";
  let description = [{
    Reduces each `window` of the two `spatial` dimensions with `max` or
    `avg`. Padding positions never contribute: `max` treats them as minus
    infinity and `avg` divides by the number of positions inside the tensor
    (PyTorch's `count_include_pad=False`). Output sizes are
    `(H + low + high - window) / stride + 1`.

    Example:

    ```mlir
    %p = tessel.pool max %y {spatial = ["h", "w"], window = array<i64: 2, 2>,
                             strides = array<i64: 2, 2>}
        : !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
        -> !tessel.tensor<[batch:8, f:16, h:14, w:14], f32>
    ```

    Constraints checked by the verifier: both spatial dimensions exist;
    windows and strides are positive and padding is smaller than the window;
    the result has the input's dimensions with the sizes above.
  }];
  let arguments = (ins Tessel_PoolKind:$kind, Tessel_Tensor:$input,
      StrArrayAttr:$spatial, DenseI64ArrayAttr:$window,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = "$kind $input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Gradients of windowed ops (built by tessel-autodiff)
//===----------------------------------------------------------------------===//

class Tessel_ConvGradientOp<string mnemonic, string summaryText, string body>
    : Tessel_Op<mnemonic, [Pure, Tessel_PartitionRuleTrait]> {
  let summary = summaryText;
  let description = body # [{

    The attributes are those of the forward `tessel.conv2d` (`groups`
    included), whose input, filter and result types are checked exactly as
    its verifier checks them.
  }];
  let results = (outs Tessel_Tensor:$result);
  let hasVerifier = 1;
}

def Tessel_Conv2DBackwardInputOp : Tessel_ConvGradientOp<"conv2d_backward_input",
    "gradient of a 2-D convolution with respect to its input", [{
    Given the gradient `dy` of a `tessel.conv2d` result and its filter,
    computes the gradient of the convolution's input, whose type is the
    result type:

    `dx[.., c, h, w] = sum over f, oh, ow, i, j with h = oh*sh - ph + i*dh
    and w = ow*sw - pw + j*dw of dy[.., f, oh, ow] * k[c, f, i, j]`

    Example:

    ```mlir
    %dx = tessel.conv2d_backward_input %dy, %k {input_channel = "c",
            output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"],
            padding = array<i64: 1, 1, 1, 1>}
        : !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>,
          !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
        -> !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
    ```}]> {
  let arguments = (ins Tessel_Tensor:$result_gradient, Tessel_Tensor:$filter,
      StrAttr:$input_channel, StrAttr:$output_channel,
      StrArrayAttr:$spatial, StrArrayAttr:$kernel,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
      DefaultValuedAttr<I64Attr, "1">:$groups);
  let assemblyFormat = [{
    $result_gradient `,` $filter attr-dict `:` qualified(type($result_gradient)) `,` qualified(type($filter)) `->` qualified(type($result))
  }];
}

def Tessel_Conv2DBackwardFilterOp : Tessel_ConvGradientOp<"conv2d_backward_filter",
    "gradient of a 2-D convolution with respect to its filter", [{
    Given the input of a `tessel.conv2d` and the gradient `dy` of its
    result, computes the gradient of the filter, whose type is the result
    type:

    `dk[c, f, i, j] = sum over the batch dims, oh, ow of
    x[.., c, oh*sh - ph + i*dh, ow*sw - pw + j*dw] * dy[.., f, oh, ow]`

    Example:

    ```mlir
    %dk = tessel.conv2d_backward_filter %x, %dy {input_channel = "c",
            output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"],
            padding = array<i64: 1, 1, 1, 1>}
        : !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>,
          !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
        -> !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
    ```}]> {
  let arguments = (ins Tessel_Tensor:$input, Tessel_Tensor:$result_gradient,
      StrAttr:$input_channel, StrAttr:$output_channel,
      StrArrayAttr:$spatial, StrArrayAttr:$kernel,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
      DefaultValuedAttr<I64Attr, "1">:$groups);
  let assemblyFormat = [{
    $input `,` $result_gradient attr-dict `:` qualified(type($input)) `,` qualified(type($result_gradient)) `->` qualified(type($result))
  }];
}

def Tessel_PoolBackwardOp : Tessel_Op<"pool_backward",
    [Pure, Tessel_PartitionRuleTrait]> {
  let summary = "gradient of max or average pooling with respect to its input";
  let description = [{
    Given the input of a `tessel.pool` and the gradient `dy` of its result,
    computes the gradient of the input (the result type is the input's).
    For `max`, each window's gradient goes to the first position in
    row-major window order that holds the window's maximum; for `avg`, it is
    shared equally among the window's positions inside the input. Windows
    that overlap add up.

    Example:

    ```mlir
    %dx = tessel.pool_backward max %x, %dy {spatial = ["h", "w"],
            window = array<i64: 2, 2>, strides = array<i64: 2, 2>}
        : !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>,
          !tessel.tensor<[batch:8, f:16, h:14, w:14], f32>
        -> !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
    ```

    Constraints checked by the verifier: those of `tessel.pool` for the
    input and `dy`; the result has the input's type.
  }];
  let arguments = (ins Tessel_PoolKind:$kind, Tessel_Tensor:$input,
      Tessel_Tensor:$result_gradient,
      StrArrayAttr:$spatial, DenseI64ArrayAttr:$window,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $kind $input `,` $result_gradient attr-dict `:` qualified(type($input)) `,` qualified(type($result_gradient)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Lookups
//===----------------------------------------------------------------------===//

def Tessel_GatherOp : Tessel_Op<"gather", [Pure, Tessel_AcrossRuleTrait, Tessel_GradientTrait]> {
  let summary = "embedding lookup: rows of a table picked by integer ids";
  let description = [{
    For every index of `ids`, reads the slice of `table` at position
    `ids[...]` along `dim`. The result has the ids' dimensions and the
    table's other dimensions. An id outside the table is a run-time error.

    Example:

    ```mlir
    %e = tessel.gather %table[%tokens] over "vocab"
        : !tessel.tensor<[vocab:256, d_model:64], f32>,
          !tessel.tensor<[batch:4, seq:16], i32>
        -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    ```

    Constraints checked by the verifier: `dim` is a table dimension; ids have
    integer elements and share no dimension name with the table; the result
    has exactly the ids' and the table's other dimensions, with their sizes,
    and the table's element type.
  }];
  let arguments = (ins Tessel_Tensor:$table, Tessel_Tensor:$ids, StrAttr:$dim);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $table `[` $ids `]` `over` $dim attr-dict `:` qualified(type($table)) `,` qualified(type($ids))
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tessel_OneHotOp : Tessel_Op<"one_hot", [Pure, Tessel_AcrossRuleTrait]> {
  let summary = "one-hot encoding along a new dimension";
  let description = [{
    Adds the dimension `dim`: the result is 1 where its index along `dim`
    equals the id and 0 elsewhere (ids out of range give all zeros).

    Example:

    ```mlir
    %o = tessel.one_hot %labels as "classes"
        : !tessel.tensor<[batch:64], i32> -> !tessel.tensor<[batch:64, classes:10], f32>
    ```

    Constraints checked by the verifier: ids have integer elements; `dim` is
    not an ids dimension; the result has the ids' dimensions plus `dim`.
  }];
  let arguments = (ins Tessel_Tensor:$ids, StrAttr:$dim);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = "$ids `as` $dim attr-dict `:` qualified(type($ids)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

def Tessel_RenameOp : Tessel_Op<"rename", [Pure, Tessel_PartitionRuleTrait, Tessel_GradientTrait]> {
  let summary = "give dimensions new names";
  let description = [{
    Changes dimension names, position by position, without moving data.
    Renaming is how a model uses one tensor on two sides of a contraction
    (`hidden` as the input of one layer and `hidden2` of the next).

    Example:

    ```mlir
    %r = tessel.rename %x : !tessel.tensor<[batch:4, hidden:8], f32>
                         -> !tessel.tensor<[batch:4, features:8], f32>
    ```

    Constraints checked by the verifier: same rank, same sizes position by
    position, same element type.
  }];
  let arguments = (ins Tessel_Tensor:$input);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tessel_ReshapeOp : Tessel_Op<"reshape", [Pure, Tessel_PartitionRuleTrait, Tessel_GradientTrait]> {
  let summary = "split and merge dimensions";
  let description = [{
    Reinterprets the elements in row-major order of the input's dimension
    order as the result's dimensions in their row-major order. Splitting
    `hidden:512` into `[heads:8, head_dim:64]` and merging them back are
    reshapes.

    Example:

    ```mlir
    %r = tessel.reshape %x : !tessel.tensor<[batch:4, hidden:512], f32>
                          -> !tessel.tensor<[batch:4, heads:8, head_dim:64], f32>
    ```

    Constraints checked by the verifier: same number of elements and same
    element type.
  }];
  let arguments = (ins Tessel_Tensor:$input);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tessel_TransposeOp : Tessel_Op<"transpose", [Pure, Tessel_PartitionRuleTrait, Tessel_GradientTrait]> {
  let summary = "reorder dimensions";
  let description = [{
    Moves the data so that the dimensions are stored in the result's order.
    Names stay attached to their data, so a transpose never changes what a
    model computes, only the storage order kernels see.

    Example:

    ```mlir
    %t = tessel.transpose %x : !tessel.tensor<[a:2, b:3], f32> -> !tessel.tensor<[b:3, a:2], f32>
    ```

    Constraints checked by the verifier: the result's dimensions are a
    permutation of the input's, with the same sizes and element type.
  }];
  let arguments = (ins Tessel_Tensor:$input);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tessel_SliceOp : Tessel_Op<"slice", [Pure, Tessel_AcrossRuleTrait, Tessel_GradientTrait]> {
  let summary = "a contiguous block of some dimensions";
  let description = [{
    Takes, along every dimension in `dims`, the result's size of elements
    starting at the matching entry of `starts`. Other dimensions are kept
    whole.

    Example:

    ```mlir
    %s = tessel.slice %x {dims = ["seq"], starts = array<i64: 4>}
        : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:2, seq:8], f32>
    ```

    Constraints checked by the verifier: `dims` and `starts` have one length;
    listed dims exist once; each slice lies inside the input; the result has
    the input's dimensions, unlisted ones with unchanged sizes.
  }];
  let arguments = (ins Tessel_Tensor:$input, StrArrayAttr:$dims,
                   DenseI64ArrayAttr:$starts);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Tessel_ConcatOp : Tessel_Op<"concat", [Pure, Tessel_AcrossRuleTrait, Tessel_GradientTrait]> {
  let summary = "join tensors along one dimension";
  let description = [{
    Concatenates the inputs in order along `dim`.

    Example:

    ```mlir
    %c = tessel.concat %a, %b over "seq"
        : (!tessel.tensor<[seq:4, d:8], f32>, !tessel.tensor<[seq:2, d:8], f32>)
        -> !tessel.tensor<[seq:6, d:8], f32>
    ```

    Constraints checked by the verifier: at least one input; all inputs and
    the result have the same dimensions and sizes except `dim`, whose result
    size is the sum; one element type.
  }];
  let arguments = (ins Variadic<Tessel_Tensor>:$inputs, StrAttr:$dim);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $inputs `over` $dim attr-dict `:` functional-type($inputs, $result)
  }];
  let hasVerifier = 1;
}

def Tessel_PadOp : Tessel_Op<"pad", [Pure, Tessel_AcrossRuleTrait, Tessel_GradientTrait]> {
  let summary = "constant padding of some dimensions";
  let description = [{
    Adds `low[i]` elements before and `high[i]` after the data along each
    dimension in `dims`, filled with `value`.

    Example:

    ```mlir
    %p = tessel.pad %x {dims = ["h"], low = array<i64: 1>, high = array<i64: 2>}
        : !tessel.tensor<[h:4], f32> -> !tessel.tensor<[h:7], f32>
    ```

    Constraints checked by the verifier: `dims`, `low` and `high` have one
    length; padding is not negative; the result has the input's dimensions
    with the padded sizes.
  }];
  let arguments = (ins Tessel_Tensor:$input, StrArrayAttr:$dims,
                   DenseI64ArrayAttr:$low, DenseI64ArrayAttr:$high,
                   DefaultValuedAttr<F64Attr, "0.0">:$value);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

#endif // TESSEL_MODEL_OPS_TD
