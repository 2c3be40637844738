// The mesh of an outer module covers nested modules.
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
  module {
    func.func @nested(%x: !tessel.tensor<[batch:16], f32>) -> !tessel.tensor<[batch:16], f32> {
      // expected-error @+1 {{'tessel.all_reduce' op mesh has no axis 'model'}}
      %s = tessel.all_reduce sum %x over ["model"] : !tessel.tensor<[batch:16], f32>
      return %s : !tessel.tensor<[batch:16], f32>
    }
  }
}
