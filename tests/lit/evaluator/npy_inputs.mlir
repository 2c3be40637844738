// Inputs come from .npy files by argument name, and outputs go back to
// .npy: the second run reads what the first wrote.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tessel-eval %s --function make --output-dir %t | FileCheck %s --check-prefix=MAKE
// RUN: tessel-eval %s --function double --input x=%t/result0.npy | FileCheck %s --check-prefix=DOUBLE
// RUN: not tessel-eval %s --function double 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tessel-eval %s --function double --input y=%t/result0.npy 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not tessel-eval %s --function wrong_shape --input x=%t/result0.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not tessel-eval %s --function double --input x=%t/absent.npy 2>&1 | FileCheck %s --check-prefix=ABSENT

// MAKE: result0: [k:4] f32 = 0 1 2 3
func.func @make() -> !tessel.tensor<[k:4], f32> {
  %i = tessel.iota "k" : !tessel.tensor<[k:4], f32>
  return %i : !tessel.tensor<[k:4], f32>
}

// DOUBLE: result0: [k:4] f32 = 0 2 4 6
// MISSING: error: no value for input 'x': pass --input x=FILE.npy or --random-inputs
// UNKNOWN: error: function 'double' has no input named 'y'
// ABSENT: error: input 'x': {{.*}}absent.npy: No such file or directory
func.func @double(%x: !tessel.tensor<[k:4], f32> {tessel.name = "x"})
    -> !tessel.tensor<[k:4], f32> {
  %y = tessel.add %x, %x
      : !tessel.tensor<[k:4], f32>, !tessel.tensor<[k:4], f32>
      -> !tessel.tensor<[k:4], f32>
  return %y : !tessel.tensor<[k:4], f32>
}

// SHAPE: error: input 'x': {{.*}}result0.npy: array has shape (4,) but the input is [k:2, m:2]
func.func @wrong_shape(%x: !tessel.tensor<[k:2, m:2], f32> {tessel.name = "x"})
    -> !tessel.tensor<[k:2, m:2], f32> {
  return %x : !tessel.tensor<[k:2, m:2], f32>
}
