// tessel-eval's options that would lose a file or check nothing are
// refused by name before anything is written.
// RUN: rm -rf %t && mkdir -p %t/ref %t/out
// RUN: tessel-eval %s --function make --output-dir %t/ref | FileCheck %s --check-prefix=MAKE
// MAKE: result0.rank0: [k:2] f32 = 0 1
// MAKE: result0.rank1: [k:2] f32 = 0 1

// Results written into the --check-against directory replaced the
// references and were then compared with themselves: every check passed.
// RUN: not tessel-eval %s --function make --output-dir %t/ref --check-against %t/ref 2>&1 | FileCheck %s --check-prefix=SAME-DIR
// SAME-DIR: tessel-eval: --output-dir {{.*}}ref is the --check-against directory; the results would replace the references they are compared with

// A result written over an input (each rank's, with {rank}) replaced it.
// RUN: cp %t/ref/result0.rank1.npy %t/before.npy
// RUN: not tessel-eval %s --function double --input "x=%t/ref/result0.rank{rank}.npy" --output-dir %t/ref 2>&1 | FileCheck %s --check-prefix=OVER-INPUT
// OVER-INPUT: tessel-eval: --output-dir {{.*}}ref would write {{.*}}ref/result0.rank0.npy over input 'x'; write the results elsewhere
// RUN: cmp %t/before.npy %t/ref/result0.rank1.npy
// RUN: tessel-eval %s --function double --input "x=%t/ref/result0.rank{rank}.npy" --output-dir %t/out | FileCheck %s --check-prefix=DOUBLE
// DOUBLE: result0.rank1: [k:2] f32 = 0 2

// An input or an option given twice kept the last one without a word.
// RUN: not tessel-eval %s --function double --input x=%t/ref/result0.rank0.npy --input x=%t/ref/result0.rank1.npy 2>&1 | FileCheck %s --check-prefix=INPUT-TWICE
// INPUT-TWICE: tessel-eval: --input 'x' is given twice ({{.*}}result0.rank0.npy and {{.*}}result0.rank1.npy)
// RUN: not tessel-eval %s --function make --function double 2>&1 | FileCheck %s --check-prefix=OPTION-TWICE
// OPTION-TWICE: tessel-eval: --function is given 2 times; give it once

// Tolerances and steps that are NaN, infinite or of the wrong sign.
// RUN: not tessel-eval %s --function make --check-against %t/ref --rtol nan 2>&1 | FileCheck %s --check-prefix=RTOL
// RTOL: tessel-eval: --rtol nan: must be a finite number, 0 or more
// RUN: not tessel-eval %s --function make --check-against %t/ref --atol -1 2>&1 | FileCheck %s --check-prefix=ATOL
// ATOL: tessel-eval: --atol -1: must be a finite number, 0 or more
// RUN: not tessel-eval %s --function make --check-gradients --gradient-step 0 2>&1 | FileCheck %s --check-prefix=STEP
// STEP: tessel-eval: --gradient-step 0: must be a finite number above 0
// RUN: not tessel-eval %s --function make --check-gradients --gradient-tolerance inf 2>&1 | FileCheck %s --check-prefix=TOLERANCE
// TOLERANCE: tessel-eval: --gradient-tolerance inf: must be a finite number, 0 or more

// An empty path read as none: --output-dir "" wrote nothing without a word.
// RUN: not tessel-eval %s --function make --output-dir "" 2>&1 | FileCheck %s --check-prefix=EMPTY-PATH
// EMPTY-PATH: tessel-eval: --output-dir is given an empty path

module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
  func.func @make() -> !tessel.tensor<[k:2], f32> {
    %i = tessel.iota "k" : !tessel.tensor<[k:2], f32>
    return %i : !tessel.tensor<[k:2], f32>
  }
  func.func @double(%x: !tessel.tensor<[k:2], f32> {tessel.name = "x"})
      -> !tessel.tensor<[k:2], f32> {
    %y = tessel.add %x, %x
        : !tessel.tensor<[k:2], f32>, !tessel.tensor<[k:2], f32>
        -> !tessel.tensor<[k:2], f32>
    return %y : !tessel.tensor<[k:2], f32>
  }
}
