module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_to_all_reorders(%x: !tessel.tensor<[heads:2, seq:64], f32>) {
    // expected-error @+1 {{'tessel.all_to_all' op result must have the input's dimensions in the same order}}
    %t = tessel.all_to_all %x split "seq" concat "heads" over ["model"] : !tessel.tensor<[heads:2, seq:64], f32> -> !tessel.tensor<[seq:16, heads:8], f32>
    return
  }
}
