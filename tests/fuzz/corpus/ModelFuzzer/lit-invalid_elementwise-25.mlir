func.func @select_on_false_size(%m: !tessel.tensor<[seq:8], i1>,
                                %s: !tessel.tensor<[seq:8], f32>,
                                %n: !tessel.tensor<[seq:4], f32>) {
  // expected-error @+1 {{'tessel.select' op dimension 'seq' has size 4 in operand #2 but 8 in the result}}
  %r = tessel.select %m, %s, %n
      : !tessel.tensor<[seq:8], i1>, !tessel.tensor<[seq:8], f32>,
        !tessel.tensor<[seq:4], f32> -> !tessel.tensor<[seq:8], f32>
  return
}
