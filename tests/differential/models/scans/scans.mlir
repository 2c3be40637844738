// sin, cos, cumsum and argmax on the way from the data to a scalar loss, for
// the differential sweep: rotary-style angles (positions from iota times a
// trained frequency per hidden unit) mix the hidden units with their sines
// and cosines; a prefix sum along seq and a suffix sum along hidden scan
// the result; the argmax over hidden picks, through one_hot, which unit of
// each position counts in the loss. Under the sweep's layouts seq and hidden
// are split, so the scans and the argmax gather them; the training step runs
// the gradients of sin, cos and both cumsums (argmax has none).
func.func @forward(
    %x: !tessel.tensor<[batch:8, seq:6, feat:4], f32> {tessel.name = "x"})
    -> !tessel.tensor<[], f32> {
  %w = tessel.parameter "w" normal scale 0.5 seed 1
      : !tessel.tensor<[feat:4, hidden:8], f32>
  %freq = tessel.parameter "freq" normal scale 0.3 seed 2
      : !tessel.tensor<[hidden:8], f32>

  %h = tessel.einsum %x, %w
      : (!tessel.tensor<[batch:8, seq:6, feat:4], f32>,
         !tessel.tensor<[feat:4, hidden:8], f32>)
      -> !tessel.tensor<[batch:8, seq:6, hidden:8], f32>

  // angle[seq, hidden] = position * freq[hidden]
  %pos = tessel.iota "seq" : !tessel.tensor<[seq:6], i32>
  %posf = tessel.cast %pos : !tessel.tensor<[seq:6], i32> -> !tessel.tensor<[seq:6], f32>
  %angle = tessel.mul %posf, %freq
      : !tessel.tensor<[seq:6], f32>, !tessel.tensor<[hidden:8], f32>
      -> !tessel.tensor<[seq:6, hidden:8], f32>
  %sin = tessel.sin %angle : !tessel.tensor<[seq:6, hidden:8], f32>
  %cos = tessel.cos %angle : !tessel.tensor<[seq:6, hidden:8], f32>
  %hc = tessel.mul %h, %cos
      : !tessel.tensor<[batch:8, seq:6, hidden:8], f32>,
        !tessel.tensor<[seq:6, hidden:8], f32>
      -> !tessel.tensor<[batch:8, seq:6, hidden:8], f32>
  %th = tessel.tanh %h : !tessel.tensor<[batch:8, seq:6, hidden:8], f32>
  %hs = tessel.mul %th, %sin
      : !tessel.tensor<[batch:8, seq:6, hidden:8], f32>,
        !tessel.tensor<[seq:6, hidden:8], f32>
      -> !tessel.tensor<[batch:8, seq:6, hidden:8], f32>
  %rot = tessel.add %hc, %hs
      : !tessel.tensor<[batch:8, seq:6, hidden:8], f32>,
        !tessel.tensor<[batch:8, seq:6, hidden:8], f32>
      -> !tessel.tensor<[batch:8, seq:6, hidden:8], f32>

  // Scans along seq (forward) and hidden (backward).
  %prefix = tessel.cumsum %rot over "seq" : !tessel.tensor<[batch:8, seq:6, hidden:8], f32>
  %suffix = tessel.cumsum %prefix over "hidden" reverse
      : !tessel.tensor<[batch:8, seq:6, hidden:8], f32>
  %sq = tessel.mul %suffix, %suffix
      : !tessel.tensor<[batch:8, seq:6, hidden:8], f32>,
        !tessel.tensor<[batch:8, seq:6, hidden:8], f32>
      -> !tessel.tensor<[batch:8, seq:6, hidden:8], f32>
  %energy = tessel.reduce mean %sq
      : !tessel.tensor<[batch:8, seq:6, hidden:8], f32> -> !tessel.tensor<[], f32>

  // The unit of each position with the largest prefix sum counts again.
  %best = tessel.argmax %prefix over "hidden"
      : !tessel.tensor<[batch:8, seq:6, hidden:8], f32> -> !tessel.tensor<[batch:8, seq:6], i32>
  %pick = tessel.one_hot %best as "hidden"
      : !tessel.tensor<[batch:8, seq:6], i32> -> !tessel.tensor<[batch:8, seq:6, hidden:8], f32>
  %picked = tessel.mul %pick, %prefix
      : !tessel.tensor<[batch:8, seq:6, hidden:8], f32>,
        !tessel.tensor<[batch:8, seq:6, hidden:8], f32>
      -> !tessel.tensor<[batch:8, seq:6, hidden:8], f32>
  %top = tessel.reduce mean %picked
      : !tessel.tensor<[batch:8, seq:6, hidden:8], f32> -> !tessel.tensor<[], f32>
  %loss = tessel.add %energy, %top
      : !tessel.tensor<[], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}
