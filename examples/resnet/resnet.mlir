module {
  func.func @forward(%arg0: !tessel.tensor<[batch:8, c:1, h:28, w:28], f32> {tessel.name = "images"}, %arg1: !tessel.tensor<[batch:8], i32> {tessel.name = "labels"}) -> !tessel.tensor<[], f32> {
    %0 = call @ResNet(%arg0) {tessel.name = "logits", tessel.scope = "resnet"} : (!tessel.tensor<[batch:8, c:1, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, classes:10], f32>
    %1 = tessel.softmax_cross_entropy %0, %arg1 over "classes" : !tessel.tensor<[batch:8, classes:10], f32>, !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8], f32>
    %2 = tessel.reduce mean %1 : !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[], f32>
    return %2 : !tessel.tensor<[], f32>
  }
  func.func private @ResNet(%arg0: !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, classes:10], f32> {
    %0 = call @Conv2d(%arg0) {tessel.scope = "stem.conv"} : (!tessel.tensor<[batch:8, c:1, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %1 = call @BatchNorm(%0) {tessel.scope = "stem.bn"} : (!tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %2 = tessel.relu %1 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %3 = call @ResidualBlock(%2) {tessel.scope = "block1"} : (!tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %4 = call @ResidualBlock_1(%3) {tessel.scope = "block2"} : (!tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %5 = call @ResidualBlock_2(%4) {tessel.scope = "block3"} : (!tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %6 = tessel.reduce mean %5 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32> -> !tessel.tensor<[batch:8, ch2:16], f32>
    %7 = call @Linear(%6) {tessel.scope = "head"} : (!tessel.tensor<[batch:8, ch2:16], f32>) -> !tessel.tensor<[batch:8, classes:10], f32>
    return %7 : !tessel.tensor<[batch:8, classes:10], f32>
  }
  func.func private @Conv2d(%arg0: !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32> {
    %0 = tessel.parameter "w" uniform scale 0.33333333333333331 seed 1913405238 : !tessel.tensor<[c:1, ch1:8, h_k:3, w_k:3], f32>
    %1 = tessel.conv2d %arg0, %0 {input_channel = "c", kernel = ["h_k", "w_k"], output_channel = "ch1", padding = array<i64: 1, 1, 1, 1>, spatial = ["h", "w"]} : !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>, !tessel.tensor<[c:1, ch1:8, h_k:3, w_k:3], f32> -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[ch1:8], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>, !tessel.tensor<[ch1:8], f32> -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    return %3 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
  }
  func.func private @BatchNorm(%arg0: !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32> {
    %0 = tessel.parameter "gamma" ones scale 1.000000e+00 seed 1344869386 : !tessel.tensor<[ch1:8], f32>
    %1 = tessel.parameter "beta" zeros scale 1.000000e+00 seed 797041863 : !tessel.tensor<[ch1:8], f32>
    %2 = tessel.parameter "running_mean" zeros scale 1.000000e+00 seed 312244240 buffer : !tessel.tensor<[ch1:8], f32>
    %3 = tessel.parameter "running_var" ones scale 1.000000e+00 seed 1337598978 buffer : !tessel.tensor<[ch1:8], f32>
    %4 = tessel.reduce mean %arg0 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32> -> !tessel.tensor<[ch1:8], f32>
    %5 = tessel.sub %arg0, %4 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>, !tessel.tensor<[ch1:8], f32> -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %6 = tessel.mul %5, %5 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>, !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32> -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %7 = tessel.reduce mean %6 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32> -> !tessel.tensor<[ch1:8], f32>
    %8 = tessel.constant 1.000000e-01 : f32 -> !tessel.tensor<[], f32>
    %9 = tessel.mul %4, %8 : !tessel.tensor<[ch1:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[ch1:8], f32>
    %10 = tessel.constant 0.899999976 : f32 -> !tessel.tensor<[], f32>
    %11 = tessel.mul %2, %10 : !tessel.tensor<[ch1:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[ch1:8], f32>
    %12 = tessel.add %11, %9 : !tessel.tensor<[ch1:8], f32>, !tessel.tensor<[ch1:8], f32> -> !tessel.tensor<[ch1:8], f32>
    %13 = tessel.update_buffer %2, %12 : !tessel.tensor<[ch1:8], f32>
    %14 = tessel.constant 0.100015946 : f32 -> !tessel.tensor<[], f32>
    %15 = tessel.mul %7, %14 : !tessel.tensor<[ch1:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[ch1:8], f32>
    %16 = tessel.constant 0.899999976 : f32 -> !tessel.tensor<[], f32>
    %17 = tessel.mul %3, %16 : !tessel.tensor<[ch1:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[ch1:8], f32>
    %18 = tessel.add %17, %15 : !tessel.tensor<[ch1:8], f32>, !tessel.tensor<[ch1:8], f32> -> !tessel.tensor<[ch1:8], f32>
    %19 = tessel.update_buffer %3, %18 : !tessel.tensor<[ch1:8], f32>
    %20 = tessel.constant 9.99999974E-6 : f32 -> !tessel.tensor<[], f32>
    %21 = tessel.add %7, %20 : !tessel.tensor<[ch1:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[ch1:8], f32>
    %22 = tessel.rsqrt %21 : !tessel.tensor<[ch1:8], f32>
    %23 = tessel.mul %5, %22 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>, !tessel.tensor<[ch1:8], f32> -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %24 = tessel.mul %23, %0 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>, !tessel.tensor<[ch1:8], f32> -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %25 = tessel.add %24, %1 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>, !tessel.tensor<[ch1:8], f32> -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    return %25 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
  }
  func.func private @ResidualBlock(%arg0: !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32> {
    %0 = call @Conv2d_1(%arg0) {tessel.scope = "a.conv"} : (!tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
    %1 = call @BatchNorm_1(%0) {tessel.scope = "a.bn"} : (!tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
    %2 = tessel.relu %1 : !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
    %3 = call @Conv2d_2(%2) {tessel.scope = "b.conv"} : (!tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %4 = call @BatchNorm(%3) {tessel.scope = "b.bn"} : (!tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %5 = tessel.add %4, %arg0 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>, !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32> -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %6 = tessel.relu %5 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    return %6 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
  }
  func.func private @Conv2d_1(%arg0: !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32> {
    %0 = tessel.parameter "w" uniform scale 0.11785113019775793 seed 1913405238 : !tessel.tensor<[ch1:8, mid1:8, h_k:3, w_k:3], f32>
    %1 = tessel.conv2d %arg0, %0 {input_channel = "ch1", kernel = ["h_k", "w_k"], output_channel = "mid1", padding = array<i64: 1, 1, 1, 1>, spatial = ["h", "w"]} : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>, !tessel.tensor<[ch1:8, mid1:8, h_k:3, w_k:3], f32> -> !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[mid1:8], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>, !tessel.tensor<[mid1:8], f32> -> !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
    return %3 : !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
  }
  func.func private @BatchNorm_1(%arg0: !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32> {
    %0 = tessel.parameter "gamma" ones scale 1.000000e+00 seed 1344869386 : !tessel.tensor<[mid1:8], f32>
    %1 = tessel.parameter "beta" zeros scale 1.000000e+00 seed 797041863 : !tessel.tensor<[mid1:8], f32>
    %2 = tessel.parameter "running_mean" zeros scale 1.000000e+00 seed 312244240 buffer : !tessel.tensor<[mid1:8], f32>
    %3 = tessel.parameter "running_var" ones scale 1.000000e+00 seed 1337598978 buffer : !tessel.tensor<[mid1:8], f32>
    %4 = tessel.reduce mean %arg0 : !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32> -> !tessel.tensor<[mid1:8], f32>
    %5 = tessel.sub %arg0, %4 : !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>, !tessel.tensor<[mid1:8], f32> -> !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
    %6 = tessel.mul %5, %5 : !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>, !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32> -> !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
    %7 = tessel.reduce mean %6 : !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32> -> !tessel.tensor<[mid1:8], f32>
    %8 = tessel.constant 1.000000e-01 : f32 -> !tessel.tensor<[], f32>
    %9 = tessel.mul %4, %8 : !tessel.tensor<[mid1:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[mid1:8], f32>
    %10 = tessel.constant 0.899999976 : f32 -> !tessel.tensor<[], f32>
    %11 = tessel.mul %2, %10 : !tessel.tensor<[mid1:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[mid1:8], f32>
    %12 = tessel.add %11, %9 : !tessel.tensor<[mid1:8], f32>, !tessel.tensor<[mid1:8], f32> -> !tessel.tensor<[mid1:8], f32>
    %13 = tessel.update_buffer %2, %12 : !tessel.tensor<[mid1:8], f32>
    %14 = tessel.constant 0.100015946 : f32 -> !tessel.tensor<[], f32>
    %15 = tessel.mul %7, %14 : !tessel.tensor<[mid1:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[mid1:8], f32>
    %16 = tessel.constant 0.899999976 : f32 -> !tessel.tensor<[], f32>
    %17 = tessel.mul %3, %16 : !tessel.tensor<[mid1:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[mid1:8], f32>
    %18 = tessel.add %17, %15 : !tessel.tensor<[mid1:8], f32>, !tessel.tensor<[mid1:8], f32> -> !tessel.tensor<[mid1:8], f32>
    %19 = tessel.update_buffer %3, %18 : !tessel.tensor<[mid1:8], f32>
    %20 = tessel.constant 9.99999974E-6 : f32 -> !tessel.tensor<[], f32>
    %21 = tessel.add %7, %20 : !tessel.tensor<[mid1:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[mid1:8], f32>
    %22 = tessel.rsqrt %21 : !tessel.tensor<[mid1:8], f32>
    %23 = tessel.mul %5, %22 : !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>, !tessel.tensor<[mid1:8], f32> -> !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
    %24 = tessel.mul %23, %0 : !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>, !tessel.tensor<[mid1:8], f32> -> !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
    %25 = tessel.add %24, %1 : !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>, !tessel.tensor<[mid1:8], f32> -> !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
    return %25 : !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
  }
  func.func private @Conv2d_2(%arg0: !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32> {
    %0 = tessel.parameter "w" uniform scale 0.11785113019775793 seed 1913405238 : !tessel.tensor<[mid1:8, ch1:8, h_k:3, w_k:3], f32>
    %1 = tessel.conv2d %arg0, %0 {input_channel = "mid1", kernel = ["h_k", "w_k"], output_channel = "ch1", padding = array<i64: 1, 1, 1, 1>, spatial = ["h", "w"]} : !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>, !tessel.tensor<[mid1:8, ch1:8, h_k:3, w_k:3], f32> -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[ch1:8], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>, !tessel.tensor<[ch1:8], f32> -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    return %3 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
  }
  func.func private @ResidualBlock_1(%arg0: !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32> {
    %0 = call @Conv2d_3(%arg0) {tessel.scope = "a.conv"} : (!tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
    %1 = call @BatchNorm_2(%0) {tessel.scope = "a.bn"} : (!tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
    %2 = tessel.relu %1 : !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
    %3 = call @Conv2d_4(%2) {tessel.scope = "b.conv"} : (!tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %4 = call @BatchNorm_3(%3) {tessel.scope = "b.bn"} : (!tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %5 = call @Conv2d_5(%arg0) {tessel.scope = "proj.conv"} : (!tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %6 = call @BatchNorm_3(%5) {tessel.scope = "proj.bn"} : (!tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %7 = tessel.add %4, %6 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>, !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %8 = tessel.relu %7 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    return %8 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
  }
  func.func private @Conv2d_3(%arg0: !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32> {
    %0 = tessel.parameter "w" uniform scale 0.11785113019775793 seed 1913405238 : !tessel.tensor<[ch1:8, mid2:16, h_k:3, w_k:3], f32>
    %1 = tessel.conv2d %arg0, %0 {input_channel = "ch1", kernel = ["h_k", "w_k"], output_channel = "mid2", padding = array<i64: 1, 1, 1, 1>, spatial = ["h", "w"], strides = array<i64: 2, 2>} : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>, !tessel.tensor<[ch1:8, mid2:16, h_k:3, w_k:3], f32> -> !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[mid2:16], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>, !tessel.tensor<[mid2:16], f32> -> !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
    return %3 : !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
  }
  func.func private @BatchNorm_2(%arg0: !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32> {
    %0 = tessel.parameter "gamma" ones scale 1.000000e+00 seed 1344869386 : !tessel.tensor<[mid2:16], f32>
    %1 = tessel.parameter "beta" zeros scale 1.000000e+00 seed 797041863 : !tessel.tensor<[mid2:16], f32>
    %2 = tessel.parameter "running_mean" zeros scale 1.000000e+00 seed 312244240 buffer : !tessel.tensor<[mid2:16], f32>
    %3 = tessel.parameter "running_var" ones scale 1.000000e+00 seed 1337598978 buffer : !tessel.tensor<[mid2:16], f32>
    %4 = tessel.reduce mean %arg0 : !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32> -> !tessel.tensor<[mid2:16], f32>
    %5 = tessel.sub %arg0, %4 : !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>, !tessel.tensor<[mid2:16], f32> -> !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
    %6 = tessel.mul %5, %5 : !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>, !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32> -> !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
    %7 = tessel.reduce mean %6 : !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32> -> !tessel.tensor<[mid2:16], f32>
    %8 = tessel.constant 1.000000e-01 : f32 -> !tessel.tensor<[], f32>
    %9 = tessel.mul %4, %8 : !tessel.tensor<[mid2:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[mid2:16], f32>
    %10 = tessel.constant 0.899999976 : f32 -> !tessel.tensor<[], f32>
    %11 = tessel.mul %2, %10 : !tessel.tensor<[mid2:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[mid2:16], f32>
    %12 = tessel.add %11, %9 : !tessel.tensor<[mid2:16], f32>, !tessel.tensor<[mid2:16], f32> -> !tessel.tensor<[mid2:16], f32>
    %13 = tessel.update_buffer %2, %12 : !tessel.tensor<[mid2:16], f32>
    %14 = tessel.constant 0.100063816 : f32 -> !tessel.tensor<[], f32>
    %15 = tessel.mul %7, %14 : !tessel.tensor<[mid2:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[mid2:16], f32>
    %16 = tessel.constant 0.899999976 : f32 -> !tessel.tensor<[], f32>
    %17 = tessel.mul %3, %16 : !tessel.tensor<[mid2:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[mid2:16], f32>
    %18 = tessel.add %17, %15 : !tessel.tensor<[mid2:16], f32>, !tessel.tensor<[mid2:16], f32> -> !tessel.tensor<[mid2:16], f32>
    %19 = tessel.update_buffer %3, %18 : !tessel.tensor<[mid2:16], f32>
    %20 = tessel.constant 9.99999974E-6 : f32 -> !tessel.tensor<[], f32>
    %21 = tessel.add %7, %20 : !tessel.tensor<[mid2:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[mid2:16], f32>
    %22 = tessel.rsqrt %21 : !tessel.tensor<[mid2:16], f32>
    %23 = tessel.mul %5, %22 : !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>, !tessel.tensor<[mid2:16], f32> -> !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
    %24 = tessel.mul %23, %0 : !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>, !tessel.tensor<[mid2:16], f32> -> !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
    %25 = tessel.add %24, %1 : !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>, !tessel.tensor<[mid2:16], f32> -> !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
    return %25 : !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
  }
  func.func private @Conv2d_4(%arg0: !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32> {
    %0 = tessel.parameter "w" uniform scale 0.083333333333333329 seed 1913405238 : !tessel.tensor<[mid2:16, ch2:16, h_k:3, w_k:3], f32>
    %1 = tessel.conv2d %arg0, %0 {input_channel = "mid2", kernel = ["h_k", "w_k"], output_channel = "ch2", padding = array<i64: 1, 1, 1, 1>, spatial = ["h", "w"]} : !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>, !tessel.tensor<[mid2:16, ch2:16, h_k:3, w_k:3], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[ch2:16], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>, !tessel.tensor<[ch2:16], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    return %3 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
  }
  func.func private @BatchNorm_3(%arg0: !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32> {
    %0 = tessel.parameter "gamma" ones scale 1.000000e+00 seed 1344869386 : !tessel.tensor<[ch2:16], f32>
    %1 = tessel.parameter "beta" zeros scale 1.000000e+00 seed 797041863 : !tessel.tensor<[ch2:16], f32>
    %2 = tessel.parameter "running_mean" zeros scale 1.000000e+00 seed 312244240 buffer : !tessel.tensor<[ch2:16], f32>
    %3 = tessel.parameter "running_var" ones scale 1.000000e+00 seed 1337598978 buffer : !tessel.tensor<[ch2:16], f32>
    %4 = tessel.reduce mean %arg0 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32> -> !tessel.tensor<[ch2:16], f32>
    %5 = tessel.sub %arg0, %4 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>, !tessel.tensor<[ch2:16], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %6 = tessel.mul %5, %5 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>, !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %7 = tessel.reduce mean %6 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32> -> !tessel.tensor<[ch2:16], f32>
    %8 = tessel.constant 1.000000e-01 : f32 -> !tessel.tensor<[], f32>
    %9 = tessel.mul %4, %8 : !tessel.tensor<[ch2:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[ch2:16], f32>
    %10 = tessel.constant 0.899999976 : f32 -> !tessel.tensor<[], f32>
    %11 = tessel.mul %2, %10 : !tessel.tensor<[ch2:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[ch2:16], f32>
    %12 = tessel.add %11, %9 : !tessel.tensor<[ch2:16], f32>, !tessel.tensor<[ch2:16], f32> -> !tessel.tensor<[ch2:16], f32>
    %13 = tessel.update_buffer %2, %12 : !tessel.tensor<[ch2:16], f32>
    %14 = tessel.constant 0.100063816 : f32 -> !tessel.tensor<[], f32>
    %15 = tessel.mul %7, %14 : !tessel.tensor<[ch2:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[ch2:16], f32>
    %16 = tessel.constant 0.899999976 : f32 -> !tessel.tensor<[], f32>
    %17 = tessel.mul %3, %16 : !tessel.tensor<[ch2:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[ch2:16], f32>
    %18 = tessel.add %17, %15 : !tessel.tensor<[ch2:16], f32>, !tessel.tensor<[ch2:16], f32> -> !tessel.tensor<[ch2:16], f32>
    %19 = tessel.update_buffer %3, %18 : !tessel.tensor<[ch2:16], f32>
    %20 = tessel.constant 9.99999974E-6 : f32 -> !tessel.tensor<[], f32>
    %21 = tessel.add %7, %20 : !tessel.tensor<[ch2:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[ch2:16], f32>
    %22 = tessel.rsqrt %21 : !tessel.tensor<[ch2:16], f32>
    %23 = tessel.mul %5, %22 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>, !tessel.tensor<[ch2:16], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %24 = tessel.mul %23, %0 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>, !tessel.tensor<[ch2:16], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %25 = tessel.add %24, %1 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>, !tessel.tensor<[ch2:16], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    return %25 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
  }
  func.func private @Conv2d_5(%arg0: !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32> {
    %0 = tessel.parameter "w" uniform scale 0.35355339059327373 seed 1913405238 : !tessel.tensor<[ch1:8, ch2:16, h_k:1, w_k:1], f32>
    %1 = tessel.conv2d %arg0, %0 {input_channel = "ch1", kernel = ["h_k", "w_k"], output_channel = "ch2", spatial = ["h", "w"], strides = array<i64: 2, 2>} : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>, !tessel.tensor<[ch1:8, ch2:16, h_k:1, w_k:1], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[ch2:16], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>, !tessel.tensor<[ch2:16], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    return %3 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
  }
  func.func private @ResidualBlock_2(%arg0: !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32> {
    %0 = call @Conv2d_6(%arg0) {tessel.scope = "a.conv"} : (!tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
    %1 = call @BatchNorm_4(%0) {tessel.scope = "a.bn"} : (!tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
    %2 = tessel.relu %1 : !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
    %3 = call @Conv2d_7(%2) {tessel.scope = "b.conv"} : (!tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %4 = call @BatchNorm_3(%3) {tessel.scope = "b.bn"} : (!tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %5 = tessel.add %4, %arg0 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>, !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %6 = tessel.relu %5 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    return %6 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
  }
  func.func private @Conv2d_6(%arg0: !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32> {
    %0 = tessel.parameter "w" uniform scale 0.083333333333333329 seed 1913405238 : !tessel.tensor<[ch2:16, mid3:16, h_k:3, w_k:3], f32>
    %1 = tessel.conv2d %arg0, %0 {input_channel = "ch2", kernel = ["h_k", "w_k"], output_channel = "mid3", padding = array<i64: 1, 1, 1, 1>, spatial = ["h", "w"]} : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>, !tessel.tensor<[ch2:16, mid3:16, h_k:3, w_k:3], f32> -> !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[mid3:16], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>, !tessel.tensor<[mid3:16], f32> -> !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
    return %3 : !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
  }
  func.func private @BatchNorm_4(%arg0: !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32> {
    %0 = tessel.parameter "gamma" ones scale 1.000000e+00 seed 1344869386 : !tessel.tensor<[mid3:16], f32>
    %1 = tessel.parameter "beta" zeros scale 1.000000e+00 seed 797041863 : !tessel.tensor<[mid3:16], f32>
    %2 = tessel.parameter "running_mean" zeros scale 1.000000e+00 seed 312244240 buffer : !tessel.tensor<[mid3:16], f32>
    %3 = tessel.parameter "running_var" ones scale 1.000000e+00 seed 1337598978 buffer : !tessel.tensor<[mid3:16], f32>
    %4 = tessel.reduce mean %arg0 : !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32> -> !tessel.tensor<[mid3:16], f32>
    %5 = tessel.sub %arg0, %4 : !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>, !tessel.tensor<[mid3:16], f32> -> !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
    %6 = tessel.mul %5, %5 : !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>, !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32> -> !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
    %7 = tessel.reduce mean %6 : !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32> -> !tessel.tensor<[mid3:16], f32>
    %8 = tessel.constant 1.000000e-01 : f32 -> !tessel.tensor<[], f32>
    %9 = tessel.mul %4, %8 : !tessel.tensor<[mid3:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[mid3:16], f32>
    %10 = tessel.constant 0.899999976 : f32 -> !tessel.tensor<[], f32>
    %11 = tessel.mul %2, %10 : !tessel.tensor<[mid3:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[mid3:16], f32>
    %12 = tessel.add %11, %9 : !tessel.tensor<[mid3:16], f32>, !tessel.tensor<[mid3:16], f32> -> !tessel.tensor<[mid3:16], f32>
    %13 = tessel.update_buffer %2, %12 : !tessel.tensor<[mid3:16], f32>
    %14 = tessel.constant 0.100063816 : f32 -> !tessel.tensor<[], f32>
    %15 = tessel.mul %7, %14 : !tessel.tensor<[mid3:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[mid3:16], f32>
    %16 = tessel.constant 0.899999976 : f32 -> !tessel.tensor<[], f32>
    %17 = tessel.mul %3, %16 : !tessel.tensor<[mid3:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[mid3:16], f32>
    %18 = tessel.add %17, %15 : !tessel.tensor<[mid3:16], f32>, !tessel.tensor<[mid3:16], f32> -> !tessel.tensor<[mid3:16], f32>
    %19 = tessel.update_buffer %3, %18 : !tessel.tensor<[mid3:16], f32>
    %20 = tessel.constant 9.99999974E-6 : f32 -> !tessel.tensor<[], f32>
    %21 = tessel.add %7, %20 : !tessel.tensor<[mid3:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[mid3:16], f32>
    %22 = tessel.rsqrt %21 : !tessel.tensor<[mid3:16], f32>
    %23 = tessel.mul %5, %22 : !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>, !tessel.tensor<[mid3:16], f32> -> !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
    %24 = tessel.mul %23, %0 : !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>, !tessel.tensor<[mid3:16], f32> -> !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
    %25 = tessel.add %24, %1 : !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>, !tessel.tensor<[mid3:16], f32> -> !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
    return %25 : !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
  }
  func.func private @Conv2d_7(%arg0: !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32> {
    %0 = tessel.parameter "w" uniform scale 0.083333333333333329 seed 1913405238 : !tessel.tensor<[mid3:16, ch2:16, h_k:3, w_k:3], f32>
    %1 = tessel.conv2d %arg0, %0 {input_channel = "mid3", kernel = ["h_k", "w_k"], output_channel = "ch2", padding = array<i64: 1, 1, 1, 1>, spatial = ["h", "w"]} : !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>, !tessel.tensor<[mid3:16, ch2:16, h_k:3, w_k:3], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[ch2:16], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>, !tessel.tensor<[ch2:16], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    return %3 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
  }
  func.func private @Linear(%arg0: !tessel.tensor<[batch:8, ch2:16], f32>) -> !tessel.tensor<[batch:8, classes:10], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[ch2:16, classes:10], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, ch2:16], f32>, !tessel.tensor<[ch2:16, classes:10], f32>) -> !tessel.tensor<[batch:8, classes:10], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[classes:10], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:8, classes:10], f32>, !tessel.tensor<[classes:10], f32> -> !tessel.tensor<[batch:8, classes:10], f32>
    return %3 : !tessel.tensor<[batch:8, classes:10], f32>
  }
  func.func @evaluate(%arg0: !tessel.tensor<[batch:8, c:1, h:28, w:28], f32> {tessel.name = "images"}, %arg1: !tessel.tensor<[batch:8], i32> {tessel.name = "labels"}) -> (!tessel.tensor<[], f32> {tessel.name = "loss"}, !tessel.tensor<[], f32> {tessel.name = "correct"}) {
    %0 = call @ResNet_1(%arg0) {tessel.name = "logits", tessel.scope = "resnet"} : (!tessel.tensor<[batch:8, c:1, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, classes:10], f32>
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
  func.func private @ResNet_1(%arg0: !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, classes:10], f32> {
    %0 = call @Conv2d(%arg0) {tessel.scope = "stem.conv"} : (!tessel.tensor<[batch:8, c:1, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %1 = call @BatchNorm_5(%0) {tessel.scope = "stem.bn"} : (!tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %2 = tessel.relu %1 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %3 = call @ResidualBlock_3(%2) {tessel.scope = "block1"} : (!tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %4 = call @ResidualBlock_4(%3) {tessel.scope = "block2"} : (!tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %5 = call @ResidualBlock_5(%4) {tessel.scope = "block3"} : (!tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %6 = tessel.reduce mean %5 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32> -> !tessel.tensor<[batch:8, ch2:16], f32>
    %7 = call @Linear(%6) {tessel.scope = "head"} : (!tessel.tensor<[batch:8, ch2:16], f32>) -> !tessel.tensor<[batch:8, classes:10], f32>
    return %7 : !tessel.tensor<[batch:8, classes:10], f32>
  }
  func.func private @BatchNorm_5(%arg0: !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32> {
    %0 = tessel.parameter "gamma" ones scale 1.000000e+00 seed 1344869386 : !tessel.tensor<[ch1:8], f32>
    %1 = tessel.parameter "beta" zeros scale 1.000000e+00 seed 797041863 : !tessel.tensor<[ch1:8], f32>
    %2 = tessel.parameter "running_mean" zeros scale 1.000000e+00 seed 312244240 buffer : !tessel.tensor<[ch1:8], f32>
    %3 = tessel.parameter "running_var" ones scale 1.000000e+00 seed 1337598978 buffer : !tessel.tensor<[ch1:8], f32>
    %4 = tessel.constant 9.99999974E-6 : f32 -> !tessel.tensor<[], f32>
    %5 = tessel.add %3, %4 : !tessel.tensor<[ch1:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[ch1:8], f32>
    %6 = tessel.rsqrt %5 : !tessel.tensor<[ch1:8], f32>
    %7 = tessel.sub %arg0, %2 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>, !tessel.tensor<[ch1:8], f32> -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %8 = tessel.mul %7, %6 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>, !tessel.tensor<[ch1:8], f32> -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %9 = tessel.mul %8, %0 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>, !tessel.tensor<[ch1:8], f32> -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %10 = tessel.add %9, %1 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>, !tessel.tensor<[ch1:8], f32> -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    return %10 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
  }
  func.func private @ResidualBlock_3(%arg0: !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32> {
    %0 = call @Conv2d_1(%arg0) {tessel.scope = "a.conv"} : (!tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
    %1 = call @BatchNorm_6(%0) {tessel.scope = "a.bn"} : (!tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
    %2 = tessel.relu %1 : !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
    %3 = call @Conv2d_2(%2) {tessel.scope = "b.conv"} : (!tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %4 = call @BatchNorm_5(%3) {tessel.scope = "b.bn"} : (!tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %5 = tessel.add %4, %arg0 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>, !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32> -> !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    %6 = tessel.relu %5 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
    return %6 : !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>
  }
  func.func private @BatchNorm_6(%arg0: !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32> {
    %0 = tessel.parameter "gamma" ones scale 1.000000e+00 seed 1344869386 : !tessel.tensor<[mid1:8], f32>
    %1 = tessel.parameter "beta" zeros scale 1.000000e+00 seed 797041863 : !tessel.tensor<[mid1:8], f32>
    %2 = tessel.parameter "running_mean" zeros scale 1.000000e+00 seed 312244240 buffer : !tessel.tensor<[mid1:8], f32>
    %3 = tessel.parameter "running_var" ones scale 1.000000e+00 seed 1337598978 buffer : !tessel.tensor<[mid1:8], f32>
    %4 = tessel.constant 9.99999974E-6 : f32 -> !tessel.tensor<[], f32>
    %5 = tessel.add %3, %4 : !tessel.tensor<[mid1:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[mid1:8], f32>
    %6 = tessel.rsqrt %5 : !tessel.tensor<[mid1:8], f32>
    %7 = tessel.sub %arg0, %2 : !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>, !tessel.tensor<[mid1:8], f32> -> !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
    %8 = tessel.mul %7, %6 : !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>, !tessel.tensor<[mid1:8], f32> -> !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
    %9 = tessel.mul %8, %0 : !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>, !tessel.tensor<[mid1:8], f32> -> !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
    %10 = tessel.add %9, %1 : !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>, !tessel.tensor<[mid1:8], f32> -> !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
    return %10 : !tessel.tensor<[batch:8, mid1:8, h:28, w:28], f32>
  }
  func.func private @ResidualBlock_4(%arg0: !tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32> {
    %0 = call @Conv2d_3(%arg0) {tessel.scope = "a.conv"} : (!tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
    %1 = call @BatchNorm_7(%0) {tessel.scope = "a.bn"} : (!tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
    %2 = tessel.relu %1 : !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
    %3 = call @Conv2d_4(%2) {tessel.scope = "b.conv"} : (!tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %4 = call @BatchNorm_8(%3) {tessel.scope = "b.bn"} : (!tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %5 = call @Conv2d_5(%arg0) {tessel.scope = "proj.conv"} : (!tessel.tensor<[batch:8, ch1:8, h:28, w:28], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %6 = call @BatchNorm_8(%5) {tessel.scope = "proj.bn"} : (!tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %7 = tessel.add %4, %6 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>, !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %8 = tessel.relu %7 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    return %8 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
  }
  func.func private @BatchNorm_7(%arg0: !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32> {
    %0 = tessel.parameter "gamma" ones scale 1.000000e+00 seed 1344869386 : !tessel.tensor<[mid2:16], f32>
    %1 = tessel.parameter "beta" zeros scale 1.000000e+00 seed 797041863 : !tessel.tensor<[mid2:16], f32>
    %2 = tessel.parameter "running_mean" zeros scale 1.000000e+00 seed 312244240 buffer : !tessel.tensor<[mid2:16], f32>
    %3 = tessel.parameter "running_var" ones scale 1.000000e+00 seed 1337598978 buffer : !tessel.tensor<[mid2:16], f32>
    %4 = tessel.constant 9.99999974E-6 : f32 -> !tessel.tensor<[], f32>
    %5 = tessel.add %3, %4 : !tessel.tensor<[mid2:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[mid2:16], f32>
    %6 = tessel.rsqrt %5 : !tessel.tensor<[mid2:16], f32>
    %7 = tessel.sub %arg0, %2 : !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>, !tessel.tensor<[mid2:16], f32> -> !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
    %8 = tessel.mul %7, %6 : !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>, !tessel.tensor<[mid2:16], f32> -> !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
    %9 = tessel.mul %8, %0 : !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>, !tessel.tensor<[mid2:16], f32> -> !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
    %10 = tessel.add %9, %1 : !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>, !tessel.tensor<[mid2:16], f32> -> !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
    return %10 : !tessel.tensor<[batch:8, mid2:16, h:14, w:14], f32>
  }
  func.func private @BatchNorm_8(%arg0: !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32> {
    %0 = tessel.parameter "gamma" ones scale 1.000000e+00 seed 1344869386 : !tessel.tensor<[ch2:16], f32>
    %1 = tessel.parameter "beta" zeros scale 1.000000e+00 seed 797041863 : !tessel.tensor<[ch2:16], f32>
    %2 = tessel.parameter "running_mean" zeros scale 1.000000e+00 seed 312244240 buffer : !tessel.tensor<[ch2:16], f32>
    %3 = tessel.parameter "running_var" ones scale 1.000000e+00 seed 1337598978 buffer : !tessel.tensor<[ch2:16], f32>
    %4 = tessel.constant 9.99999974E-6 : f32 -> !tessel.tensor<[], f32>
    %5 = tessel.add %3, %4 : !tessel.tensor<[ch2:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[ch2:16], f32>
    %6 = tessel.rsqrt %5 : !tessel.tensor<[ch2:16], f32>
    %7 = tessel.sub %arg0, %2 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>, !tessel.tensor<[ch2:16], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %8 = tessel.mul %7, %6 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>, !tessel.tensor<[ch2:16], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %9 = tessel.mul %8, %0 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>, !tessel.tensor<[ch2:16], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %10 = tessel.add %9, %1 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>, !tessel.tensor<[ch2:16], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    return %10 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
  }
  func.func private @ResidualBlock_5(%arg0: !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32> {
    %0 = call @Conv2d_6(%arg0) {tessel.scope = "a.conv"} : (!tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
    %1 = call @BatchNorm_9(%0) {tessel.scope = "a.bn"} : (!tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
    %2 = tessel.relu %1 : !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
    %3 = call @Conv2d_7(%2) {tessel.scope = "b.conv"} : (!tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %4 = call @BatchNorm_8(%3) {tessel.scope = "b.bn"} : (!tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %5 = tessel.add %4, %arg0 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>, !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32> -> !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    %6 = tessel.relu %5 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
    return %6 : !tessel.tensor<[batch:8, ch2:16, h:14, w:14], f32>
  }
  func.func private @BatchNorm_9(%arg0: !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>) -> !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32> {
    %0 = tessel.parameter "gamma" ones scale 1.000000e+00 seed 1344869386 : !tessel.tensor<[mid3:16], f32>
    %1 = tessel.parameter "beta" zeros scale 1.000000e+00 seed 797041863 : !tessel.tensor<[mid3:16], f32>
    %2 = tessel.parameter "running_mean" zeros scale 1.000000e+00 seed 312244240 buffer : !tessel.tensor<[mid3:16], f32>
    %3 = tessel.parameter "running_var" ones scale 1.000000e+00 seed 1337598978 buffer : !tessel.tensor<[mid3:16], f32>
    %4 = tessel.constant 9.99999974E-6 : f32 -> !tessel.tensor<[], f32>
    %5 = tessel.add %3, %4 : !tessel.tensor<[mid3:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[mid3:16], f32>
    %6 = tessel.rsqrt %5 : !tessel.tensor<[mid3:16], f32>
    %7 = tessel.sub %arg0, %2 : !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>, !tessel.tensor<[mid3:16], f32> -> !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
    %8 = tessel.mul %7, %6 : !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>, !tessel.tensor<[mid3:16], f32> -> !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
    %9 = tessel.mul %8, %0 : !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>, !tessel.tensor<[mid3:16], f32> -> !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
    %10 = tessel.add %9, %1 : !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>, !tessel.tensor<[mid3:16], f32> -> !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
    return %10 : !tessel.tensor<[batch:8, mid3:16, h:14, w:14], f32>
  }
}
