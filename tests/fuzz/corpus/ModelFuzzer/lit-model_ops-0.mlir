// Round trip of every model-level op through the custom assembly format, and
// a second round trip through the generic form.

//===----------------------------------------------------------------------===//
// Sources
//===----------------------------------------------------------------------===//

func.func @parameters() -> (!tessel.tensor<[pixels:784, hidden:256], f32>,
                            !tessel.tensor<[hidden:256], bf16>,
                            !tessel.tensor<[hidden:256], f16>,
                            !tessel.tensor<[k:3], f64>) {
  %w = tessel.parameter "w1" normal scale 0.02 seed 1
      : !tessel.tensor<[pixels:784, hidden:256], f32>
  %b = tessel.parameter "b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[hidden:256], bf16>
  %g = tessel.parameter "gamma" ones scale 1.0 seed 0
      : !tessel.tensor<[hidden:256], f16>
  %u = tessel.parameter "u" uniform scale 0.5 seed 42 : !tessel.tensor<[k:3], f64>
  return %w, %b, %g, %u : !tessel.tensor<[pixels:784, hidden:256], f32>,
      !tessel.tensor<[hidden:256], bf16>, !tessel.tensor<[hidden:256], f16>,
      !tessel.tensor<[k:3], f64>
}

func.func @constants() -> (!tessel.tensor<[], f32>, !tessel.tensor<[a:2, b:3], i32>,
                           !tessel.tensor<[i:2, j:2], f32>, !tessel.tensor<[k:2], i1>) {
  %f = tessel.constant 0.5 : f32 -> !tessel.tensor<[], f32>
  %i = tessel.constant 7 : i32 -> !tessel.tensor<[a:2, b:3], i32>
  %d = tessel.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
      -> !tessel.tensor<[i:2, j:2], f32>
  %m = tessel.constant dense<[true, false]> : tensor<2xi1> -> !tessel.tensor<[k:2], i1>
  return %f, %i, %d, %m : !tessel.tensor<[], f32>, !tessel.tensor<[a:2, b:3], i32>,
      !tessel.tensor<[i:2, j:2], f32>, !tessel.tensor<[k:2], i1>
}

func.func @iota() -> !tessel.tensor<[seq:8, key:8], i32> {
  %q = tessel.iota "seq" : !tessel.tensor<[seq:8, key:8], i32>
  return %q : !tessel.tensor<[seq:8, key:8], i32>
}

//===----------------------------------------------------------------------===//
// Contraction
//===----------------------------------------------------------------------===//

func.func @einsum_matmul(%x: !tessel.tensor<[batch:64, pixels:784], f32>,
                         %w: !tessel.tensor<[pixels:784, hidden:256], f32>)
    -> !tessel.tensor<[batch:64, hidden:256], f32> {
  %h = tessel.einsum %x, %w
      : (!tessel.tensor<[batch:64, pixels:784], f32>,
         !tessel.tensor<[pixels:784, hidden:256], f32>)
      -> !tessel.tensor<[batch:64, hidden:256], f32>
  return %h : !tessel.tensor<[batch:64, hidden:256], f32>
}

func.func @einsum_batched(%q: !tessel.tensor<[batch:2, heads:4, seq:8, head_dim:16], f32>,
                          %k: !tessel.tensor<[batch:2, heads:4, key:8, head_dim:16], f32>)
    -> !tessel.tensor<[batch:2, heads:4, seq:8, key:8], f32> {
  %s = tessel.einsum %q, %k
      : (!tessel.tensor<[batch:2, heads:4, seq:8, head_dim:16], f32>,
         !tessel.tensor<[batch:2, heads:4, key:8, head_dim:16], f32>)
      -> !tessel.tensor<[batch:2, heads:4, seq:8, key:8], f32>
  return %s : !tessel.tensor<[batch:2, heads:4, seq:8, key:8], f32>
}

