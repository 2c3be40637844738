#!/usr/bin/env python3
"""A Vision Transformer for Fashion-MNIST, written with tessel's Python front end.

Each 28 x 28 image is cut into 7 x 7 patches of 4 x 4 pixels (a reshape that
splits the rows and columns by name), each patch is projected to d_model,
learned positions are added, pre-LN encoder blocks (bidirectional multi-head
attention and a GELU MLP) follow, and the mean over the patches goes through
a classifier. `evaluate` calls the same layers and counts the correct
predictions.

    vit.py --emit vit.mlir                       # the committed vit.mlir
    vit.py --explain examples/vit/hybrid.yaml
    vit.py --train examples/vit/hybrid.yaml --steps 600
"""
import argparse

import tessel
from tessel import Dim

DATA = "/usr/share/datasets/fashion-mnist"


class EncoderBlock(tessel.Module):
    """x + attention(ln(x)), then + mlp(ln(x)); attention sees every patch."""

    def __init__(self, name, heads, head_dim, d_ff):
        super().__init__(name)
        self.attention = tessel.MultiHeadAttention("attn", heads, head_dim, "d_model", "seq",
                                                   causal=False)
        self.mlp = tessel.MLP("mlp", d_ff, "d_model")

    def forward(self, x):
        x = x + self.attention(tessel.LayerNorm("ln1", "d_model")(x))
        return x + self.mlp(tessel.LayerNorm("ln2", "d_model")(x))


class VisionTransformer(tessel.Module):
    """Images [batch, c, h, w] -> logits [batch, classes]."""

    def __init__(self, name, layers, patch, d_model, heads, d_ff, classes):
        super().__init__(name)
        self.layers, self.patch = layers, patch
        self.d_model, self.heads, self.d_ff, self.classes = d_model, heads, d_ff, classes

    def forward(self, images):
        batch, c, h, w = images.dims
        p = self.patch
        grid_h, grid_w = Dim("grid_h", h.size // p), Dim("grid_w", w.size // p)
        # Rows are grid_h x patch rows, columns grid_w x patch columns.
        patches = tessel.reshape(images, [batch, c, grid_h, Dim("patch_h", p), grid_w,
                                          Dim("patch_w", p)])
        tokens = tessel.Linear("patch_embed", [self.d_model],
                               ["c", "patch_h", "patch_w"])(patches)
        seq = Dim("seq", grid_h.size * grid_w.size)
        x = tessel.reshape(tokens, [batch, seq, self.d_model])
        x = x + self.param("pos_emb", [seq, self.d_model])
        head_dim = Dim("head_dim", self.d_model.size // self.heads.size)
        for i in range(self.layers):
            x = EncoderBlock(f"block{i}", self.heads, head_dim, self.d_ff)(x)
        pooled = tessel.reduce_mean(tessel.LayerNorm("ln_f", "d_model")(x), "seq")
        return tessel.Linear("head", [self.classes], "d_model")(pooled)


def build_vit(layers=2, batch=8, d_model=32, heads=4, d_ff=64, patch=4):
    batch = Dim("batch", batch)
    images = tessel.Input("images", [batch, Dim("c", 1), Dim("h", 28), Dim("w", 28)])
    labels = tessel.Input("labels", [batch], "i32")
    classes = Dim("classes", 10)
    vit = VisionTransformer("vit", layers, patch, Dim("d_model", d_model), Dim("heads", heads),
                            Dim("d_ff", d_ff), classes)
    model = tessel.Model()
    tessel.define_classifier(model, vit, images, labels, classes)
    return model


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--d-model", type=int, default=32)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--d-ff", type=int, default=64)
    tessel.add_model_arguments(parser, steps=600, train_batch=64, data=DATA)
    args = parser.parse_args()

    model = build_vit(args.layers, 8, args.d_model, args.heads, args.d_ff)
    tessel.run_model_commands(model, args, schedule="cosine")


if __name__ == "__main__":
    main()
