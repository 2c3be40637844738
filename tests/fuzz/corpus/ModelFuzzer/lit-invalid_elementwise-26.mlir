func.func @select_element_types(%m: !tessel.tensor<[seq:8], i1>,
                                %s: !tessel.tensor<[seq:8], f32>,
                                %n: !tessel.tensor<[], bf16>) {
  // expected-error @+1 {{'tessel.select' op expected one element type, got 'f32' and 'bf16'}}
  %r = tessel.select %m, %s, %n
      : !tessel.tensor<[seq:8], i1>, !tessel.tensor<[seq:8], f32>,
        !tessel.tensor<[], bf16> -> !tessel.tensor<[seq:8], f32>
  return
}
