func.func @pad_element_type(%x: !tessel.tensor<[h:4, w:3], f32>) {
  // expected-error @+1 {{'tessel.pad' op expected one element type, got 'f32' and 'i32'}}
  %p = tessel.pad %x {dims = ["h"], low = array<i64: 1>, high = array<i64: 2>}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:7, w:3], i32>
  return
}
