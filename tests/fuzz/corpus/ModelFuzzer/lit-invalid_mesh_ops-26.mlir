module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_to_all_no_axes(%x: !tessel.tensor<[heads:2, seq:64], f32>) {
    // expected-error @+1 {{'tessel.all_to_all' op expected at least one mesh axis}}
    %t = tessel.all_to_all %x split "seq" concat "heads" over [] : !tessel.tensor<[heads:2, seq:64], f32> -> !tessel.tensor<[heads:2, seq:64], f32>
    return
  }
}
