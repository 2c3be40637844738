func.func @log_integer(%x: !tessel.tensor<[k:3], i64>) {
  // expected-error @+1 {{'tessel.log' op expected the operand to hold floats, got 'i64'}}
  %y = tessel.log %x : !tessel.tensor<[k:3], i64>
  return
}
