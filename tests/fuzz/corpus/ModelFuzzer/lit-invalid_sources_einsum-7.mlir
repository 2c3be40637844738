func.func @iota_missing_dim() {
  // expected-error @+1 {{'tessel.iota' op result has no dimension 'key'}}
  %q = tessel.iota "key" : !tessel.tensor<[seq:8], i32>
  return
}
