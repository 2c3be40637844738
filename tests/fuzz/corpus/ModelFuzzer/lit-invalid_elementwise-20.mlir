func.func @compare_size(%q: !tessel.tensor<[seq:8], i32>, %k: !tessel.tensor<[key:8], i32>) {
  // expected-error @+1 {{'tessel.compare' op dimension 'key' has size 8 in operand #1 but 4 in the result}}
  %m = tessel.compare ge, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
      -> !tessel.tensor<[seq:8, key:4], i1>
  return
}
