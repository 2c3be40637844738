// Every layout mistake is an error that names the file, line and column,
// the tensor, the dimension and the axis, never a crash.

// RUN: not tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/axis_twice.yaml 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: apply_layout_errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: tensor 'w' '!tessel.tensor<[heads:4, hidden:8], f32>': mesh axis 'model' splits both 'heads' and 'hidden'
// TWICE: axis_twice.yaml:2:10: note: 'heads' is split by this rule

// RUN: not tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/not_divisible.yaml 2>&1 | FileCheck %s --check-prefix=DIVIDE
// DIVIDE: error: tensor 'images' '!tessel.tensor<[batch:8, heads:4], f32>': dimension 'batch' of size 8 does not divide over 'data' (3 blocks)
// DIVIDE: not_divisible.yaml:3:3: note: 'batch' is split by this rule

// RUN: not tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/unknown_axis.yaml 2>&1 | FileCheck %s --check-prefix=AXIS
// AXIS: unknown_axis.yaml:3:3: error: dimension 'batch' is split over 'pipe', which is not an axis of the mesh data:2

// RUN: not tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/axis_repeated.yaml 2>&1 | FileCheck %s --check-prefix=REPEAT
// REPEAT: axis_repeated.yaml:3:3: error: dimension 'batch' uses mesh axis 'data' twice

// RUN: tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/unused_rule.yaml 2>&1 | FileCheck %s --check-prefix=UNUSED
// UNUSED: unused_rule.yaml:4:3: warning: rule for dimension 'bacth' matches no tensor

// RUN: not tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/unknown_tensor.yaml 2>&1 | FileCheck %s --check-prefix=TENSOR
// TENSOR: unknown_tensor.yaml:4:3: error: override names tensor 'logits', which no argument, parameter or named op defines

// RUN: not tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/unknown_override_dim.yaml 2>&1 | FileCheck %s --check-prefix=ODIM
// ODIM: unknown_override_dim.yaml:4:7: error: override for tensor 'w' names dimension 'vocab', which it does not have

// RUN: not tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/bad_sizes.yaml 2>&1 | FileCheck %s --check-prefix=SIZES
// SIZES: bad_sizes.yaml:1:14: error: mesh axis 'data' has size 0; sizes must be >= 1
// SIZES: bad_sizes.yaml:1:24: error: mesh axis 'model' has size -2; sizes must be >= 1

// RUN: not tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/non_integer.yaml 2>&1 | FileCheck %s --check-prefix=NONINT
// NONINT: non_integer.yaml:1:14: error: mesh axis 'data' has size 'two'; sizes must be integers

func.func @model(%x: !tessel.tensor<[batch:8, heads:4], f32> {tessel.name = "images"}) {
  %w = tessel.parameter "w" normal scale 1.0 seed 1 : !tessel.tensor<[heads:4, hidden:8], f32>
  return
}

// RUN: not tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/duplicate_keys.yaml 2>&1 | FileCheck %s --check-prefix=DUP
// DUP-DAG: duplicate_keys.yaml:5:1: error: duplicate key 'mesh' in the layout file
// DUP-DAG: duplicate_keys.yaml:4:3: error: duplicate key 'batch' in the rules

// RUN: not tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/duplicate_keys2.yaml 2>&1 | FileCheck %s --check-prefix=DUP2
// DUP2: duplicate_keys2.yaml:1:17: error: duplicate key 'data' in mesh

// RUN: not tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/duplicate_keys3.yaml 2>&1 | FileCheck %s --check-prefix=DUP3
// DUP3: duplicate_keys3.yaml:4:3: error: duplicate key 'w' in overrides

// RUN: not tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/malformed.yaml 2>&1 | FileCheck %s --check-prefix=YAML
// YAML: malformed.yaml:{{[0-9]+}}:{{[0-9]+}}: error: malformed YAML:

// RUN: not tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/unknown_key.yaml 2>&1 | FileCheck %s --check-prefix=KEY
// KEY: unknown_key.yaml:2:1: error: unknown key 'layuot' (expected mesh, layout, overrides, pad_uneven or pipeline)

// RUN: not tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/absent.yaml 2>&1 | FileCheck %s --check-prefix=ABSENT
// ABSENT: error: {{.*}}absent.yaml: cannot open layout file

// RUN: not tessel-opt %s --tessel-apply-layout="mesh=data:2;model rules=batch:data" 2>&1 | FileCheck %s --check-prefix=MTF
// MTF: error: <command line>: malformed mesh axis 'model' (expected name:size)

// RUN: not tessel-opt %s --tessel-apply-layout="mesh=data:2 rules=batch" 2>&1 | FileCheck %s --check-prefix=MTFRULE
// MTFRULE: error: <command line>: malformed rule 'batch' (expected dim:axis or dim:axis,axis)

// RUN: not tessel-opt %s --tessel-apply-layout 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: error: tessel-apply-layout needs a layout: pass layout-file=FILE or mesh=... rules=...

// Rules without a mesh string were dropped: beside a layout file (which
// has rules of its own) or alone.
// RUN: not tessel-opt %s --tessel-apply-layout="layout-file=%S/Inputs/strings.yaml rules=heads:data" 2>&1 | FileCheck %s --check-prefix=RULESFILE
// RULESFILE: error: tessel-apply-layout: rules='heads:data' needs mesh=... to split over; a layout-file has rules of its own
// RUN: not tessel-opt %s --tessel-apply-layout="rules=batch:data" 2>&1 | FileCheck %s --check-prefix=RULESONLY
// RULESONLY: error: tessel-apply-layout: rules='batch:data' needs mesh=... to split over{{$}}

// The strings may stand in the YAML file too.
// RUN: tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/strings.yaml 2>&1 | FileCheck %s --check-prefix=STRINGS
// STRINGS: module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>}
// STRINGS: !tessel.tensor<[batch:8, heads:4], f32, #tessel.layout<{batch = [data]}>>
