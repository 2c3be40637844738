// Rules split every tensor's dimensions by name; unnamed dimensions stay
// replicated, and the function signature follows.
func.func @dense(%x: !tessel.tensor<[batch:8, in:4], f32>) -> !tessel.tensor<[batch:8, hidden:16], f32> {
  %w = tessel.parameter "w" normal scale 1.0 seed 1 : !tessel.tensor<[in:4, hidden:16], f32>
  %y = tessel.einsum %x, %w : (!tessel.tensor<[batch:8, in:4], f32>, !tessel.tensor<[in:4, hidden:16], f32>)
      -> !tessel.tensor<[batch:8, hidden:16], f32>
  return %y : !tessel.tensor<[batch:8, hidden:16], f32>
}


// One dimension over two axes, outermost first.
// MULTI-LABEL: func.func @dense
// MULTI-SAME: !tessel.tensor<[batch:8, in:4], f32, #tessel.layout<{batch = [data, model]}>>