func.func @einsum_three_inputs(%a: !tessel.tensor<[i:2, j:3], f32>,
                               %b: !tessel.tensor<[j:3, k:4], f32>,
                               %c: !tessel.tensor<[k:4, l:5], f32>)
    -> !tessel.tensor<[l:5, i:2], f32> {
  %r = tessel.einsum %a, %b, %c
      : (!tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[j:3, k:4], f32>,
         !tessel.tensor<[k:4, l:5], f32>)
      -> !tessel.tensor<[l:5, i:2], f32>
  return %r : !tessel.tensor<[l:5, i:2], f32>
}

func.func @einsum_to_scalar(%a: !tessel.tensor<[i:2, j:3], f32>,
                            %b: !tessel.tensor<[j:3, i:2], f32>) -> !tessel.tensor<[], f32> {
  %r = tessel.einsum %a, %b
      : (!tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[j:3, i:2], f32>)
      -> !tessel.tensor<[], f32>
  return %r : !tessel.tensor<[], f32>
}

//===----------------------------------------------------------------------===//
// Element-wise ops
//===----------------------------------------------------------------------===//

func.func @unary(%x: !tessel.tensor<[batch:4, hidden:8], f32>,
                 %n: !tessel.tensor<[k:3], i32>)
    -> (!tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[k:3], i32>) {
  %0 = tessel.neg %x : !tessel.tensor<[batch:4, hidden:8], f32>
  %1 = tessel.abs %0 : !tessel.tensor<[batch:4, hidden:8], f32>
  %2 = tessel.exp %1 : !tessel.tensor<[batch:4, hidden:8], f32>
  %3 = tessel.log %2 : !tessel.tensor<[batch:4, hidden:8], f32>
  %4 = tessel.sqrt %3 : !tessel.tensor<[batch:4, hidden:8], f32>
  %5 = tessel.rsqrt %4 : !tessel.tensor<[batch:4, hidden:8], f32>
  %6 = tessel.tanh %5 : !tessel.tensor<[batch:4, hidden:8], f32>
  %7 = tessel.sigmoid %6 : !tessel.tensor<[batch:4, hidden:8], f32>
  %8 = tessel.relu %7 : !tessel.tensor<[batch:4, hidden:8], f32>
  %9 = tessel.gelu %8 : !tessel.tensor<[batch:4, hidden:8], f32>
  // neg, abs and relu also accept integers.
  %10 = tessel.neg %n : !tessel.tensor<[k:3], i32>
  %11 = tessel.abs %10 : !tessel.tensor<[k:3], i32>
  %12 = tessel.relu %11 : !tessel.tensor<[k:3], i32>
  return %9, %12 : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[k:3], i32>
}

func.func @binary(%x: !tessel.tensor<[batch:4, hidden:8], f32>,
                  %b: !tessel.tensor<[hidden:8], f32>,
                  %c: !tessel.tensor<[batch:4], f32>,
                  %s: !tessel.tensor<[], f32>,
                  %t: !tessel.tensor<[hidden:8, batch:4], f32>)
    -> !tessel.tensor<[hidden:8, batch:4], f32> {
  // Broadcast the second operand over the leading dimension.
  %0 = tessel.add %x, %b
      : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[hidden:8], f32>
      -> !tessel.tensor<[batch:4, hidden:8], f32>
  // Broadcast the first operand over the trailing dimension.
  %1 = tessel.sub %c, %0
      : !tessel.tensor<[batch:4], f32>, !tessel.tensor<[batch:4, hidden:8], f32>
      -> !tessel.tensor<[batch:4, hidden:8], f32>
  // Both operands broadcast into an outer product.
  %2 = tessel.mul %b, %c
      : !tessel.tensor<[hidden:8], f32>, !tessel.tensor<[batch:4], f32>
      -> !tessel.tensor<[hidden:8, batch:4], f32>
  // Operands whose dimensions are in different orders.
  %3 = tessel.div %1, %2
      : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[hidden:8, batch:4], f32>
      -> !tessel.tensor<[hidden:8, batch:4], f32>
  // A scalar broadcast over everything.
  %4 = tessel.max %3, %s
      : !tessel.tensor<[hidden:8, batch:4], f32>, !tessel.tensor<[], f32>
      -> !tessel.tensor<[hidden:8, batch:4], f32>
  %5 = tessel.min %s, %4
      : !tessel.tensor<[], f32>, !tessel.tensor<[hidden:8, batch:4], f32>
      -> !tessel.tensor<[hidden:8, batch:4], f32>
  %6 = tessel.pow %5, %t
      : !tessel.tensor<[hidden:8, batch:4], f32>, !tessel.tensor<[hidden:8, batch:4], f32>
      -> !tessel.tensor<[hidden:8, batch:4], f32>
  return %6 : !tessel.tensor<[hidden:8, batch:4], f32>
}

