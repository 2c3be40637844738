module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_to_all_concat_size(%x: !tessel.tensor<[heads:2, seq:64], f32>) {
    // expected-error @+1 {{'tessel.all_to_all' op result dimension 'heads' has size 2, expected 8}}
    %t = tessel.all_to_all %x split "seq" concat "heads" over ["model"] : !tessel.tensor<[heads:2, seq:64], f32> -> !tessel.tensor<[heads:2, seq:16], f32>
    return
  }
}
