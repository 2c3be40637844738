// Errors of the verifiers of the mesh-level ops.
// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// Every mesh-level op requires a mesh on an enclosing module.
func.func @all_gather_no_mesh(%x: !tessel.tensor<[hidden:64], f32>) {
  // expected-error @+1 {{'tessel.all_gather' op requires a 'tessel.mesh' attribute on an enclosing module}}
  %g = tessel.all_gather %x along "hidden" over ["model"] : !tessel.tensor<[hidden:64], f32> -> !tessel.tensor<[hidden:256], f32>
  return
}

// -----

func.func @reduce_scatter_no_mesh(%x: !tessel.tensor<[hidden:256], f32>) {
  // expected-error @+1 {{'tessel.reduce_scatter' op requires a 'tessel.mesh' attribute on an enclosing module}}
  %r = tessel.reduce_scatter sum %x along "hidden" over ["model"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:64], f32>
  return
}

// -----

func.func @all_to_all_no_mesh(%x: !tessel.tensor<[heads:2, seq:64], f32>) {
  // expected-error @+1 {{'tessel.all_to_all' op requires a 'tessel.mesh' attribute on an enclosing module}}
  %t = tessel.all_to_all %x split "seq" concat "heads" over ["model"] : !tessel.tensor<[heads:2, seq:64], f32> -> !tessel.tensor<[heads:8, seq:16], f32>
  return
}

// -----

func.func @halo_exchange_no_mesh(%x: !tessel.tensor<[h:7], f32>) {
  // expected-error @+1 {{'tessel.halo_exchange' op requires a 'tessel.mesh' attribute on an enclosing module}}
  %h = tessel.halo_exchange %x along "h" over "model" halo [1, 1] : !tessel.tensor<[h:7], f32> -> !tessel.tensor<[h:9], f32>
  return
}

// -----

func.func @collective_permute_no_mesh(%x: !tessel.tensor<[k:4], f32>) {
  // expected-error @+1 {{'tessel.collective_permute' op requires a 'tessel.mesh' attribute on an enclosing module}}
  %p = tessel.collective_permute %x over ["model"] pairs [0, 1] : !tessel.tensor<[k:4], f32>
  return
}

// -----

