module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_to_all_missing_concat_dim(%x: !tessel.tensor<[heads:2, seq:64], f32>) {
    // expected-error @+1 {{'tessel.all_to_all' op input has no dimension 'experts'}}
    %t = tessel.all_to_all %x split "seq" concat "experts" over ["model"] : !tessel.tensor<[heads:2, seq:64], f32> -> !tessel.tensor<[heads:8, seq:16], f32>
    return
  }
}