func.func @compare(%q: !tessel.tensor<[seq:8], i32>, %k: !tessel.tensor<[key:8], i32>)
    -> (!tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[seq:8, key:8], i1>,
        !tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[key:8, seq:8], i1>,
        !tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[seq:8, key:8], i1>) {
  %eq = tessel.compare eq, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
      -> !tessel.tensor<[seq:8, key:8], i1>
  %ne = tessel.compare ne, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
      -> !tessel.tensor<[seq:8, key:8], i1>
  %lt = tessel.compare lt, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
      -> !tessel.tensor<[seq:8, key:8], i1>
  %le = tessel.compare le, %k, %q : !tessel.tensor<[key:8], i32>, !tessel.tensor<[seq:8], i32>
      -> !tessel.tensor<[key:8, seq:8], i1>
  %gt = tessel.compare gt, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
      -> !tessel.tensor<[seq:8, key:8], i1>
  %ge = tessel.compare ge, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
      -> !tessel.tensor<[seq:8, key:8], i1>
  return %eq, %ne, %lt, %le, %gt, %ge
      : !tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[seq:8, key:8], i1>,
        !tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[key:8, seq:8], i1>,
        !tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[seq:8, key:8], i1>
}

func.func @select(%mask: !tessel.tensor<[seq:8, key:8], i1>,
                  %scores: !tessel.tensor<[heads:2, seq:8, key:8], f32>)
    -> !tessel.tensor<[heads:2, seq:8, key:8], f32> {
  %neg = tessel.constant -1.0e9 : f32 -> !tessel.tensor<[], f32>
  %r = tessel.select %mask, %scores, %neg
      : !tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[heads:2, seq:8, key:8], f32>,
        !tessel.tensor<[], f32> -> !tessel.tensor<[heads:2, seq:8, key:8], f32>
  return %r : !tessel.tensor<[heads:2, seq:8, key:8], f32>
}

func.func @cast(%x: !tessel.tensor<[batch:4], f32>, %n: !tessel.tensor<[batch:4], i32>)
    -> (!tessel.tensor<[batch:4], bf16>, !tessel.tensor<[batch:4], f16>,
        !tessel.tensor<[batch:4], f32>) {
  %bf = tessel.cast %x : !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[batch:4], bf16>
  %h = tessel.cast %x : !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[batch:4], f16>
  %f = tessel.cast %n : !tessel.tensor<[batch:4], i32> -> !tessel.tensor<[batch:4], f32>
  return %bf, %h, %f : !tessel.tensor<[batch:4], bf16>, !tessel.tensor<[batch:4], f16>,
      !tessel.tensor<[batch:4], f32>
}

//===----------------------------------------------------------------------===//
// Reductions and normalisations
//===----------------------------------------------------------------------===//

