// Errors of the verifiers of reduce, softmax, log_softmax,
// softmax_cross_entropy, layer_norm, cumsum, argmax and top_k.
// RUN: tessel-opt %s -split-input-file -verify-diagnostics

func.func @reduce_new_dim(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.reduce' op result dimension 'vocab' is not an input dimension}}
  %r = tessel.reduce sum %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[vocab:4], f32>
  return
}

// -----

func.func @reduce_size(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.reduce' op result dimension 'hidden' has size 4 but 8 in the input}}
  %r = tessel.reduce max %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[hidden:4], f32>
  return
}

// -----

func.func @reduce_element_type(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.reduce' op expected one element type, got 'f32' and 'f64'}}
  %r = tessel.reduce mean %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[], f64>
  return
}

// -----

func.func @reduce_bad_kind(%x: !tessel.tensor<[batch:4], f32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [sum, mean, max, min, prod]}}
  %r = tessel.reduce median %x : !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[], f32>
  return
}

// -----

func.func @softmax_missing_dim(%x: !tessel.tensor<[batch:4, vocab:10], f32>) {
  // expected-error @+1 {{'tessel.softmax' op input has no dimension 'classes'}}
  %p = tessel.softmax %x over "classes" : !tessel.tensor<[batch:4, vocab:10], f32>
  return
}

// -----

func.func @softmax_integer(%x: !tessel.tensor<[batch:4, vocab:10], i32>) {
  // expected-error @+1 {{'tessel.softmax' op expected the input to hold floats, got 'i32'}}
  %p = tessel.softmax %x over "vocab" : !tessel.tensor<[batch:4, vocab:10], i32>
  return
}

// -----

func.func @softmax_result_shape(%x: !tessel.tensor<[batch:4, vocab:10], f32>) {
  // expected-error @+1 {{'tessel.softmax' op result '!tessel.tensor<[batch:4, vocab:10], f16>' must have the dimensions and element type of the operand '!tessel.tensor<[batch:4, vocab:10], f32>'}}
  %p = tessel.softmax %x over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32> -> !tessel.tensor<[batch:4, vocab:10], f16>
  return
}

// -----

func.func @log_softmax_missing_dim(%x: !tessel.tensor<[batch:4, vocab:10], f32>) {
  // expected-error @+1 {{'tessel.log_softmax' op input has no dimension 'seq'}}
  %p = tessel.log_softmax %x over "seq" : !tessel.tensor<[batch:4, vocab:10], f32>
  return
}

// -----

func.func @log_softmax_integer(%x: !tessel.tensor<[batch:4, vocab:10], i64>) {
  // expected-error @+1 {{'tessel.log_softmax' op expected the input to hold floats, got 'i64'}}
  %p = tessel.log_softmax %x over "vocab" : !tessel.tensor<[batch:4, vocab:10], i64>
  return
}

// -----

func.func @log_softmax_result_shape(%x: !tessel.tensor<[batch:4, vocab:10], f32>) {
  // expected-error @+1 {{'tessel.log_softmax' op result '!tessel.tensor<[batch:4], f32>' must have the dimensions and element type of the operand '!tessel.tensor<[batch:4, vocab:10], f32>'}}
  %p = tessel.log_softmax %x over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32> -> !tessel.tensor<[batch:4], f32>
  return
}

// -----

func.func @sce_missing_dim(%l: !tessel.tensor<[batch:4, vocab:10], f32>, %y: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op logits has no dimension 'classes'}}
  %c = tessel.softmax_cross_entropy %l, %y over "classes"
      : !tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:4], i32>
      -> !tessel.tensor<[batch:4], f32>
  return
}

// -----

func.func @sce_integer_logits(%l: !tessel.tensor<[batch:4, vocab:10], i32>, %y: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op expected logits to hold floats, got 'i32'}}
  %c = tessel.softmax_cross_entropy %l, %y over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], i32>, !tessel.tensor<[batch:4], i32>
      -> !tessel.tensor<[batch:4], i32>
  return
}

// -----

func.func @sce_float_labels(%l: !tessel.tensor<[batch:4, vocab:10], f32>, %y: !tessel.tensor<[batch:4], f32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op expected labels to hold integers, got 'f32'}}
  %c = tessel.softmax_cross_entropy %l, %y over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:4], f32>
      -> !tessel.tensor<[batch:4], f32>
  return
}

// -----

