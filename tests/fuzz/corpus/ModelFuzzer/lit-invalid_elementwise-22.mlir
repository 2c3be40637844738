func.func @compare_result_not_i1(%q: !tessel.tensor<[seq:8], i32>, %k: !tessel.tensor<[key:8], i32>) {
  // expected-error @+1 {{'tessel.compare' op result must hold i1, got 'i32'}}
  %m = tessel.compare eq, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
      -> !tessel.tensor<[seq:8, key:8], i32>
  return
}
