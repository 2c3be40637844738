// expected-error @+1 {{unsupported element type 'i8' (expected f32, f16, bf16, f64, i1, i32 or i64)}}
func.func private @bad_element_type(!tessel.tensor<[batch:4], i8>)