func.func @shard_slice_no_mesh(%x: !tessel.tensor<[hidden:256], f32>) {
  // expected-error @+1 {{'tessel.shard_slice' op requires a 'tessel.mesh' attribute on an enclosing module}}
  %s = tessel.shard_slice %x along "hidden" over ["model"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:64], f32>
  return
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_reduce_no_axes(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.all_reduce' op expected at least one mesh axis}}
    %s = tessel.all_reduce sum %x over [] : !tessel.tensor<[hidden:256], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_reduce_repeated_axis(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.all_reduce' op mesh axis 'model' is listed twice}}
    %s = tessel.all_reduce sum %x over ["model", "data", "model"] : !tessel.tensor<[hidden:256], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_reduce_unknown_axis(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.all_reduce' op mesh has no axis 'pipeline'}}
    %s = tessel.all_reduce sum %x over ["pipeline"] : !tessel.tensor<[hidden:256], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_reduce_shape(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.all_reduce' op result '!tessel.tensor<[hidden:64], f32>' must have the dimensions and element type of the operand '!tessel.tensor<[hidden:256], f32>'}}
    %s = tessel.all_reduce sum %x over ["model"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:64], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_reduce_bad_kind(%x: !tessel.tensor<[hidden:256], f32>) {
    // A mean across ranks is a sum and a scale, never a collective.
    // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [sum, max, min]}}
    %s = tessel.all_reduce mean %x over ["model"] : !tessel.tensor<[hidden:256], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_gather_missing_dim(%x: !tessel.tensor<[hidden:64], f32>) {
    // expected-error @+1 {{'tessel.all_gather' op input has no dimension 'batch'}}
    %g = tessel.all_gather %x along "batch" over ["model"] : !tessel.tensor<[hidden:64], f32> -> !tessel.tensor<[hidden:256], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_gather_reorders(%x: !tessel.tensor<[batch:16, hidden:64], f32>) {
    // expected-error @+1 {{'tessel.all_gather' op result must have the input's dimensions in the same order}}
    %g = tessel.all_gather %x along "hidden" over ["model"]
        : !tessel.tensor<[batch:16, hidden:64], f32> -> !tessel.tensor<[hidden:256, batch:16], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_gather_size(%x: !tessel.tensor<[batch:16, hidden:64], f32>) {
    // Over both axes the group has 8 members: 64 * 8 = 512.
    // expected-error @+1 {{'tessel.all_gather' op result dimension 'hidden' has size 256, expected 512}}
    %g = tessel.all_gather %x along "hidden" over ["data", "model"]
        : !tessel.tensor<[batch:16, hidden:64], f32> -> !tessel.tensor<[batch:16, hidden:256], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_gather_other_dim_size(%x: !tessel.tensor<[batch:16, hidden:64], f32>) {
    // expected-error @+1 {{'tessel.all_gather' op result dimension 'batch' has size 8, expected 16}}
    %g = tessel.all_gather %x along "hidden" over ["model"]
        : !tessel.tensor<[batch:16, hidden:64], f32> -> !tessel.tensor<[batch:8, hidden:256], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_gather_element_type(%x: !tessel.tensor<[hidden:64], f32>) {
    // expected-error @+1 {{'tessel.all_gather' op expected one element type, got 'f32' and 'bf16'}}
    %g = tessel.all_gather %x along "hidden" over ["model"] : !tessel.tensor<[hidden:64], f32> -> !tessel.tensor<[hidden:256], bf16>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @reduce_scatter_unknown_axis(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.reduce_scatter' op mesh has no axis 'rows'}}
    %r = tessel.reduce_scatter sum %x along "hidden" over ["rows"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:64], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @reduce_scatter_missing_dim(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.reduce_scatter' op input has no dimension 'batch'}}
    %r = tessel.reduce_scatter sum %x along "batch" over ["model"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:64], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @reduce_scatter_indivisible(%x: !tessel.tensor<[hidden:6], f32>) {
    // expected-error @+1 {{'tessel.reduce_scatter' op dimension 'hidden' of size 6 does not divide into 4 blocks}}
    %r = tessel.reduce_scatter sum %x along "hidden" over ["model"] : !tessel.tensor<[hidden:6], f32> -> !tessel.tensor<[hidden:1], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @reduce_scatter_size(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.reduce_scatter' op result dimension 'hidden' has size 128, expected 64}}
    %r = tessel.reduce_scatter max %x along "hidden" over ["model"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:128], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @reduce_scatter_renames(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.reduce_scatter' op result must have the input's dimensions in the same order}}
    %r = tessel.reduce_scatter sum %x along "hidden" over ["model"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[features:64], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @shard_slice_repeated_axis(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.shard_slice' op mesh axis 'data' is listed twice}}
    %s = tessel.shard_slice %x along "hidden" over ["data", "data"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:64], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @shard_slice_missing_dim(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.shard_slice' op input has no dimension 'seq'}}
    %s = tessel.shard_slice %x along "seq" over ["model"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:64], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @shard_slice_indivisible(%x: !tessel.tensor<[hidden:12], f32>) {
    // 12 over 8 blocks is padded to blocks of ceil(12 / 8) = 2.
    // expected-error @+1 {{'tessel.shard_slice' op result dimension 'hidden' has size 1, expected 2}}
    %s = tessel.shard_slice %x along "hidden" over ["model", "data"] : !tessel.tensor<[hidden:12], f32> -> !tessel.tensor<[hidden:1], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @shard_slice_size(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.shard_slice' op result dimension 'hidden' has size 256, expected 64}}
    %s = tessel.shard_slice %x along "hidden" over ["model"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:256], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @shard_slice_element_type(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.shard_slice' op expected one element type, got 'f32' and 'i32'}}
    %s = tessel.shard_slice %x along "hidden" over ["model"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:64], i32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_to_all_no_axes(%x: !tessel.tensor<[heads:2, seq:64], f32>) {
    // expected-error @+1 {{'tessel.all_to_all' op expected at least one mesh axis}}
    %t = tessel.all_to_all %x split "seq" concat "heads" over [] : !tessel.tensor<[heads:2, seq:64], f32> -> !tessel.tensor<[heads:2, seq:64], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_to_all_missing_split_dim(%x: !tessel.tensor<[heads:2, seq:64], f32>) {
    // expected-error @+1 {{'tessel.all_to_all' op input has no dimension 'key'}}
    %t = tessel.all_to_all %x split "key" concat "heads" over ["model"] : !tessel.tensor<[heads:2, seq:64], f32> -> !tessel.tensor<[heads:8, seq:16], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_to_all_indivisible(%x: !tessel.tensor<[heads:2, seq:6], f32>) {
    // expected-error @+1 {{'tessel.all_to_all' op dimension 'seq' of size 6 does not divide into 4 blocks}}
    %t = tessel.all_to_all %x split "seq" concat "heads" over ["model"] : !tessel.tensor<[heads:2, seq:6], f32> -> !tessel.tensor<[heads:8, seq:1], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_to_all_missing_concat_dim(%x: !tessel.tensor<[heads:2, seq:64], f32>) {
    // expected-error @+1 {{'tessel.all_to_all' op input has no dimension 'experts'}}
    %t = tessel.all_to_all %x split "seq" concat "experts" over ["model"] : !tessel.tensor<[heads:2, seq:64], f32> -> !tessel.tensor<[heads:8, seq:16], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_to_all_reorders(%x: !tessel.tensor<[heads:2, seq:64], f32>) {
    // expected-error @+1 {{'tessel.all_to_all' op result must have the input's dimensions in the same order}}
    %t = tessel.all_to_all %x split "seq" concat "heads" over ["model"] : !tessel.tensor<[heads:2, seq:64], f32> -> !tessel.tensor<[seq:16, heads:8], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_to_all_concat_size(%x: !tessel.tensor<[heads:2, seq:64], f32>) {
    // expected-error @+1 {{'tessel.all_to_all' op result dimension 'heads' has size 2, expected 8}}
    %t = tessel.all_to_all %x split "seq" concat "heads" over ["model"] : !tessel.tensor<[heads:2, seq:64], f32> -> !tessel.tensor<[heads:2, seq:16], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_to_all_split_size(%x: !tessel.tensor<[heads:2, seq:64], f32>) {
    // expected-error @+1 {{'tessel.all_to_all' op result dimension 'seq' has size 64, expected 16}}
    %t = tessel.all_to_all %x split "seq" concat "heads" over ["model"] : !tessel.tensor<[heads:2, seq:64], f32> -> !tessel.tensor<[heads:8, seq:64], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_to_all_element_type(%x: !tessel.tensor<[heads:2, seq:64], f32>) {
    // expected-error @+1 {{'tessel.all_to_all' op expected one element type, got 'f32' and 'f16'}}
    %t = tessel.all_to_all %x split "seq" concat "heads" over ["model"] : !tessel.tensor<[heads:2, seq:64], f32> -> !tessel.tensor<[heads:8, seq:16], f16>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @halo_unknown_axis(%x: !tessel.tensor<[h:7], f32>) {
    // expected-error @+1 {{'tessel.halo_exchange' op mesh has no axis 'rows'}}
    %h = tessel.halo_exchange %x along "h" over "rows" halo [1, 1] : !tessel.tensor<[h:7], f32> -> !tessel.tensor<[h:9], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @halo_missing_dim(%x: !tessel.tensor<[h:7], f32>) {
    // expected-error @+1 {{'tessel.halo_exchange' op input has no dimension 'w'}}
    %h = tessel.halo_exchange %x along "w" over "model" halo [1, 1] : !tessel.tensor<[h:7], f32> -> !tessel.tensor<[h:9], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @halo_one_width(%x: !tessel.tensor<[h:7], f32>) {
    // expected-error @+1 {{'tessel.halo_exchange' op expected two non-negative halo widths [low, high]}}
    %h = tessel.halo_exchange %x along "h" over "model" halo [1] : !tessel.tensor<[h:7], f32> -> !tessel.tensor<[h:8], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @halo_negative_width(%x: !tessel.tensor<[h:7], f32>) {
    // expected-error @+1 {{'tessel.halo_exchange' op expected two non-negative halo widths [low, high]}}
    %h = tessel.halo_exchange %x along "h" over "model" halo [-1, 1] : !tessel.tensor<[h:7], f32> -> !tessel.tensor<[h:7], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @halo_too_wide(%x: !tessel.tensor<[h:2], f32>) {
    // expected-error @+1 {{'tessel.halo_exchange' op halo of dimension 'h' is wider than its local size 2}}
    %h = tessel.halo_exchange %x along "h" over "model" halo [1, 3] : !tessel.tensor<[h:2], f32> -> !tessel.tensor<[h:6], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @halo_result_size(%x: !tessel.tensor<[batch:8, h:7], f32>) {
    // expected-error @+1 {{'tessel.halo_exchange' op result dimension 'h' has size 8, expected 9}}
    %h = tessel.halo_exchange %x along "h" over "model" halo [1, 1] : !tessel.tensor<[batch:8, h:7], f32> -> !tessel.tensor<[batch:8, h:8], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @halo_reorders(%x: !tessel.tensor<[batch:8, h:7], f32>) {
    // expected-error @+1 {{'tessel.halo_exchange' op result must have the input's dimensions in the same order}}
    %h = tessel.halo_exchange %x along "h" over "model" halo [1, 1] : !tessel.tensor<[batch:8, h:7], f32> -> !tessel.tensor<[h:9, batch:8], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @halo_element_type(%x: !tessel.tensor<[h:7], f32>) {
    // expected-error @+1 {{'tessel.halo_exchange' op expected one element type, got 'f32' and 'f64'}}
    %h = tessel.halo_exchange %x along "h" over "model" halo [1, 1] : !tessel.tensor<[h:7], f32> -> !tessel.tensor<[h:9], f64>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @permute_unknown_axis(%x: !tessel.tensor<[k:4], f32>) {
    // expected-error @+1 {{'tessel.collective_permute' op mesh has no axis 'pipe'}}
    %p = tessel.collective_permute %x over ["pipe"] pairs [0, 1] : !tessel.tensor<[k:4], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @permute_shape(%x: !tessel.tensor<[k:4], f32>) {
    // expected-error @+1 {{'tessel.collective_permute' op result '!tessel.tensor<[k:4], f16>' must have the dimensions and element type of the operand '!tessel.tensor<[k:4], f32>'}}
    %p = tessel.collective_permute %x over ["model"] pairs [0, 1] : !tessel.tensor<[k:4], f32> -> !tessel.tensor<[k:4], f16>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @permute_odd_pairs(%x: !tessel.tensor<[k:4], f32>) {
    // expected-error @+1 {{'tessel.collective_permute' op pairs must list (source, target) positions}}
    %p = tessel.collective_permute %x over ["model"] pairs [0, 1, 2] : !tessel.tensor<[k:4], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @permute_position_outside(%x: !tessel.tensor<[k:4], f32>) {
    // expected-error @+1 {{'tessel.collective_permute' op position 4 is outside the group of 4}}
    %p = tessel.collective_permute %x over ["model"] pairs [0, 1, 3, 4] : !tessel.tensor<[k:4], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @permute_negative_position(%x: !tessel.tensor<[k:4], f32>) {
    // expected-error @+1 {{'tessel.collective_permute' op position -1 is outside the group of 2}}
    %p = tessel.collective_permute %x over ["data"] pairs [-1, 0] : !tessel.tensor<[k:4], f32>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @permute_repeated_target(%x: !tessel.tensor<[k:4], f32>) {
    // expected-error @+1 {{'tessel.collective_permute' op position 2 is the target of two sources}}
    %p = tessel.collective_permute %x over ["model"] pairs [0, 2, 1, 2] : !tessel.tensor<[k:4], f32>
    return
  }
}
