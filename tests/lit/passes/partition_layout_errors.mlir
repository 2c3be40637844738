// RUN: tessel-opt %s -split-input-file -verify-diagnostics --tessel-partition

// A layout that names an axis the mesh lacks (written by hand or by another
// tool) is an error naming the op, the dimension and the axis, not a block
// of unknown size.
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
func.func @reshape_unknown_axis(%x: !tessel.tensor<[batch:8, hidden:16], f32>)
    -> !tessel.tensor<[batch:8, heads:4, hd:4], f32, #tessel.layout<{heads = [rows]}>> {
  // expected-error @+1 {{'tessel.reshape' op dimension 'heads' is split over 'rows', which is not an axis of the mesh #tessel.mesh<[data:2, model:4]>}}
  %r = tessel.reshape %x : !tessel.tensor<[batch:8, hidden:16], f32>
      -> !tessel.tensor<[batch:8, heads:4, hd:4], f32, #tessel.layout<{heads = [rows]}>>
  return %r : !tessel.tensor<[batch:8, heads:4, hd:4], f32, #tessel.layout<{heads = [rows]}>>
}
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
// expected-error @+1 {{argument #1 of @concat_unknown_axis: dimension 'seq' is split over 'rows', which is not an axis of the mesh}}
func.func @concat_unknown_axis(%a: !tessel.tensor<[seq:4], f32>, %b: !tessel.tensor<[seq:4], f32, #tessel.layout<{seq = [rows]}>>)
    -> !tessel.tensor<[seq:8], f32> {
  %c = tessel.concat %a, %b over "seq"
      : (!tessel.tensor<[seq:4], f32>, !tessel.tensor<[seq:4], f32, #tessel.layout<{seq = [rows]}>>)
      -> !tessel.tensor<[seq:8], f32>
  return %c : !tessel.tensor<[seq:8], f32>
}
}
