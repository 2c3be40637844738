// From a file, with overrides for a parameter and for a named op: an
// override wins over the rules, and `[]` keeps a dimension whole.
func.func @overrides(%x: !tessel.tensor<[batch:8, hidden:16], f32>) {
  %w = tessel.parameter "w" normal scale 1.0 seed 1 : !tessel.tensor<[in:4, hidden:16], f32>
  %e = tessel.parameter "emb" normal scale 1.0 seed 2 : !tessel.tensor<[vocab:8, hidden:16], f32>
  %r = tessel.relu %x {tessel.name = "gathered"} : !tessel.tensor<[batch:8, hidden:16], f32>
  return
}
