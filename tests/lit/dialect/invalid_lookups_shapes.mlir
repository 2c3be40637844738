// Errors of the verifiers of gather, one_hot, rename, reshape, transpose,
// slice, concat and pad.
// RUN: tessel-opt %s -split-input-file -verify-diagnostics

!t = !tessel.tensor<[vocab:256, d_model:64], f32>
!i = !tessel.tensor<[batch:4, seq:16], i32>
func.func @gather_missing_dim(%t: !t, %i: !i) {
  // expected-error @+1 {{'tessel.gather' op table has no dimension 'tokens'}}
  %e = tessel.gather %t[%i] over "tokens" : !t, !i -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
  return
}

// -----

!t = !tessel.tensor<[vocab:256, d_model:64], f32>
!i = !tessel.tensor<[batch:4, seq:16], f32>
func.func @gather_float_ids(%t: !t, %i: !i) {
  // expected-error @+1 {{'tessel.gather' op expected ids to hold integers, got 'f32'}}
  %e = tessel.gather %t[%i] over "vocab" : !t, !i -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
  return
}

// -----

!t = !tessel.tensor<[vocab:256, d_model:64], f32>
!i = !tessel.tensor<[batch:4, d_model:64], i32>
func.func @gather_shared_dim(%t: !t, %i: !i) {
  // expected-error @+1 {{'tessel.gather' op dimension 'd_model' is in both the ids and the table}}
  %e = tessel.gather %t[%i] over "vocab" : !t, !i -> !tessel.tensor<[batch:4, d_model:64], f32>
  return
}

// -----

!t = !tessel.tensor<[vocab:256, d_model:64], f32>
!i = !tessel.tensor<[batch:4, seq:16], i32>
func.func @gather_result_missing_dim(%t: !t, %i: !i) {
  // expected-error @+1 {{'tessel.gather' op result is missing dimension 'seq'}}
  %e = tessel.gather %t[%i] over "vocab" : !t, !i -> !tessel.tensor<[batch:4, d_model:64], f32>
  return
}

// -----

!t = !tessel.tensor<[vocab:256, d_model:64], f32>
!i = !tessel.tensor<[batch:4, seq:16], i32>
func.func @gather_result_size(%t: !t, %i: !i) {
  // expected-error @+1 {{'tessel.gather' op result dimension 'd_model' has size 32, expected 64}}
  %e = tessel.gather %t[%i] over "vocab" : !t, !i -> !tessel.tensor<[batch:4, seq:16, d_model:32], f32>
  return
}

// -----

!t = !tessel.tensor<[vocab:256, d_model:64], f32>
!i = !tessel.tensor<[batch:4, seq:16], i32>
func.func @gather_result_keeps_vocab(%t: !t, %i: !i) {
  // expected-error @+1 {{'tessel.gather' op result has unexpected dimension 'vocab'}}
  %e = tessel.gather %t[%i] over "vocab" : !t, !i -> !tessel.tensor<[batch:4, seq:16, vocab:256, d_model:64], f32>
  return
}

// -----

!t = !tessel.tensor<[vocab:256, d_model:64], f32>
!i = !tessel.tensor<[batch:4, seq:16], i32>
func.func @gather_element_type(%t: !t, %i: !i) {
  // expected-error @+1 {{'tessel.gather' op expected one element type, got 'f32' and 'bf16'}}
  %e = tessel.gather %t[%i] over "vocab" : !t, !i -> !tessel.tensor<[batch:4, seq:16, d_model:64], bf16>
  return
}

// -----

func.func @one_hot_float_ids(%i: !tessel.tensor<[batch:4], f32>) {
  // expected-error @+1 {{'tessel.one_hot' op expected ids to hold integers, got 'f32'}}
  %o = tessel.one_hot %i as "classes" : !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[batch:4, classes:10], f32>
  return
}

// -----

func.func @one_hot_existing_dim(%i: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.one_hot' op ids already have dimension 'batch'}}
  %o = tessel.one_hot %i as "batch" : !tessel.tensor<[batch:4], i32> -> !tessel.tensor<[batch:4], f32>
  return
}

// -----

