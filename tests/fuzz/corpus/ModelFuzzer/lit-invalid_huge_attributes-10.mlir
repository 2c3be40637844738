module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @halo_overflows(%x: !tessel.tensor<[h:4611686018427387904], i1>) {
    // expected-error @+1 {{'tessel.halo_exchange' op halo [4611686018427387904, 4611686018427387904] of dimension 'h' (size 4611686018427387904) makes it larger than 2^63 - 1}}
    %h = tessel.halo_exchange %x along "h" over "model" halo [4611686018427387904, 4611686018427387904]
        : !tessel.tensor<[h:4611686018427387904], i1> -> !tessel.tensor<[h:1], i1>
    return
  }
}

