// Every layout mistake is an error that names the file, line and column,
// the tensor, the dimension and the axis, never a crash.










func.func @model(%x: !tessel.tensor<[batch:8, heads:4], f32> {tessel.name = "images"}) {
  %w = tessel.parameter "w" normal scale 1.0 seed 1 : !tessel.tensor<[heads:4, hidden:8], f32>
  return
}

// DUP-DAG: duplicate_keys.yaml:5:1: error: duplicate key 'mesh' in the layout file
// DUP-DAG: duplicate_keys.yaml:4:3: error: duplicate key 'batch' in the rules









// The strings may stand in the YAML file too.
