// Names, not positions, match: [a:2, b:3] and [b:2, a:3] disagree on both.
func.func @div_positions_do_not_match(%x: !tessel.tensor<[a:2, b:3], f32>,
                                      %y: !tessel.tensor<[b:2, a:3], f32>) {
  // expected-error @+1 {{'tessel.div' op dimension 'b' has size 2 in operand #1 but 3 in the result}}
  %z = tessel.div %x, %y
      : !tessel.tensor<[a:2, b:3], f32>, !tessel.tensor<[b:2, a:3], f32>
      -> !tessel.tensor<[a:2, b:3], f32>
  return
}
