// Errors of the verifiers of the element-wise ops: float-only unary ops,
// broadcasting by name, compare, select and cast.

func.func @exp_integer(%x: !tessel.tensor<[k:3], i32>) {
  // expected-error @+1 {{'tessel.exp' op expected the operand to hold floats, got 'i32'}}
  %y = tessel.exp %x : !tessel.tensor<[k:3], i32>
  return
}
