// Round trip of #tessel.mesh and #tessel.layout, standing alone and as the
// module's `tessel.mesh` attribute.

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func private @meshes() attributes {
      one = #tessel.mesh<[x:1]>,
      quoted = #tessel.mesh<["axis 0":2, "rows":3]>,
      three = #tessel.mesh<[a:2, b:2, c:2]>}

  func.func private @layouts() attributes {
      empty = #tessel.layout<{}>,
      multi = #tessel.layout<{hidden = [data, model]}>,
      quoted = #tessel.layout<{"my dim" = "axis 0"}>,
      short = #tessel.layout<{batch = data}>,
      two = #tessel.layout<{batch = [data], hidden = [model]}>}
}

// Any op may name its result with the discardable `tessel.name` attribute.
func.func @named_result(%x: !tessel.tensor<[batch:4], f32> {tessel.name = "x"})
    -> !tessel.tensor<[batch:4], f32> {
  %h = tessel.relu %x {tessel.name = "hidden"} : !tessel.tensor<[batch:4], f32>
  return %h : !tessel.tensor<[batch:4], f32>
}