func.func @sce_labels_missing_dim(%l: !tessel.tensor<[batch:4, seq:8, vocab:10], f32>, %y: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op labels are missing dimension 'seq'}}
  %c = tessel.softmax_cross_entropy %l, %y over "vocab"
      : !tessel.tensor<[batch:4, seq:8, vocab:10], f32>, !tessel.tensor<[batch:4], i32>
      -> !tessel.tensor<[batch:4, seq:8], f32>
  return
}

// -----

func.func @sce_labels_size(%l: !tessel.tensor<[batch:4, vocab:10], f32>, %y: !tessel.tensor<[batch:2], i32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op dimension 'batch' has size 4 in logits but 2 in labels}}
  %c = tessel.softmax_cross_entropy %l, %y over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:2], i32>
      -> !tessel.tensor<[batch:4], f32>
  return
}

// -----

func.func @sce_labels_extra_dim(%l: !tessel.tensor<[batch:4, vocab:10], f32>, %y: !tessel.tensor<[batch:4, seq:8], i32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op labels must have exactly the logits' dimensions other than 'vocab'}}
  %c = tessel.softmax_cross_entropy %l, %y over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:4, seq:8], i32>
      -> !tessel.tensor<[batch:4, seq:8], f32>
  return
}

// -----

// Labels that keep the class dimension are one-hot, not indices.
func.func @sce_labels_with_class_dim(%l: !tessel.tensor<[batch:4, vocab:10], f32>, %y: !tessel.tensor<[batch:4, vocab:10], i32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op labels must have exactly the logits' dimensions other than 'vocab'}}
  %c = tessel.softmax_cross_entropy %l, %y over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:4, vocab:10], i32>
      -> !tessel.tensor<[batch:4], f32>
  return
}

// -----

func.func @sce_result_missing_dim(%l: !tessel.tensor<[batch:4, vocab:10], f32>, %y: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op result is missing dimension 'batch'}}
  %c = tessel.softmax_cross_entropy %l, %y over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:4], i32>
      -> !tessel.tensor<[], f32>
  return
}

// -----

func.func @sce_result_size(%l: !tessel.tensor<[batch:4, vocab:10], f32>, %y: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op result dimension 'batch' has size 8, expected 4}}
  %c = tessel.softmax_cross_entropy %l, %y over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:4], i32>
      -> !tessel.tensor<[batch:8], f32>
  return
}

// -----

func.func @sce_result_extra_dim(%l: !tessel.tensor<[batch:4, vocab:10], f32>, %y: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op result has unexpected dimension 'vocab'}}
  %c = tessel.softmax_cross_entropy %l, %y over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:4], i32>
      -> !tessel.tensor<[batch:4, vocab:10], f32>
  return
}

// -----

func.func @sce_result_element_type(%l: !tessel.tensor<[batch:4, vocab:10], f32>, %y: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op expected one element type, got 'f32' and 'i32'}}
  %c = tessel.softmax_cross_entropy %l, %y over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:4], i32>
      -> !tessel.tensor<[batch:4], i32>
  return
}

// -----

func.func @layer_norm_no_dims(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.layer_norm' op expected at least one dimension to normalise}}
  %n = tessel.layer_norm %x over [] epsilon 1.0e-05 : !tessel.tensor<[batch:4, hidden:8], f32>
  return
}

// -----

func.func @layer_norm_zero_epsilon(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.layer_norm' op epsilon must be positive}}
  %n = tessel.layer_norm %x over ["hidden"] epsilon 0.0 : !tessel.tensor<[batch:4, hidden:8], f32>
  return
}

// -----

func.func @layer_norm_negative_epsilon(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.layer_norm' op epsilon must be positive}}
  %n = tessel.layer_norm %x over ["hidden"] epsilon -1.0e-05 : !tessel.tensor<[batch:4, hidden:8], f32>
  return
}

// -----

func.func @layer_norm_repeated_dim(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.layer_norm' op dims lists dimension 'hidden' twice}}
  %n = tessel.layer_norm %x over ["hidden", "batch", "hidden"] epsilon 1.0e-05
      : !tessel.tensor<[batch:4, hidden:8], f32>
  return
}

// -----

func.func @layer_norm_missing_dim(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.layer_norm' op input has no dimension 'd_model'}}
  %n = tessel.layer_norm %x over ["d_model"] epsilon 1.0e-05 : !tessel.tensor<[batch:4, hidden:8], f32>
  return
}

// -----

func.func @layer_norm_integer(%x: !tessel.tensor<[batch:4, hidden:8], i32>) {
  // expected-error @+1 {{'tessel.layer_norm' op expected the input to hold floats, got 'i32'}}
  %n = tessel.layer_norm %x over ["hidden"] epsilon 1.0e-05 : !tessel.tensor<[batch:4, hidden:8], i32>
  return
}

