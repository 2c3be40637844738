module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_gather_overflows(%x: !tessel.tensor<[hidden:4611686018427387904], i1>) {
    // expected-error @+1 {{'tessel.all_gather' op dimension 'hidden' of size 4611686018427387904 times the 4 ranks of the group is larger than 2^63 - 1}}
    %g = tessel.all_gather %x along "hidden" over ["model"]
        : !tessel.tensor<[hidden:4611686018427387904], i1> -> !tessel.tensor<[hidden:1], i1>
    return
  }
}

