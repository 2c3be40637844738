func.func @compare_broadcast(%q: !tessel.tensor<[seq:8], i32>, %k: !tessel.tensor<[key:8], i32>) {
  // expected-error @+1 {{'tessel.compare' op result dimension 'batch' does not come from any operand}}
  %m = tessel.compare ge, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
      -> !tessel.tensor<[batch:2, seq:8, key:8], i1>
  return
}
