// The Transformer example runs on the reference evaluator; with its small
// initial weights the loss on random tokens is close to ln(256) = 5.545.
// RUN: tessel-eval %examples/transformer/transformer.mlir --random-inputs | FileCheck %s

// CHECK: result0: [] f32 = 5.{{[4-7][0-9]*}}{{$}}
