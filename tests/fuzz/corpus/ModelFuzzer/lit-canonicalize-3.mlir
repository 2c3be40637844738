// A cast that only changes the layout is not an identity.
func.func @layout_cast(%x: !tessel.tensor<[batch:4], f32>)
    -> !tessel.tensor<[batch:4], f32, #tessel.layout<{batch = [data]}>> {
  %c = tessel.cast %x : !tessel.tensor<[batch:4], f32>
      -> !tessel.tensor<[batch:4], f32, #tessel.layout<{batch = [data]}>>
  return %c : !tessel.tensor<[batch:4], f32, #tessel.layout<{batch = [data]}>>
}
