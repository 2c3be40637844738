// Shape ops on the way from the data to a scalar loss, for the differential
// sweep: reshapes that split a dimension (hidden -> [heads, head_dim]),
// merge two into one (seq and heads into tokens) and regroup (tokens and
// head_dim into seq and hidden2); slices, pads (with zero and with another
// value) and concatenations along one dimension while others are split, and
// along split dimensions themselves. The training step runs their gradients
// too: pads become slices and back, a concatenation becomes slices.
func.func @forward(
    %x: !tessel.tensor<[batch:8, seq:6, feat:4], f32> {tessel.name = "x"},
    %t: !tessel.tensor<[batch:8, seq:8, out:5], f32> {tessel.name = "t"})
    -> !tessel.tensor<[], f32> {
  %w1 = tessel.parameter "w1" normal scale 0.5 seed 1
      : !tessel.tensor<[feat:4, hidden:12], f32>
  %g = tessel.parameter "g" normal scale 1.0 seed 2
      : !tessel.tensor<[heads:4, head_dim:3], f32>
  %w2 = tessel.parameter "w2" normal scale 0.3 seed 3
      : !tessel.tensor<[hidden2:12, out:5], f32>
  %w3 = tessel.parameter "w3" normal scale 0.3 seed 4
      : !tessel.tensor<[hidden2:20, out:5], f32>

  %h0 = tessel.einsum %x, %w1
      : (!tessel.tensor<[batch:8, seq:6, feat:4], f32>,
         !tessel.tensor<[feat:4, hidden:12], f32>)
      -> !tessel.tensor<[batch:8, seq:6, hidden:12], f32>
  %h = tessel.tanh %h0 : !tessel.tensor<[batch:8, seq:6, hidden:12], f32>

  // hidden splits into heads (its major part) and head_dim.
  %q = tessel.reshape %h : !tessel.tensor<[batch:8, seq:6, hidden:12], f32>
      -> !tessel.tensor<[batch:8, seq:6, heads:4, head_dim:3], f32>
  %qg = tessel.mul %q, %g
      : !tessel.tensor<[batch:8, seq:6, heads:4, head_dim:3], f32>,
        !tessel.tensor<[heads:4, head_dim:3], f32>
      -> !tessel.tensor<[batch:8, seq:6, heads:4, head_dim:3], f32>
  // seq (the major part) and heads merge into tokens.
  %tk = tessel.reshape %qg
      : !tessel.tensor<[batch:8, seq:6, heads:4, head_dim:3], f32>
      -> !tessel.tensor<[batch:8, tokens:24, head_dim:3], f32>
  // [tokens:24, head_dim:3] and [seq:6, hidden2:12] are one group.
  %r = tessel.reshape %tk : !tessel.tensor<[batch:8, tokens:24, head_dim:3], f32>
      -> !tessel.tensor<[batch:8, seq:6, hidden2:12], f32>

  %s = tessel.slice %r {dims = ["seq", "hidden2"], starts = array<i64: 1, 2>}
      : !tessel.tensor<[batch:8, seq:6, hidden2:12], f32>
      -> !tessel.tensor<[batch:8, seq:4, hidden2:8], f32>
  %p = tessel.pad %s {dims = ["hidden2"], low = array<i64: 1>,
                      high = array<i64: 3>, value = 5.000000e-01}
      : !tessel.tensor<[batch:8, seq:4, hidden2:8], f32>
      -> !tessel.tensor<[batch:8, seq:4, hidden2:12], f32>
  %ps = tessel.pad %s {dims = ["seq"], low = array<i64: 1>, high = array<i64: 1>}
      : !tessel.tensor<[batch:8, seq:4, hidden2:8], f32>
      -> !tessel.tensor<[batch:8, seq:6, hidden2:8], f32>
  %c = tessel.concat %r, %p over "seq"
      : (!tessel.tensor<[batch:8, seq:6, hidden2:12], f32>,
         !tessel.tensor<[batch:8, seq:4, hidden2:12], f32>)
      -> !tessel.tensor<[batch:8, seq:10, hidden2:12], f32>
  %c1 = tessel.concat %r, %ps over "hidden2"
      : (!tessel.tensor<[batch:8, seq:6, hidden2:12], f32>,
         !tessel.tensor<[batch:8, seq:6, hidden2:8], f32>)
      -> !tessel.tensor<[batch:8, seq:6, hidden2:20], f32>

  %y1 = tessel.einsum %c, %w2
      : (!tessel.tensor<[batch:8, seq:10, hidden2:12], f32>,
         !tessel.tensor<[hidden2:12, out:5], f32>)
      -> !tessel.tensor<[batch:8, seq:10, out:5], f32>
  %y2 = tessel.einsum %c1, %w3
      : (!tessel.tensor<[batch:8, seq:6, hidden2:20], f32>,
         !tessel.tensor<[hidden2:20, out:5], f32>)
      -> !tessel.tensor<[batch:8, seq:6, out:5], f32>
  %y2p = tessel.pad %y2 {dims = ["seq"], low = array<i64: 2>, high = array<i64: 2>}
      : !tessel.tensor<[batch:8, seq:6, out:5], f32>
      -> !tessel.tensor<[batch:8, seq:10, out:5], f32>
  %y = tessel.add %y1, %y2p
      : !tessel.tensor<[batch:8, seq:10, out:5], f32>,
        !tessel.tensor<[batch:8, seq:10, out:5], f32>
      -> !tessel.tensor<[batch:8, seq:10, out:5], f32>
  %ys = tessel.slice %y {dims = ["seq"], starts = array<i64: 1>}
      : !tessel.tensor<[batch:8, seq:10, out:5], f32>
      -> !tessel.tensor<[batch:8, seq:8, out:5], f32>

  %d = tessel.sub %ys, %t
      : !tessel.tensor<[batch:8, seq:8, out:5], f32>,
        !tessel.tensor<[batch:8, seq:8, out:5], f32>
      -> !tessel.tensor<[batch:8, seq:8, out:5], f32>
  %sq = tessel.mul %d, %d
      : !tessel.tensor<[batch:8, seq:8, out:5], f32>,
        !tessel.tensor<[batch:8, seq:8, out:5], f32>
      -> !tessel.tensor<[batch:8, seq:8, out:5], f32>
  %loss = tessel.reduce mean %sq
      : !tessel.tensor<[batch:8, seq:8, out:5], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}
