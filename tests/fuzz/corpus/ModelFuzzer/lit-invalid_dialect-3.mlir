// The name is currently printed with quotes ('"tessel.meshes"'), because
// the verifier streams the StringAttr rather than its value; accept both.
// expected-error-re @+1 {{unknown tessel attribute '{{"?}}tessel.meshes{{"?}}'}}
module attributes {tessel.meshes = #tessel.mesh<[data:2]>} {
}
