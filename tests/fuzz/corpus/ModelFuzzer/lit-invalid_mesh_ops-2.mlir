func.func @all_to_all_no_mesh(%x: !tessel.tensor<[heads:2, seq:64], f32>) {
  // expected-error @+1 {{'tessel.all_to_all' op requires a 'tessel.mesh' attribute on an enclosing module}}
  %t = tessel.all_to_all %x split "seq" concat "heads" over ["model"] : !tessel.tensor<[heads:2, seq:64], f32> -> !tessel.tensor<[heads:8, seq:16], f32>
  return
}
