func.func @compare_element_types(%q: !tessel.tensor<[seq:8], i32>, %k: !tessel.tensor<[key:8], f32>) {
  // expected-error @+1 {{'tessel.compare' op expected one element type, got 'i32' and 'f32'}}
  %m = tessel.compare lt, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], f32>
      -> !tessel.tensor<[seq:8, key:8], i1>
  return
}
