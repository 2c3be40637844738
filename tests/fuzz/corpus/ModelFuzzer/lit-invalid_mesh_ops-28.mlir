module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_to_all_indivisible(%x: !tessel.tensor<[heads:2, seq:6], f32>) {
    // expected-error @+1 {{'tessel.all_to_all' op dimension 'seq' of size 6 does not divide into 4 blocks}}
    %t = tessel.all_to_all %x split "seq" concat "heads" over ["model"] : !tessel.tensor<[heads:2, seq:6], f32> -> !tessel.tensor<[heads:8, seq:1], f32>
    return
  }
}