func.func @one_hot_result_missing_new_dim(%i: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.one_hot' op result has no dimension 'classes'}}
  %o = tessel.one_hot %i as "classes" : !tessel.tensor<[batch:4], i32> -> !tessel.tensor<[batch:4, labels:10], f32>
  return
}

// -----

func.func @one_hot_result_missing_ids_dim(%i: !tessel.tensor<[batch:4, seq:8], i32>) {
  // expected-error @+1 {{'tessel.one_hot' op result is missing dimension 'seq'}}
  %o = tessel.one_hot %i as "classes" : !tessel.tensor<[batch:4, seq:8], i32> -> !tessel.tensor<[batch:4, classes:10], f32>
  return
}

// -----

func.func @one_hot_result_size(%i: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.one_hot' op result dimension 'batch' has size 2, expected 4}}
  %o = tessel.one_hot %i as "classes" : !tessel.tensor<[batch:4], i32> -> !tessel.tensor<[batch:2, classes:10], f32>
  return
}

// -----

func.func @one_hot_result_extra_dim(%i: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.one_hot' op result has unexpected dimension 'extra'}}
  %o = tessel.one_hot %i as "classes" : !tessel.tensor<[batch:4], i32> -> !tessel.tensor<[batch:4, extra:1, classes:10], f32>
  return
}

// -----

func.func @rename_rank(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.rename' op rename keeps the rank and every size, position by position}}
  %r = tessel.rename %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[rows:32], f32>
  return
}

// -----

func.func @rename_positions(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.rename' op rename keeps the rank and every size, position by position}}
  %r = tessel.rename %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[features:8, rows:4], f32>
  return
}

// -----

func.func @rename_element_type(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.rename' op expected one element type, got 'f32' and 'f16'}}
  %r = tessel.rename %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, features:8], f16>
  return
}

// -----

func.func @reshape_count(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.reshape' op input has 32 elements but the result has 24}}
  %r = tessel.reshape %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, heads:2, head_dim:3], f32>
  return
}

// -----

func.func @reshape_element_type(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.reshape' op expected one element type, got 'f32' and 'i32'}}
  %r = tessel.reshape %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[n:32], i32>
  return
}

// -----

func.func @transpose_missing_dim(%x: !tessel.tensor<[a:2, b:3], f32>) {
  // expected-error @+1 {{'tessel.transpose' op result is missing dimension 'a'}}
  %t = tessel.transpose %x : !tessel.tensor<[a:2, b:3], f32> -> !tessel.tensor<[b:3, c:2], f32>
  return
}

// -----

func.func @transpose_size(%x: !tessel.tensor<[a:2, b:3], f32>) {
  // expected-error @+1 {{'tessel.transpose' op result dimension 'a' has size 3, expected 2}}
  %t = tessel.transpose %x : !tessel.tensor<[a:2, b:3], f32> -> !tessel.tensor<[b:2, a:3], f32>
  return
}

// -----

func.func @transpose_extra_dim(%x: !tessel.tensor<[a:2, b:3], f32>) {
  // expected-error @+1 {{'tessel.transpose' op result has unexpected dimension 'c'}}
  %t = tessel.transpose %x : !tessel.tensor<[a:2, b:3], f32> -> !tessel.tensor<[b:3, c:1, a:2], f32>
  return
}

// -----

func.func @transpose_element_type(%x: !tessel.tensor<[a:2, b:3], f32>) {
  // expected-error @+1 {{'tessel.transpose' op expected one element type, got 'f32' and 'f64'}}
  %t = tessel.transpose %x : !tessel.tensor<[a:2, b:3], f32> -> !tessel.tensor<[b:3, a:2], f64>
  return
}

// -----

func.func @slice_lengths(%x: !tessel.tensor<[batch:2, seq:16], f32>) {
  // expected-error @+1 {{'tessel.slice' op expected one start per sliced dimension}}
  %s = tessel.slice %x {dims = ["seq"], starts = array<i64: 4, 0>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:2, seq:8], f32>
  return
}

// -----

func.func @slice_repeated_dim(%x: !tessel.tensor<[batch:2, seq:16], f32>) {
  // expected-error @+1 {{'tessel.slice' op dims lists dimension 'seq' twice}}
  %s = tessel.slice %x {dims = ["seq", "seq"], starts = array<i64: 4, 0>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:2, seq:8], f32>
  return
}

