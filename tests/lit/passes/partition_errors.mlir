// RUN: not tessel-opt %s --tessel-partition 2>&1 | FileCheck %s
// CHECK: error: tessel-partition needs a mesh: run tessel-apply-layout first
func.func @f(%x: !tessel.tensor<[k:2], f32>) {
  return
}
