func.func @pad_result_size(%x: !tessel.tensor<[h:4, w:3], f32>) {
  // expected-error @+1 {{'tessel.pad' op result dimension 'h' has size 6, expected 7}}
  %p = tessel.pad %x {dims = ["h"], low = array<i64: 1>, high = array<i64: 2>}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:6, w:3], f32>
  return
}