func.func @reduce(%x: !tessel.tensor<[batch:4, hidden:8], f32>)
    -> (!tessel.tensor<[batch:4], f32>, !tessel.tensor<[], f32>,
        !tessel.tensor<[hidden:8], f32>, !tessel.tensor<[batch:4], f32>,
        !tessel.tensor<[hidden:8, batch:4], f32>) {
  %sum = tessel.reduce sum %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4], f32>
  %mean = tessel.reduce mean %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[], f32>
  %max = tessel.reduce max %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[hidden:8], f32>
  %min = tessel.reduce min %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4], f32>
  // Reducing over nothing is allowed, in any order.
  %prod = tessel.reduce prod %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[hidden:8, batch:4], f32>
  return %sum, %mean, %max, %min, %prod
      : !tessel.tensor<[batch:4], f32>, !tessel.tensor<[], f32>,
        !tessel.tensor<[hidden:8], f32>, !tessel.tensor<[batch:4], f32>,
        !tessel.tensor<[hidden:8, batch:4], f32>
}

func.func @normalisations(%x: !tessel.tensor<[batch:4, vocab:10], f32>,
                          %labels: !tessel.tensor<[batch:4], i32>)
    -> (!tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:4], f32>,
        !tessel.tensor<[batch:4, vocab:10], f32>) {
  %sm = tessel.softmax %x over "vocab" : !tessel.tensor<[batch:4, vocab:10], f32>
  %lsm = tessel.log_softmax %sm over "vocab" : !tessel.tensor<[batch:4, vocab:10], f32>
  %ce = tessel.softmax_cross_entropy %lsm, %labels over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:4], i32>
      -> !tessel.tensor<[batch:4], f32>
  %ln = tessel.layer_norm %x over ["vocab"] epsilon 1.0e-05
      : !tessel.tensor<[batch:4, vocab:10], f32>
  %ln2 = tessel.layer_norm %ln over ["batch", "vocab"] epsilon 1.0e-03
      : !tessel.tensor<[batch:4, vocab:10], f32>
  return %sm, %ce, %ln2 : !tessel.tensor<[batch:4, vocab:10], f32>,
      !tessel.tensor<[batch:4], f32>, !tessel.tensor<[batch:4, vocab:10], f32>
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

func.func @conv2d(%x: !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>,
                  %k: !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>)
    -> (!tessel.tensor<[batch:8, f:16, h:28, w:28], f32>,
        !tessel.tensor<[f:16, batch:8, h:13, w:13], f32>) {
  // "Same" padding with the default strides and dilations.
  %same = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
                                spatial = ["h", "w"], kernel = ["kh", "kw"],
                                padding = array<i64: 1, 1, 1, 1>}
      : !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>,
        !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
      -> !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
  // Dilation 2 stretches the 3-wide kernel to 5, so with stride 2
  // h is (28 + 2 + 0 - 5) / 2 + 1 = 13 and w is (28 + 0 + 1 - 5) / 2 + 1 = 13.
  %strided = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
                                   spatial = ["h", "w"], kernel = ["kh", "kw"],
                                   padding = array<i64: 2, 0, 0, 1>,
                                   strides = array<i64: 2, 2>,
                                   dilations = array<i64: 2, 2>}
      : !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>,
        !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
      -> !tessel.tensor<[f:16, batch:8, h:13, w:13], f32>
  return %same, %strided : !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>,
      !tessel.tensor<[f:16, batch:8, h:13, w:13], f32>
}

func.func @pool(%y: !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>)
    -> (!tessel.tensor<[batch:8, f:16, h:14, w:14], f32>,
        !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>) {
  %max = tessel.pool max %y {spatial = ["h", "w"], window = array<i64: 2, 2>,
                             strides = array<i64: 2, 2>}
      : !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
      -> !tessel.tensor<[batch:8, f:16, h:14, w:14], f32>
  %avg = tessel.pool avg %y {spatial = ["h", "w"], window = array<i64: 3, 3>,
                             padding = array<i64: 1, 1, 1, 1>}
      : !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
      -> !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
  return %max, %avg : !tessel.tensor<[batch:8, f:16, h:14, w:14], f32>,
      !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
}

//===----------------------------------------------------------------------===//
// Lookups
//===----------------------------------------------------------------------===//

