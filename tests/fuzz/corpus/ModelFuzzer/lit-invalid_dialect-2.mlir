// A layout is not a mesh.
// expected-error @+1 {{'tessel.mesh' must be a #tessel.mesh attribute}}
module attributes {tessel.mesh = #tessel.layout<{batch = [data]}>} {
}
