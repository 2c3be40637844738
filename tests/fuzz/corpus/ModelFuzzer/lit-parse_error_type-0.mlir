// A verifier error inside a type, raised while parsing, also points at its
// file, line and column; nothing is printed on stdout.

func.func private @f(!tessel.tensor<[batch:4, batch:8], f32>)