func.func @lookups(%table: !tessel.tensor<[vocab:256, d_model:64], f32>,
                   %ids: !tessel.tensor<[batch:4, seq:16], i32>)
    -> (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>,
        !tessel.tensor<[batch:4, seq:16, classes:10], f32>) {
  %e = tessel.gather %table[%ids] over "vocab"
      : !tessel.tensor<[vocab:256, d_model:64], f32>, !tessel.tensor<[batch:4, seq:16], i32>
      -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
  %o = tessel.one_hot %ids as "classes"
      : !tessel.tensor<[batch:4, seq:16], i32> -> !tessel.tensor<[batch:4, seq:16, classes:10], f32>
  return %e, %o : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>,
      !tessel.tensor<[batch:4, seq:16, classes:10], f32>
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

func.func @shapes(%x: !tessel.tensor<[batch:4, hidden:512], f32>)
    -> (!tessel.tensor<[batch:4, features:512], f32>,
        !tessel.tensor<[heads:8, batch:4, head_dim:64], f32>) {
  %r = tessel.rename %x : !tessel.tensor<[batch:4, hidden:512], f32>
                       -> !tessel.tensor<[batch:4, features:512], f32>
  %s = tessel.reshape %x : !tessel.tensor<[batch:4, hidden:512], f32>
                        -> !tessel.tensor<[batch:4, heads:8, head_dim:64], f32>
  %t = tessel.transpose %s : !tessel.tensor<[batch:4, heads:8, head_dim:64], f32>
                          -> !tessel.tensor<[heads:8, batch:4, head_dim:64], f32>
  return %r, %t : !tessel.tensor<[batch:4, features:512], f32>,
      !tessel.tensor<[heads:8, batch:4, head_dim:64], f32>
}

func.func @slice_concat_pad(%x: !tessel.tensor<[batch:2, seq:16], f32>,
                            %a: !tessel.tensor<[seq:4, d:8], f32>,
                            %b: !tessel.tensor<[seq:2, d:8], f32>,
                            %h: !tessel.tensor<[h:4, w:3], f32>)
    -> (!tessel.tensor<[batch:1, seq:8], f32>, !tessel.tensor<[seq:10, d:8], f32>,
        !tessel.tensor<[h:7, w:3], f32>) {
  %s = tessel.slice %x {dims = ["seq", "batch"], starts = array<i64: 4, 1>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:1, seq:8], f32>
  %c = tessel.concat %a, %b, %a over "seq"
      : (!tessel.tensor<[seq:4, d:8], f32>, !tessel.tensor<[seq:2, d:8], f32>,
         !tessel.tensor<[seq:4, d:8], f32>) -> !tessel.tensor<[seq:10, d:8], f32>
  %p = tessel.pad %h {dims = ["h"], low = array<i64: 1>, high = array<i64: 2>, value = -1.0 : f64}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:7, w:3], f32>
  return %s, %c, %p : !tessel.tensor<[batch:1, seq:8], f32>,
      !tessel.tensor<[seq:10, d:8], f32>, !tessel.tensor<[h:7, w:3], f32>
}

// Ops that keep their operand's dimensions print one type when the result
// type is the same and `T -> U` when only the layout differs.
func.func @layout_changes(%x: !tessel.tensor<[batch:4, hidden:8], f32>)
    -> !tessel.tensor<[batch:4, hidden:8], f32, #tessel.layout<{hidden = [model]}>> {
  %r = tessel.relu %x : !tessel.tensor<[batch:4, hidden:8], f32>
      -> !tessel.tensor<[batch:4, hidden:8], f32, #tessel.layout<{batch = [data]}>>
  %s = tessel.softmax %r over "hidden"
      : !tessel.tensor<[batch:4, hidden:8], f32, #tessel.layout<{batch = [data]}>>
  %n = tessel.layer_norm %s over ["hidden"] epsilon 1.0e-05
      : !tessel.tensor<[batch:4, hidden:8], f32, #tessel.layout<{batch = [data]}>>
      -> !tessel.tensor<[batch:4, hidden:8], f32, #tessel.layout<{hidden = [model]}>>
  return %n : !tessel.tensor<[batch:4, hidden:8], f32, #tessel.layout<{hidden = [model]}>>
}