// -----

func.func @layer_norm_result_shape(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.layer_norm' op result '!tessel.tensor<[hidden:8, batch:4], f32>' must have the dimensions and element type of the operand '!tessel.tensor<[batch:4, hidden:8], f32>'}}
  %n = tessel.layer_norm %x over ["hidden"] epsilon 1.0e-05
      : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[hidden:8, batch:4], f32>
  return
}

// -----

func.func @cumsum_missing_dim(%x: !tessel.tensor<[batch:4, seq:8], f32>) {
  // expected-error @+1 {{'tessel.cumsum' op input has no dimension 'time'}}
  %c = tessel.cumsum %x over "time" : !tessel.tensor<[batch:4, seq:8], f32>
  return
}

// -----

func.func @cumsum_result_type(%x: !tessel.tensor<[batch:4, seq:8], f32>) {
  // expected-error @+1 {{'tessel.cumsum' op result '!tessel.tensor<[batch:4, seq:8], f64>' must have the dimensions and element type of the operand '!tessel.tensor<[batch:4, seq:8], f32>'}}
  %c = tessel.cumsum %x over "seq"
      : !tessel.tensor<[batch:4, seq:8], f32> -> !tessel.tensor<[batch:4, seq:8], f64>
  return
}

// -----

func.func @argmax_missing_dim(%x: !tessel.tensor<[batch:4, classes:10], f32>) {
  // expected-error @+1 {{'tessel.argmax' op input has no dimension 'vocab'}}
  %a = tessel.argmax %x over "vocab"
      : !tessel.tensor<[batch:4, classes:10], f32> -> !tessel.tensor<[batch:4], i32>
  return
}

// -----

func.func @argmax_float_result(%x: !tessel.tensor<[batch:4, classes:10], f32>) {
  // expected-error @+1 {{'tessel.argmax' op expected the result to hold integers, got 'f32'}}
  %a = tessel.argmax %x over "classes"
      : !tessel.tensor<[batch:4, classes:10], f32> -> !tessel.tensor<[batch:4], f32>
  return
}

// -----

func.func @argmax_i1_result(%x: !tessel.tensor<[batch:4, classes:10], f32>) {
  // expected-error @+1 {{'tessel.argmax' op result must hold integers wider than i1 (an index), got i1}}
  %a = tessel.argmax %x over "classes"
      : !tessel.tensor<[batch:4, classes:10], f32> -> !tessel.tensor<[batch:4], i1>
  return
}

// -----

func.func @argmax_keeps_dim(%x: !tessel.tensor<[batch:4, classes:10], f32>) {
  // expected-error @+1 {{'tessel.argmax' op result has unexpected dimension 'classes'}}
  %a = tessel.argmax %x over "classes"
      : !tessel.tensor<[batch:4, classes:10], f32> -> !tessel.tensor<[batch:4, classes:10], i32>
  return
}

// -----

func.func @argmax_drops_dim(%x: !tessel.tensor<[batch:4, classes:10], f32>) {
  // expected-error @+1 {{'tessel.argmax' op result is missing dimension 'batch'}}
  %a = tessel.argmax %x over "classes"
      : !tessel.tensor<[batch:4, classes:10], f32> -> !tessel.tensor<[], i32>
  return
}

// -----

func.func @argmax_size(%x: !tessel.tensor<[batch:4, classes:10], f32>) {
  // expected-error @+1 {{'tessel.argmax' op result dimension 'batch' has size 2, expected 4}}
  %a = tessel.argmax %x over "classes"
      : !tessel.tensor<[batch:4, classes:10], f32> -> !tessel.tensor<[batch:2], i32>
  return
}

// -----

func.func @top_k_missing_dim(%x: !tessel.tensor<[tokens:6, experts:4], f32>) {
  // expected-error @+1 {{'tessel.top_k' op input has no dimension 'vocab'}}
  %t = tessel.top_k %x over "vocab" k 2 as "choice"
      : !tessel.tensor<[tokens:6, experts:4], f32> -> !tessel.tensor<[tokens:6, choice:2], f32>
  return
}

// -----

func.func @top_k_zero(%x: !tessel.tensor<[tokens:6, experts:4], f32>) {
  // expected-error @+1 {{'tessel.top_k' op k must be between 1 and the size of 'experts' (4), got 0}}
  %t = tessel.top_k %x over "experts" k 0 as "choice"
      : !tessel.tensor<[tokens:6, experts:4], f32> -> !tessel.tensor<[tokens:6, choice:1], f32>
  return
}

