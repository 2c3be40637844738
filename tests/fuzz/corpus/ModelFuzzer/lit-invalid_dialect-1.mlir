// expected-error @+1 {{'tessel.mesh' must be a #tessel.mesh attribute}}
module attributes {tessel.mesh = [2, 4]} {
}
