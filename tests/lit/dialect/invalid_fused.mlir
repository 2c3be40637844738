// Errors of the tessel.fused verifier.
// RUN: tessel-opt %s -split-input-file -verify-diagnostics

func.func @argument_count(%x: !tessel.tensor<[k:3], f32>) {
  // expected-error @+1 {{'tessel.fused' op has 1 inputs but its body has 2 arguments}}
  %y = tessel.fused %x : (!tessel.tensor<[k:3], f32>) -> !tessel.tensor<[k:3], f32> {
  ^bb0(%a: !tessel.tensor<[k:3], f32>, %b: !tessel.tensor<[k:3], f32>):
    %s = tessel.add %a, %b : !tessel.tensor<[k:3], f32>, !tessel.tensor<[k:3], f32> -> !tessel.tensor<[k:3], f32>
    tessel.yield %s : !tessel.tensor<[k:3], f32>
  }
  return
}

// -----

func.func @argument_type(%x: !tessel.tensor<[k:3], f32>) {
  // expected-error @+1 {{'tessel.fused' op input 0 has type '!tessel.tensor<[k:3], f32>' but body argument 0 has '!tessel.tensor<[k:3], bf16>'}}
  %y = tessel.fused %x : (!tessel.tensor<[k:3], f32>) -> !tessel.tensor<[k:3], bf16> {
  ^bb0(%a: !tessel.tensor<[k:3], bf16>):
    %e = tessel.exp %a : !tessel.tensor<[k:3], bf16>
    tessel.yield %e : !tessel.tensor<[k:3], bf16>
  }
  return
}

// -----

func.func @not_elementwise(%x: !tessel.tensor<[k:3], f32>) {
  %y = tessel.fused %x : (!tessel.tensor<[k:3], f32>) -> !tessel.tensor<[k:3], f32> {
  ^bb0(%a: !tessel.tensor<[k:3], f32>):
    // expected-error @+1 {{'tessel.softmax' op cannot be part of a tessel.fused body: only element-wise ops, splat constants and a last sum can}}
    %s = tessel.softmax %a over "k" : !tessel.tensor<[k:3], f32>
    tessel.yield %s : !tessel.tensor<[k:3], f32>
  }
  return
}

// -----

func.func @dense_constant(%x: !tessel.tensor<[k:3], f32>) {
  %y = tessel.fused %x : (!tessel.tensor<[k:3], f32>) -> !tessel.tensor<[k:3], f32> {
  ^bb0(%a: !tessel.tensor<[k:3], f32>):
    // expected-error @+1 {{'tessel.constant' op cannot be part of a tessel.fused body}}
    %c = tessel.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32> -> !tessel.tensor<[k:3], f32>
    %s = tessel.add %a, %c : !tessel.tensor<[k:3], f32>, !tessel.tensor<[k:3], f32> -> !tessel.tensor<[k:3], f32>
    tessel.yield %s : !tessel.tensor<[k:3], f32>
  }
  return
}

// -----

func.func @smaller_op(%x: !tessel.tensor<[k:3, j:2], f32>, %v: !tessel.tensor<[j:2], f32>) {
  %y = tessel.fused %x, %v : (!tessel.tensor<[k:3, j:2], f32>, !tessel.tensor<[j:2], f32>) -> !tessel.tensor<[k:3, j:2], f32> {
  ^bb0(%a: !tessel.tensor<[k:3, j:2], f32>, %b: !tessel.tensor<[j:2], f32>):
    // expected-error @+1 {{'tessel.exp' op in a tessel.fused body has type '!tessel.tensor<[j:2], f32>', whose dimensions are not those of the fused result '!tessel.tensor<[k:3, j:2], f32>'}}
    %e = tessel.exp %b : !tessel.tensor<[j:2], f32>
    %s = tessel.mul %a, %e : !tessel.tensor<[k:3, j:2], f32>, !tessel.tensor<[j:2], f32> -> !tessel.tensor<[k:3, j:2], f32>
    tessel.yield %s : !tessel.tensor<[k:3, j:2], f32>
  }
  return
}

// -----

func.func @yield_type(%x: !tessel.tensor<[k:3, j:2], f32>) {
  // expected-error @+1 {{'tessel.fused' op yields '!tessel.tensor<[j:2, k:3], f32>' as value 0 but its result 0 has type '!tessel.tensor<[k:3, j:2], f32>'}}
  %y = tessel.fused %x : (!tessel.tensor<[k:3, j:2], f32>) -> !tessel.tensor<[k:3, j:2], f32> {
  ^bb0(%a: !tessel.tensor<[k:3, j:2], f32>):
    %n = tessel.neg %a : !tessel.tensor<[k:3, j:2], f32> -> !tessel.tensor<[j:2, k:3], f32>
    tessel.yield %n : !tessel.tensor<[j:2, k:3], f32>
  }
  return
}

// -----

func.func @yield_count(%x: !tessel.tensor<[k:3], f32>) {
  // expected-error @+1 {{'tessel.fused' op yields 1 values but has 2 results}}
  %y:2 = tessel.fused %x : (!tessel.tensor<[k:3], f32>) -> (!tessel.tensor<[k:3], f32>, !tessel.tensor<[k:3], f32>) {
  ^bb0(%a: !tessel.tensor<[k:3], f32>):
    %n = tessel.neg %a : !tessel.tensor<[k:3], f32> -> !tessel.tensor<[k:3], f32>
    tessel.yield %n : !tessel.tensor<[k:3], f32>
  }
  return
}

// -----