// -----

func.func @slice_missing_dim(%x: !tessel.tensor<[batch:2, seq:16], f32>) {
  // expected-error @+1 {{'tessel.slice' op input has no dimension 'key'}}
  %s = tessel.slice %x {dims = ["key"], starts = array<i64: 4>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:2, seq:8], f32>
  return
}

// -----

func.func @slice_reorders(%x: !tessel.tensor<[batch:2, seq:16], f32>) {
  // expected-error @+1 {{'tessel.slice' op result must have the input's dimensions in the same order}}
  %s = tessel.slice %x {dims = ["seq"], starts = array<i64: 4>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[seq:8, batch:2], f32>
  return
}

// -----

func.func @slice_unsliced_resized(%x: !tessel.tensor<[batch:2, seq:16], f32>) {
  // expected-error @+1 {{'tessel.slice' op dimension 'batch' is not sliced but changes size}}
  %s = tessel.slice %x {dims = ["seq"], starts = array<i64: 4>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:1, seq:8], f32>
  return
}

// -----

func.func @slice_past_end(%x: !tessel.tensor<[batch:2, seq:16], f32>) {
  // expected-error @+1 {{'tessel.slice' op slice [10, 18) of dimension 'seq' is outside its size 16}}
  %s = tessel.slice %x {dims = ["seq"], starts = array<i64: 10>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:2, seq:8], f32>
  return
}

// -----

func.func @slice_negative_start(%x: !tessel.tensor<[batch:2, seq:16], f32>) {
  // expected-error @+1 {{'tessel.slice' op slice [-1, 7) of dimension 'seq' is outside its size 16}}
  %s = tessel.slice %x {dims = ["seq"], starts = array<i64: -1>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:2, seq:8], f32>
  return
}

// -----

func.func @slice_element_type(%x: !tessel.tensor<[batch:2, seq:16], f32>) {
  // expected-error @+1 {{'tessel.slice' op expected one element type, got 'f32' and 'bf16'}}
  %s = tessel.slice %x {dims = ["seq"], starts = array<i64: 0>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:2, seq:8], bf16>
  return
}

// -----

func.func @concat_no_inputs() {
  // expected-error @+1 {{'tessel.concat' op expected at least one input}}
  %c = tessel.concat over "seq" : () -> !tessel.tensor<[seq:6], f32>
  return
}

// -----

func.func @concat_missing_dim(%a: !tessel.tensor<[seq:4, d:8], f32>, %b: !tessel.tensor<[key:2, d:8], f32>) {
  // expected-error @+1 {{'tessel.concat' op input has no dimension 'seq'}}
  %c = tessel.concat %a, %b over "seq"
      : (!tessel.tensor<[seq:4, d:8], f32>, !tessel.tensor<[key:2, d:8], f32>) -> !tessel.tensor<[seq:6, d:8], f32>
  return
}

// -----

func.func @concat_order(%a: !tessel.tensor<[seq:4, d:8], f32>, %b: !tessel.tensor<[d:8, seq:2], f32>) {
  // expected-error @+1 {{'tessel.concat' op inputs must have the same dimensions in the same order}}
  %c = tessel.concat %a, %b over "seq"
      : (!tessel.tensor<[seq:4, d:8], f32>, !tessel.tensor<[d:8, seq:2], f32>) -> !tessel.tensor<[seq:6, d:8], f32>
  return
}

// -----

func.func @concat_other_size(%a: !tessel.tensor<[seq:4, d:8], f32>, %b: !tessel.tensor<[seq:2, d:4], f32>) {
  // expected-error @+1 {{'tessel.concat' op dimension 'd' differs in size between inputs (8 and 4)}}
  %c = tessel.concat %a, %b over "seq"
      : (!tessel.tensor<[seq:4, d:8], f32>, !tessel.tensor<[seq:2, d:4], f32>) -> !tessel.tensor<[seq:6, d:8], f32>
  return
}

// -----

func.func @concat_result_order(%a: !tessel.tensor<[seq:4, d:8], f32>, %b: !tessel.tensor<[seq:2, d:8], f32>) {
  // expected-error @+1 {{'tessel.concat' op result must have the inputs' dimensions in the same order}}
  %c = tessel.concat %a, %b over "seq"
      : (!tessel.tensor<[seq:4, d:8], f32>, !tessel.tensor<[seq:2, d:8], f32>) -> !tessel.tensor<[d:8, seq:6], f32>
  return
}

// -----

func.func @concat_result_size(%a: !tessel.tensor<[seq:4, d:8], f32>, %b: !tessel.tensor<[seq:2, d:8], f32>) {
  // expected-error @+1 {{'tessel.concat' op result dimension 'seq' has size 8, expected 6}}
  %c = tessel.concat %a, %b over "seq"
      : (!tessel.tensor<[seq:4, d:8], f32>, !tessel.tensor<[seq:2, d:8], f32>) -> !tessel.tensor<[seq:8, d:8], f32>
  return
}

// -----

func.func @concat_element_types(%a: !tessel.tensor<[seq:4, d:8], f32>, %b: !tessel.tensor<[seq:2, d:8], f16>) {
  // expected-error @+1 {{'tessel.concat' op expected one element type, got 'f32' and 'f16'}}
  %c = tessel.concat %a, %b over "seq"
      : (!tessel.tensor<[seq:4, d:8], f32>, !tessel.tensor<[seq:2, d:8], f16>) -> !tessel.tensor<[seq:6, d:8], f32>
  return
}

// -----

func.func @pad_lengths(%x: !tessel.tensor<[h:4, w:3], f32>) {
  // expected-error @+1 {{'tessel.pad' op expected one low and one high per padded dimension}}
  %p = tessel.pad %x {dims = ["h"], low = array<i64: 1>, high = array<i64: 2, 0>}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:7, w:3], f32>
  return
}

