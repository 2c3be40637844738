func.func @compare_bad_kind(%q: !tessel.tensor<[seq:8], i32>, %k: !tessel.tensor<[key:8], i32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [eq, ne, lt, le, gt, ge]}}
  %m = tessel.compare approx, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
      -> !tessel.tensor<[seq:8, key:8], i1>
  return
}
