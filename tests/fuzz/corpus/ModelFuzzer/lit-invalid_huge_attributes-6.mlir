// An end of exactly 2^63 - 1 is an ordinary slice outside the dimension.
func.func @slice_largest_end(%x: !tessel.tensor<[batch:2, seq:16], f32>) {
  // expected-error @+1 {{'tessel.slice' op slice [9223372036854775799, 9223372036854775807) of dimension 'seq' is outside its size 16}}
  %s = tessel.slice %x {dims = ["seq"], starts = array<i64: 9223372036854775799>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:2, seq:8], f32>
  return
}

