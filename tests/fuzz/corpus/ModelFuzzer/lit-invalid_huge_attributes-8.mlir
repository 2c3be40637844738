// Each input fits (2^62 bytes of i1), their sum does not.
!half = !tessel.tensor<[seq:4611686018427387904], i1>
func.func @concat_overflows(%a: !half, %b: !half) {
  // expected-error @+1 {{'tessel.concat' op the sizes of dimension 'seq' add up to more than 2^63 - 1}}
  %c = tessel.concat %a, %b over "seq" : (!half, !half) -> !tessel.tensor<[seq:1], i1>
  return
}

