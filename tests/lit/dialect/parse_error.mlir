// A malformed file is reported with its file name, line and column, and
// tessel-opt exits with an error.
// RUN: not tessel-opt %s 2>&1 | FileCheck %s

func.func @forward(%x: !tessel.tensor<[batch:4, hidden:8], f32>)
    -> !tessel.tensor<[batch:4, hidden:8], f32> {
  // CHECK: {{.*}}parse_error.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected ':'
  %y = tessel.relu %x !tessel.tensor<[batch:4, hidden:8], f32>
  return %y : !tessel.tensor<[batch:4, hidden:8], f32>
}