// Every result is written where the first one's element is: the same dims
// in the same order.
func.func @second_result_order(%x: !tessel.tensor<[k:3, j:2], f32>) {
  // expected-error @+1 {{'tessel.fused' op result 1 has type '!tessel.tensor<[j:2, k:3], f32>', whose dimensions are not those of result 0 '!tessel.tensor<[k:3, j:2], f32>' in its order}}
  %y:2 = tessel.fused %x : (!tessel.tensor<[k:3, j:2], f32>) -> (!tessel.tensor<[k:3, j:2], f32>, !tessel.tensor<[j:2, k:3], f32>) {
  ^bb0(%a: !tessel.tensor<[k:3, j:2], f32>):
    %n = tessel.neg %a : !tessel.tensor<[k:3, j:2], f32> -> !tessel.tensor<[k:3, j:2], f32>
    %t = tessel.neg %a : !tessel.tensor<[k:3, j:2], f32> -> !tessel.tensor<[j:2, k:3], f32>
    tessel.yield %n, %t : !tessel.tensor<[k:3, j:2], f32>, !tessel.tensor<[j:2, k:3], f32>
  }
  return
}

// -----

func.func @sum_with_a_result_not_summed_shape(%x: !tessel.tensor<[k:3], f32>) {
  // expected-error @+1 {{'tessel.fused' op result 1 has type '!tessel.tensor<[], f32>', whose dimensions are not those of the value summed '!tessel.tensor<[k:3], f32>' in its order}}
  %y:2 = tessel.fused %x : (!tessel.tensor<[k:3], f32>) -> (!tessel.tensor<[], f32>, !tessel.tensor<[], f32>) {
  ^bb0(%a: !tessel.tensor<[k:3], f32>):
    %n = tessel.mul %a, %a : !tessel.tensor<[k:3], f32>, !tessel.tensor<[k:3], f32> -> !tessel.tensor<[k:3], f32>
    %s = tessel.reduce sum %n : !tessel.tensor<[k:3], f32> -> !tessel.tensor<[], f32>
    tessel.yield %s, %s : !tessel.tensor<[], f32>, !tessel.tensor<[], f32>
  }
  return
}

// -----

func.func @yield_outside(%x: !tessel.tensor<[k:3], f32>) {
  // expected-error @+1 {{'tessel.yield' op expects parent op 'tessel.fused'}}
  tessel.yield %x : !tessel.tensor<[k:3], f32>
}

// -----

func.func @kept_dims_apart(%x: !tessel.tensor<[k:3, j:2, i:4], f32>) {
  %y = tessel.fused %x : (!tessel.tensor<[k:3, j:2, i:4], f32>) -> !tessel.tensor<[k:3, i:4], f32> {
  ^bb0(%a: !tessel.tensor<[k:3, j:2, i:4], f32>):
    %e = tessel.exp %a : !tessel.tensor<[k:3, j:2, i:4], f32>
    // expected-error @+1 {{'tessel.reduce' op in a tessel.fused body must be a sum or mean that keeps a run of its input's dimensions in their order}}
    %s = tessel.reduce sum %e : !tessel.tensor<[k:3, j:2, i:4], f32> -> !tessel.tensor<[k:3, i:4], f32>
    tessel.yield %s : !tessel.tensor<[k:3, i:4], f32>
  }
  return
}

// -----

func.func @max_not_sum(%x: !tessel.tensor<[k:3], f32>) {
  %y = tessel.fused %x : (!tessel.tensor<[k:3], f32>) -> !tessel.tensor<[], f32> {
  ^bb0(%a: !tessel.tensor<[k:3], f32>):
    %e = tessel.exp %a : !tessel.tensor<[k:3], f32>
    // expected-error @+1 {{'tessel.reduce' op in a tessel.fused body must be a sum or mean that keeps a run of its input's dimensions in their order}}
    %s = tessel.reduce max %e : !tessel.tensor<[k:3], f32> -> !tessel.tensor<[], f32>
    tessel.yield %s : !tessel.tensor<[], f32>
  }
  return
}

// -----

func.func @sum_not_last(%x: !tessel.tensor<[k:3], f32>) {
  %y = tessel.fused %x : (!tessel.tensor<[k:3], f32>) -> !tessel.tensor<[], f32> {
  ^bb0(%a: !tessel.tensor<[k:3], f32>):
    // expected-error @+1 {{'tessel.reduce' op cannot be part of a tessel.fused body: only element-wise ops, splat constants and a last sum can}}
    %s = tessel.reduce sum %a : !tessel.tensor<[k:3], f32> -> !tessel.tensor<[], f32>
    %e = tessel.exp %s : !tessel.tensor<[], f32>
    tessel.yield %e : !tessel.tensor<[], f32>
  }
  return
}

// -----

func.func @summed_value_dims(%x: !tessel.tensor<[k:3], f32>, %v: !tessel.tensor<[j:2], f32>) {
  %y = tessel.fused %x, %v : (!tessel.tensor<[k:3], f32>, !tessel.tensor<[j:2], f32>) -> !tessel.tensor<[], f32> {
  ^bb0(%a: !tessel.tensor<[k:3], f32>, %b: !tessel.tensor<[j:2], f32>):
    // expected-error @+1 {{'tessel.exp' op in a tessel.fused body has type '!tessel.tensor<[j:2], f32>', whose dimensions are not those of the value the body sums '!tessel.tensor<[k:3], f32>'}}
    %e = tessel.exp %b : !tessel.tensor<[j:2], f32>
    %m = tessel.mul %a, %a : !tessel.tensor<[k:3], f32>, !tessel.tensor<[k:3], f32> -> !tessel.tensor<[k:3], f32>
    %s = tessel.reduce sum %m : !tessel.tensor<[k:3], f32> -> !tessel.tensor<[], f32>
    tessel.yield %s : !tessel.tensor<[], f32>
  }
  return
}
