// A verifier error inside a type, raised while parsing, also points at its
// file, line and column; nothing is printed on stdout.
// RUN: not tessel-opt %s 2>&1 >/dev/null | FileCheck %s
// RUN: not tessel-opt %s 2>/dev/null | count 0

// CHECK: {{.*}}parse_error_type.mlir:[[@LINE+2]]:{{[0-9]+}}: error: dimension 'batch' appears twice in one tensor
// CHECK-NOT: error:
func.func private @f(!tessel.tensor<[batch:4, batch:8], f32>)
