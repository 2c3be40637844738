// Tensors whose size in bytes does not fit in int64_t are refused by the
// !tessel.tensor verifier. Found with tests/fuzz/ModelFuzzer (UBSan) on a
// hand-written probe: the reshape verifier multiplied such sizes and
// overflowed (undefined behaviour).
// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// The probe.
// expected-error @+1 {{dimension 'hidden' of size 4294967296 makes the tensor larger than 2^63 - 1 bytes}}
func.func @reshape(%x: !tessel.tensor<[batch:4294967296, hidden:4294967296], f32>) -> !tessel.tensor<[n:2], f32> {
  %s = tessel.reshape %x : !tessel.tensor<[batch:4294967296, hidden:4294967296], f32> -> !tessel.tensor<[n:2], f32>
  return %s : !tessel.tensor<[n:2], f32>
}

// -----

// The element size counts: 2^60 f64 elements are 2^63 bytes, one too many.
// expected-error @+1 {{dimension 'n' of size 1152921504606846976 makes the tensor larger than 2^63 - 1 bytes}}
func.func private @f64_bytes(!tessel.tensor<[n:1152921504606846976], f64>)

// -----

// The largest tensors that fit are accepted.
func.func private @largest_f64(!tessel.tensor<[n:1152921504606846975], f64>)
func.func private @largest_i1(!tessel.tensor<[a:2, n:4611686018427387903], i1>)
