// An integer input takes whole numbers within its type from a .npy file:
// a float label of 2.5 is not truncated to 2, nor an int64 of 2^32 + 3
// wrapped to 3; whole numbers stored as floats are read exactly.
// RUN: not tessel-eval %s --input labels=%S/Inputs/fractional_labels.npy 2>&1 | FileCheck %s --check-prefix=FRACTION
// RUN: not tessel-eval %s --input labels=%S/Inputs/wide_labels.npy 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: tessel-eval %s --input labels=%S/Inputs/whole_float_labels.npy 2>&1 | FileCheck %s --check-prefix=WHOLE
// FRACTION: error: input 'labels': {{.*}}fractional_labels.npy: element 2 is 2.5, which the i32 input cannot hold
// WIDE: error: input 'labels': {{.*}}wide_labels.npy: element 2 is 4294967299, which the i32 input cannot hold
// WHOLE: result0: [k:4] i32 = 0 1 2 3
func.func @main(%labels: !tessel.tensor<[k:4], i32> {tessel.name = "labels"}) -> !tessel.tensor<[k:4], i32> {
  return %labels : !tessel.tensor<[k:4], i32>
}
