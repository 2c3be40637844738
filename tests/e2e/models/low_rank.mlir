// A low-rank classifier for Fashion-MNIST whose logits are one einsum of
// three inputs, images . u . v. tests/e2e/fast_kernels.sh compiles it with
// --no-decompose-einsum, which leaves that einsum (and its gradients, also
// of three inputs) to the runtime's reference kernel, to check that such a
// slow path is reported.

!images = !tessel.tensor<[batch:16, pixels:784], f32>
!u = !tessel.tensor<[pixels:784, rank:16], f32>
!v = !tessel.tensor<[rank:16, classes:10], f32>
!logits = !tessel.tensor<[batch:16, classes:10], f32>
!scalar = !tessel.tensor<[], f32>

func.func @forward(%x: !images {tessel.name = "images"},
                   %labels: !tessel.tensor<[batch:16], i32> {tessel.name = "labels"})
    -> !scalar {
  %u = tessel.parameter "u" normal scale 0.05 seed 1 : !u
  %v = tessel.parameter "v" normal scale 0.25 seed 2 : !v
  %logits = tessel.einsum %x, %u, %v {tessel.name = "logits"}
      : (!images, !u, !v) -> !logits
  %losses = tessel.softmax_cross_entropy %logits, %labels over "classes"
      : !logits, !tessel.tensor<[batch:16], i32> -> !tessel.tensor<[batch:16], f32>
  %loss = tessel.reduce mean %losses : !tessel.tensor<[batch:16], f32> -> !scalar
  return %loss : !scalar
}
