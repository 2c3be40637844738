// The dialect-level case "a binary op whose named dims disagree in size".
func.func @mul_named_dims_disagree(%x: !tessel.tensor<[batch:4, hidden:8], f32>,
                                   %b: !tessel.tensor<[hidden:4], f32>) {
  // expected-error @+1 {{'tessel.mul' op dimension 'hidden' has size 4 in operand #1 but 8 in the result}}
  %y = tessel.mul %x, %b
      : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[hidden:4], f32>
      -> !tessel.tensor<[batch:4, hidden:8], f32>
  return
}