// -----

func.func @pad_repeated_dim(%x: !tessel.tensor<[h:4, w:3], f32>) {
  // expected-error @+1 {{'tessel.pad' op dims lists dimension 'h' twice}}
  %p = tessel.pad %x {dims = ["h", "h"], low = array<i64: 1, 1>, high = array<i64: 2, 2>}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:7, w:3], f32>
  return
}

// -----

func.func @pad_missing_dim(%x: !tessel.tensor<[h:4, w:3], f32>) {
  // expected-error @+1 {{'tessel.pad' op input has no dimension 'x'}}
  %p = tessel.pad %x {dims = ["x"], low = array<i64: 1>, high = array<i64: 2>}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:7, w:3], f32>
  return
}

// -----

func.func @pad_reorders(%x: !tessel.tensor<[h:4, w:3], f32>) {
  // expected-error @+1 {{'tessel.pad' op result must have the input's dimensions in the same order}}
  %p = tessel.pad %x {dims = ["h"], low = array<i64: 1>, high = array<i64: 2>}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[w:3, h:7], f32>
  return
}

// -----

func.func @pad_negative(%x: !tessel.tensor<[h:4, w:3], f32>) {
  // expected-error @+1 {{'tessel.pad' op padding of 'w' must not be negative}}
  %p = tessel.pad %x {dims = ["h", "w"], low = array<i64: 1, 0>, high = array<i64: 2, -1>}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:7, w:2], f32>
  return
}

// -----

func.func @pad_result_size(%x: !tessel.tensor<[h:4, w:3], f32>) {
  // expected-error @+1 {{'tessel.pad' op result dimension 'h' has size 6, expected 7}}
  %p = tessel.pad %x {dims = ["h"], low = array<i64: 1>, high = array<i64: 2>}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:6, w:3], f32>
  return
}

// -----

func.func @pad_unpadded_resized(%x: !tessel.tensor<[h:4, w:3], f32>) {
  // expected-error @+1 {{'tessel.pad' op dimension 'w' is not padded but changes size}}
  %p = tessel.pad %x {dims = ["h"], low = array<i64: 1>, high = array<i64: 2>}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:7, w:5], f32>
  return
}

// -----

func.func @pad_element_type(%x: !tessel.tensor<[h:4, w:3], f32>) {
  // expected-error @+1 {{'tessel.pad' op expected one element type, got 'f32' and 'i32'}}
  %p = tessel.pad %x {dims = ["h"], low = array<i64: 1>, high = array<i64: 2>}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:7, w:3], i32>
  return
}
