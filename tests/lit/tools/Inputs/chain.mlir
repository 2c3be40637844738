// A chain of layer calls for tessel search's stage axis (search_stages.test):
// `pre`, `act0` and `act1` hold no parameters, so they join the segment
// before them (`pre`, the first, the one after): the segments are
// [pre, fc0, act0], [fc1, act1] and [fc2].
module {
  func.func @forward(%x: !tessel.tensor<[batch:8, feat:16], f32> {tessel.name = "x"}) -> !tessel.tensor<[], f32> {
    %0 = call @Act(%x) {tessel.scope = "pre"} : (!tessel.tensor<[batch:8, feat:16], f32>) -> !tessel.tensor<[batch:8, feat:16], f32>
    %1 = call @Linear(%0) {tessel.scope = "fc0"} : (!tessel.tensor<[batch:8, feat:16], f32>) -> !tessel.tensor<[batch:8, feat:16], f32>
    %2 = call @Act(%1) {tessel.scope = "act0"} : (!tessel.tensor<[batch:8, feat:16], f32>) -> !tessel.tensor<[batch:8, feat:16], f32>
    %3 = call @Linear(%2) {tessel.scope = "fc1"} : (!tessel.tensor<[batch:8, feat:16], f32>) -> !tessel.tensor<[batch:8, feat:16], f32>
    %4 = call @Act(%3) {tessel.scope = "act1"} : (!tessel.tensor<[batch:8, feat:16], f32>) -> !tessel.tensor<[batch:8, feat:16], f32>
    %5 = call @Linear(%4) {tessel.scope = "fc2"} : (!tessel.tensor<[batch:8, feat:16], f32>) -> !tessel.tensor<[batch:8, feat:16], f32>
    %6 = tessel.mul %5, %5 : !tessel.tensor<[batch:8, feat:16], f32>, !tessel.tensor<[batch:8, feat:16], f32> -> !tessel.tensor<[batch:8, feat:16], f32>
    %7 = tessel.reduce mean %6 : !tessel.tensor<[batch:8, feat:16], f32> -> !tessel.tensor<[], f32>
    return %7 : !tessel.tensor<[], f32>
  }
  func.func private @Linear(%x: !tessel.tensor<[batch:8, feat:16], f32>) -> !tessel.tensor<[batch:8, feat:16], f32> {
    %w = tessel.parameter "w" normal scale 2.500000e-01 seed 7 : !tessel.tensor<[feat:16, out:16], f32>
    %y = tessel.einsum %x, %w : (!tessel.tensor<[batch:8, feat:16], f32>, !tessel.tensor<[feat:16, out:16], f32>) -> !tessel.tensor<[batch:8, out:16], f32>
    %r = tessel.rename %y : !tessel.tensor<[batch:8, out:16], f32> -> !tessel.tensor<[batch:8, feat:16], f32>
    return %r : !tessel.tensor<[batch:8, feat:16], f32>
  }
  func.func private @Act(%x: !tessel.tensor<[batch:8, feat:16], f32>) -> !tessel.tensor<[batch:8, feat:16], f32> {
    %y = tessel.gelu %x : !tessel.tensor<[batch:8, feat:16], f32>
    return %y : !tessel.tensor<[batch:8, feat:16], f32>
  }
}
