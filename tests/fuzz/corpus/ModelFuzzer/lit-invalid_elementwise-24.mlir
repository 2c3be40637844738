func.func @select_condition_dim(%m: !tessel.tensor<[seq:8, key:8], i1>,
                                %s: !tessel.tensor<[heads:2, seq:8], f32>,
                                %n: !tessel.tensor<[], f32>) {
  // expected-error @+1 {{'tessel.select' op operand #0 has dimension 'key', which the result does not have}}
  %r = tessel.select %m, %s, %n
      : !tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[heads:2, seq:8], f32>,
        !tessel.tensor<[], f32> -> !tessel.tensor<[heads:2, seq:8], f32>
  return
}