// -----

func.func @top_k_too_many(%x: !tessel.tensor<[tokens:6, experts:4], f32>) {
  // expected-error @+1 {{'tessel.top_k' op k must be between 1 and the size of 'experts' (4), got 5}}
  %t = tessel.top_k %x over "experts" k 5 as "choice"
      : !tessel.tensor<[tokens:6, experts:4], f32> -> !tessel.tensor<[tokens:6, choice:5], f32>
  return
}

// -----

func.func @top_k_negative(%x: !tessel.tensor<[tokens:6, experts:4], f32>) {
  // expected-error @+1 {{'tessel.top_k' op k must be between 1 and the size of 'experts' (4), got -1}}
  %t = tessel.top_k %x over "experts" k -1 as "choice"
      : !tessel.tensor<[tokens:6, experts:4], f32> -> !tessel.tensor<[tokens:6, choice:2], f32>
  return
}

// -----

func.func @top_k_out_dim_exists(%x: !tessel.tensor<[tokens:6, experts:4], f32>) {
  // expected-error @+1 {{'tessel.top_k' op out_dim 'tokens' is already an input dimension}}
  %t = tessel.top_k %x over "experts" k 2 as "tokens"
      : !tessel.tensor<[tokens:6, experts:4], f32> -> !tessel.tensor<[tokens:6], f32>
  return
}

// -----

func.func @top_k_keeps_dim(%x: !tessel.tensor<[tokens:6, experts:4], f32>) {
  // expected-error @+1 {{'tessel.top_k' op result has unexpected dimension 'experts'}}
  %t = tessel.top_k %x over "experts" k 2 as "choice"
      : !tessel.tensor<[tokens:6, experts:4], f32> -> !tessel.tensor<[tokens:6, experts:4, choice:2], f32>
  return
}

// -----

func.func @top_k_no_out_dim(%x: !tessel.tensor<[tokens:6, experts:4], f32>) {
  // expected-error @+1 {{'tessel.top_k' op result is missing dimension 'choice'}}
  %t = tessel.top_k %x over "experts" k 2 as "choice"
      : !tessel.tensor<[tokens:6, experts:4], f32> -> !tessel.tensor<[tokens:6, slot:2], f32>
  return
}

// -----

func.func @top_k_out_size(%x: !tessel.tensor<[tokens:6, experts:4], f32>) {
  // expected-error @+1 {{'tessel.top_k' op result dimension 'choice' has size 3, expected 2}}
  %t = tessel.top_k %x over "experts" k 2 as "choice"
      : !tessel.tensor<[tokens:6, experts:4], f32> -> !tessel.tensor<[tokens:6, choice:3], f32>
  return
}

// -----

func.func @top_k_other_size(%x: !tessel.tensor<[tokens:6, experts:4], f32>) {
  // expected-error @+1 {{'tessel.top_k' op result dimension 'tokens' has size 3, expected 6}}
  %t = tessel.top_k %x over "experts" k 2 as "choice"
      : !tessel.tensor<[tokens:6, experts:4], f32> -> !tessel.tensor<[tokens:3, choice:2], f32>
  return
}

// -----

func.func @top_k_values_type(%x: !tessel.tensor<[tokens:6, experts:4], f32>) {
  // expected-error @+1 {{'tessel.top_k' op expected one element type, got 'f32' and 'f64'}}
  %t = tessel.top_k %x over "experts" k 2 as "choice"
      : !tessel.tensor<[tokens:6, experts:4], f32> -> !tessel.tensor<[tokens:6, choice:2], f64>
  return
}

// -----

func.func @top_k_float_indices(%x: !tessel.tensor<[tokens:6, experts:4], f32>) {
  // expected-error @+1 {{'tessel.top_k' op expected the indices to hold integers, got 'f32'}}
  %t = tessel.top_k %x over "experts" k 2 as "choice" indices
      : !tessel.tensor<[tokens:6, experts:4], f32> -> !tessel.tensor<[tokens:6, choice:2], f32>
  return
}

// -----

func.func @top_k_i1_indices(%x: !tessel.tensor<[tokens:6, experts:4], f32>) {
  // expected-error @+1 {{'tessel.top_k' op indices must be integers wider than i1, got i1}}
  %t = tessel.top_k %x over "experts" k 2 as "choice" indices
      : !tessel.tensor<[tokens:6, experts:4], f32> -> !tessel.tensor<[tokens:6, choice:2], i1>
  return
}
