module {
  func.func @forward(%arg0: !tessel.tensor<[batch:8, c:1, h:28, w:28], f32> {tessel.name = "images"}, %arg1: !tessel.tensor<[batch:8], i32> {tessel.name = "labels"}) -> !tessel.tensor<[], f32> {
    %0 = call @VisionTransformer(%arg0) {tessel.name = "logits", tessel.scope = "vit"} : (!tessel.tensor<[batch:8, c:1, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, classes:10], f32>
    %1 = tessel.softmax_cross_entropy %0, %arg1 over "classes" : !tessel.tensor<[batch:8, classes:10], f32>, !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8], f32>
    %2 = tessel.reduce mean %1 : !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[], f32>
    return %2 : !tessel.tensor<[], f32>
  }
  func.func private @VisionTransformer(%arg0: !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, classes:10], f32> {
    %0 = tessel.reshape %arg0 : !tessel.tensor<[batch:8, c:1, h:28, w:28], f32> -> !tessel.tensor<[batch:8, c:1, grid_h:7, patch_h:4, grid_w:7, patch_w:4], f32>
    %1 = call @Linear(%0) {tessel.scope = "patch_embed"} : (!tessel.tensor<[batch:8, c:1, grid_h:7, patch_h:4, grid_w:7, patch_w:4], f32>) -> !tessel.tensor<[batch:8, grid_h:7, grid_w:7, d_model:32], f32>
    %2 = tessel.reshape %1 : !tessel.tensor<[batch:8, grid_h:7, grid_w:7, d_model:32], f32> -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    %3 = tessel.parameter "pos_emb" normal scale 2.000000e-02 seed 1794518190 : !tessel.tensor<[seq:49, d_model:32], f32>
    %4 = tessel.add %2, %3 : !tessel.tensor<[batch:8, seq:49, d_model:32], f32>, !tessel.tensor<[seq:49, d_model:32], f32> -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    %5 = call @EncoderBlock(%4) {tessel.scope = "block0"} : (!tessel.tensor<[batch:8, seq:49, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    %6 = call @EncoderBlock(%5) {tessel.scope = "block1"} : (!tessel.tensor<[batch:8, seq:49, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    %7 = call @LayerNorm(%6) {tessel.scope = "ln_f"} : (!tessel.tensor<[batch:8, seq:49, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    %8 = tessel.reduce mean %7 : !tessel.tensor<[batch:8, seq:49, d_model:32], f32> -> !tessel.tensor<[batch:8, d_model:32], f32>
    %9 = call @Linear_5(%8) {tessel.scope = "head"} : (!tessel.tensor<[batch:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, classes:10], f32>
    return %9 : !tessel.tensor<[batch:8, classes:10], f32>
  }
  func.func private @Linear(%arg0: !tessel.tensor<[batch:8, c:1, grid_h:7, patch_h:4, grid_w:7, patch_w:4], f32>) -> !tessel.tensor<[batch:8, grid_h:7, grid_w:7, d_model:32], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[c:1, patch_h:4, patch_w:4, d_model:32], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, c:1, grid_h:7, patch_h:4, grid_w:7, patch_w:4], f32>, !tessel.tensor<[c:1, patch_h:4, patch_w:4, d_model:32], f32>) -> !tessel.tensor<[batch:8, grid_h:7, grid_w:7, d_model:32], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[d_model:32], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:8, grid_h:7, grid_w:7, d_model:32], f32>, !tessel.tensor<[d_model:32], f32> -> !tessel.tensor<[batch:8, grid_h:7, grid_w:7, d_model:32], f32>
    return %3 : !tessel.tensor<[batch:8, grid_h:7, grid_w:7, d_model:32], f32>
  }
  func.func private @EncoderBlock(%arg0: !tessel.tensor<[batch:8, seq:49, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32> {
    %0 = call @LayerNorm(%arg0) {tessel.scope = "ln1"} : (!tessel.tensor<[batch:8, seq:49, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    %1 = call @MultiHeadAttention(%0) {tessel.scope = "attn"} : (!tessel.tensor<[batch:8, seq:49, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    %2 = tessel.add %arg0, %1 : !tessel.tensor<[batch:8, seq:49, d_model:32], f32>, !tessel.tensor<[batch:8, seq:49, d_model:32], f32> -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    %3 = call @LayerNorm(%2) {tessel.scope = "ln2"} : (!tessel.tensor<[batch:8, seq:49, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    %4 = call @MLP(%3) {tessel.scope = "mlp"} : (!tessel.tensor<[batch:8, seq:49, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    %5 = tessel.add %2, %4 : !tessel.tensor<[batch:8, seq:49, d_model:32], f32>, !tessel.tensor<[batch:8, seq:49, d_model:32], f32> -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    return %5 : !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
  }
  func.func private @LayerNorm(%arg0: !tessel.tensor<[batch:8, seq:49, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32> {
    %0 = tessel.parameter "gamma" ones scale 1.000000e+00 seed 1344869386 : !tessel.tensor<[d_model:32], f32>
    %1 = tessel.parameter "beta" zeros scale 1.000000e+00 seed 797041863 : !tessel.tensor<[d_model:32], f32>
    %2 = tessel.layer_norm %arg0 over ["d_model"] epsilon 1.000000e-05 : !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    %3 = tessel.mul %2, %0 : !tessel.tensor<[batch:8, seq:49, d_model:32], f32>, !tessel.tensor<[d_model:32], f32> -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    %4 = tessel.add %3, %1 : !tessel.tensor<[batch:8, seq:49, d_model:32], f32>, !tessel.tensor<[d_model:32], f32> -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    return %4 : !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
  }
  func.func private @MultiHeadAttention(%arg0: !tessel.tensor<[batch:8, seq:49, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32> {
    %0 = call @Linear_1(%arg0) {tessel.scope = "q"} : (!tessel.tensor<[batch:8, seq:49, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, heads:4, head_dim:8], f32>
    %1 = call @Linear_1(%arg0) {tessel.scope = "k"} : (!tessel.tensor<[batch:8, seq:49, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, heads:4, head_dim:8], f32>
    %2 = tessel.rename %1 : !tessel.tensor<[batch:8, seq:49, heads:4, head_dim:8], f32> -> !tessel.tensor<[batch:8, key:49, heads:4, head_dim:8], f32>
    %3 = call @Linear_1(%arg0) {tessel.scope = "v"} : (!tessel.tensor<[batch:8, seq:49, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, heads:4, head_dim:8], f32>
    %4 = tessel.rename %3 : !tessel.tensor<[batch:8, seq:49, heads:4, head_dim:8], f32> -> !tessel.tensor<[batch:8, key:49, heads:4, head_dim:8], f32>
    %5 = tessel.einsum %0, %2 : (!tessel.tensor<[batch:8, seq:49, heads:4, head_dim:8], f32>, !tessel.tensor<[batch:8, key:49, heads:4, head_dim:8], f32>) -> !tessel.tensor<[batch:8, seq:49, heads:4, key:49], f32>
    %6 = tessel.constant 0.353553385 : f32 -> !tessel.tensor<[], f32>
    %7 = tessel.mul %5, %6 : !tessel.tensor<[batch:8, seq:49, heads:4, key:49], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:8, seq:49, heads:4, key:49], f32>
    %8 = tessel.softmax %7 over "key" : !tessel.tensor<[batch:8, seq:49, heads:4, key:49], f32>
    %9 = tessel.einsum %8, %4 : (!tessel.tensor<[batch:8, seq:49, heads:4, key:49], f32>, !tessel.tensor<[batch:8, key:49, heads:4, head_dim:8], f32>) -> !tessel.tensor<[batch:8, seq:49, heads:4, head_dim:8], f32>
    %10 = call @Linear_2(%9) {tessel.scope = "o"} : (!tessel.tensor<[batch:8, seq:49, heads:4, head_dim:8], f32>) -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    return %10 : !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
  }
  func.func private @Linear_1(%arg0: !tessel.tensor<[batch:8, seq:49, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, heads:4, head_dim:8], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[d_model:32, heads:4, head_dim:8], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, seq:49, d_model:32], f32>, !tessel.tensor<[d_model:32, heads:4, head_dim:8], f32>) -> !tessel.tensor<[batch:8, seq:49, heads:4, head_dim:8], f32>
    return %1 : !tessel.tensor<[batch:8, seq:49, heads:4, head_dim:8], f32>
  }
  func.func private @Linear_2(%arg0: !tessel.tensor<[batch:8, seq:49, heads:4, head_dim:8], f32>) -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[heads:4, head_dim:8, d_model:32], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, seq:49, heads:4, head_dim:8], f32>, !tessel.tensor<[heads:4, head_dim:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    return %1 : !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
  }
  func.func private @MLP(%arg0: !tessel.tensor<[batch:8, seq:49, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32> {
    %0 = call @Linear_3(%arg0) {tessel.scope = "up"} : (!tessel.tensor<[batch:8, seq:49, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, d_ff:64], f32>
    %1 = tessel.gelu %0 : !tessel.tensor<[batch:8, seq:49, d_ff:64], f32>
    %2 = call @Linear_4(%1) {tessel.scope = "down"} : (!tessel.tensor<[batch:8, seq:49, d_ff:64], f32>) -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    return %2 : !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
  }
  func.func private @Linear_3(%arg0: !tessel.tensor<[batch:8, seq:49, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, d_ff:64], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[d_model:32, d_ff:64], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, seq:49, d_model:32], f32>, !tessel.tensor<[d_model:32, d_ff:64], f32>) -> !tessel.tensor<[batch:8, seq:49, d_ff:64], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[d_ff:64], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:8, seq:49, d_ff:64], f32>, !tessel.tensor<[d_ff:64], f32> -> !tessel.tensor<[batch:8, seq:49, d_ff:64], f32>
    return %3 : !tessel.tensor<[batch:8, seq:49, d_ff:64], f32>
  }
  func.func private @Linear_4(%arg0: !tessel.tensor<[batch:8, seq:49, d_ff:64], f32>) -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[d_ff:64, d_model:32], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, seq:49, d_ff:64], f32>, !tessel.tensor<[d_ff:64, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[d_model:32], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:8, seq:49, d_model:32], f32>, !tessel.tensor<[d_model:32], f32> -> !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
    return %3 : !tessel.tensor<[batch:8, seq:49, d_model:32], f32>
  }
  func.func private @Linear_5(%arg0: !tessel.tensor<[batch:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, classes:10], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[d_model:32, classes:10], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[d_model:32, classes:10], f32>) -> !tessel.tensor<[batch:8, classes:10], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[classes:10], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:8, classes:10], f32>, !tessel.tensor<[classes:10], f32> -> !tessel.tensor<[batch:8, classes:10], f32>
    return %3 : !tessel.tensor<[batch:8, classes:10], f32>
  }
  func.func @evaluate(%arg0: !tessel.tensor<[batch:8, c:1, h:28, w:28], f32> {tessel.name = "images"}, %arg1: !tessel.tensor<[batch:8], i32> {tessel.name = "labels"}) -> (!tessel.tensor<[], f32> {tessel.name = "loss"}, !tessel.tensor<[], f32> {tessel.name = "correct"}) {
    %0 = call @VisionTransformer(%arg0) {tessel.name = "logits", tessel.scope = "vit"} : (!tessel.tensor<[batch:8, c:1, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, classes:10], f32>
    %1 = tessel.softmax_cross_entropy %0, %arg1 over "classes" : !tessel.tensor<[batch:8, classes:10], f32>, !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8], f32>
    %2 = tessel.reduce mean %1 : !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[], f32>
    %3 = tessel.reduce max %0 : !tessel.tensor<[batch:8, classes:10], f32> -> !tessel.tensor<[batch:8], f32>
    %4 = tessel.compare ge, %0, %3 : !tessel.tensor<[batch:8, classes:10], f32>, !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[batch:8, classes:10], i1>
    %5 = tessel.one_hot %arg1 as "classes" : !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8, classes:10], f32>
    %6 = tessel.constant 0.000000e+00 : f32 -> !tessel.tensor<[], f32>
    %7 = tessel.select %4, %5, %6 : !tessel.tensor<[batch:8, classes:10], i1>, !tessel.tensor<[batch:8, classes:10], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:8, classes:10], f32>
    %8 = tessel.reduce sum %7 : !tessel.tensor<[batch:8, classes:10], f32> -> !tessel.tensor<[], f32>
    return %2, %8 : !tessel.tensor<[], f32>, !tessel.tensor<[], f32>
  }
}
