#!/usr/bin/env python3
"""Writes the model of the model-parallel TensorFlow case study as tessel IR.

The case study (a Mesh-TensorFlow image classifier on MNIST) stacks two
convolutions with max pooling and then N fully connected layers of width
1024, N = 20, 40 or 60 for about 20, 41 and 62 million parameters, at a
batch of 1000. Here the images are Fashion-MNIST's (the same 28 x 28 grey
format; Debian ships it), and the layers alternate the names of their
hidden dimensions (`hid_a`, `hid_b`) because one tensor cannot name a
dimension twice: a layout that splits `hid_b` over an axis splits the
output of every odd layer and the input of every even one, which is the
case study's split of the `hidden` dimension (one all_reduce per pair of
layers, Megatron style).

usage: case_study_model.py --layers N [--batch B] [--width W] > model.mlir
"""
import argparse


def tensor(dims, element="f32"):
    inner = ", ".join(f"{name}:{size}" for name, size in dims)
    return f"!tessel.tensor<[{inner}], {element}>"


def body(args, lines):
    """The network up to the logits; returns the logits' SSA name."""
    b, w = args.batch, args.width
    images = [("batch", b), ("c", 1), ("h", 28), ("w", 28)]
    conv1 = [("batch", b), ("f1", 16), ("h", 28), ("w", 28)]
    pool1 = [("batch", b), ("f1", 16), ("h", 14), ("w", 14)]
    block2 = [("batch", b), ("f1", 16), ("h2", 14), ("w2", 14)]
    conv2 = [("batch", b), ("f2", 32), ("h2", 14), ("w2", 14)]
    pool2 = [("batch", b), ("f2", 32), ("h2", 7), ("w2", 7)]
    k1 = [("c", 1), ("f1", 16), ("kh", 3), ("kw", 3)]
    k2 = [("f1", 16), ("f2", 32), ("kh", 3), ("kw", 3)]
    p = lines.append
    p(f'  %k1 = tessel.parameter "conv1_w" normal scale 0.33 seed 1 : {tensor(k1)}')
    p(f'  %kb1 = tessel.parameter "conv1_b" zeros scale 1.0 seed 0 : {tensor([("f1", 16)])}')
    p(f'  %k2 = tessel.parameter "conv2_w" normal scale 0.083 seed 2 : {tensor(k2)}')
    p(f'  %kb2 = tessel.parameter "conv2_b" zeros scale 1.0 seed 0 : {tensor([("f2", 32)])}')
    p(f'  %c1 = tessel.conv2d %x, %k1 {{input_channel = "c", output_channel = "f1", '
      f'spatial = ["h", "w"], kernel = ["kh", "kw"], padding = array<i64: 1, 1, 1, 1>}} '
      f': {tensor(images)}, {tensor(k1)} -> {tensor(conv1)}')
    p(f'  %c1b = tessel.add %c1, %kb1 : {tensor(conv1)}, {tensor([("f1", 16)])} -> {tensor(conv1)}')
    p(f'  %r1 = tessel.relu %c1b : {tensor(conv1)}')
    p(f'  %p1 = tessel.pool max %r1 {{spatial = ["h", "w"], window = array<i64: 2, 2>, '
      f'strides = array<i64: 2, 2>}} : {tensor(conv1)} -> {tensor(pool1)}')
    p(f'  %x2 = tessel.rename %p1 : {tensor(pool1)} -> {tensor(block2)}')
    p(f'  %c2 = tessel.conv2d %x2, %k2 {{input_channel = "f1", output_channel = "f2", '
      f'spatial = ["h2", "w2"], kernel = ["kh", "kw"], padding = array<i64: 1, 1, 1, 1>}} '
      f': {tensor(block2)}, {tensor(k2)} -> {tensor(conv2)}')
    p(f'  %c2b = tessel.add %c2, %kb2 : {tensor(conv2)}, {tensor([("f2", 32)])} -> {tensor(conv2)}')
    p(f'  %r2 = tessel.relu %c2b : {tensor(conv2)}')
    p(f'  %p2 = tessel.pool max %r2 {{spatial = ["h2", "w2"], window = array<i64: 2, 2>, '
      f'strides = array<i64: 2, 2>}} : {tensor(conv2)} -> {tensor(pool2)}')

    # The flattening layer into the first hidden dimension, then N layers.
    names = ["hid_a", "hid_b"]
    flat_w = [("f2", 32), ("h2", 7), ("w2", 7), (names[0], w)]
    p(f'  %wf = tessel.parameter "flatten_w" normal scale 0.025 seed 3 : {tensor(flat_w)}')
    p(f'  %hf = tessel.einsum %p2, %wf : ({tensor(pool2)}, {tensor(flat_w)}) '
      f'-> {tensor([("batch", b), (names[0], w)])}')
    p(f'  %h0 = tessel.relu %hf : {tensor([("batch", b), (names[0], w)])}')
    # Each layer is a call of a layer function (scope fc<i>: weights
    # fc<i>.w and fc<i>.b), so that a pipeline layout can place whole
    # layers on ranks (docs/pipeline.md).
    for layer in range(args.layers):
        src, dst = names[layer % 2], names[(layer + 1) % 2]
        p(f'  %h{layer + 1} = func.call @dense_{src[-1]}{dst[-1]}(%h{layer}) '
          f'{{tessel.scope = "fc{layer}"}} : ({tensor([("batch", b), (src, w)])}) '
          f'-> {tensor([("batch", b), (dst, w)])}')
    last = names[args.layers % 2]
    out_w = [(last, w), ("classes", 10)]
    logits = [("batch", b), ("classes", 10)]
    p(f'  %wo = tessel.parameter "out_w" normal scale {(1.0 / w) ** 0.5:.6f} seed 4 : {tensor(out_w)}')
    p(f'  %bo = tessel.parameter "out_b" zeros scale 1.0 seed 0 : {tensor([("classes", 10)])}')
    p(f'  %lo = tessel.einsum %h{args.layers}, %wo : '
      f'({tensor([("batch", b), (last, w)])}, {tensor(out_w)}) -> {tensor(logits)}')
    p(f'  %logits = tessel.add %lo, %bo : {tensor(logits)}, {tensor([("classes", 10)])} -> {tensor(logits)}')
    p(f'  %losses = tessel.softmax_cross_entropy %logits, %labels over "classes" '
      f': {tensor(logits)}, {tensor([("batch", b)], "i32")} -> {tensor([("batch", b)])}')
    p(f'  %loss = tessel.reduce mean %losses : {tensor([("batch", b)])} -> {tensor([])}')
    return tensor(logits)


def layer_functions(args):
    """The two fully connected layers, hid_a -> hid_b and hid_b -> hid_a."""
    b, w = args.batch, args.width
    scale = (2.0 / w) ** 0.5
    lines = []
    for src, dst in (("hid_a", "hid_b"), ("hid_b", "hid_a")):
        weight = [(src, w), (dst, w)]
        bias = [(dst, w)]
        inp = [("batch", b), (src, w)]
        out = [("batch", b), (dst, w)]
        lines += [
            f"func.func private @dense_{src[-1]}{dst[-1]}(%h: {tensor(inp)}) -> {tensor(out)} {{",
            f'  %w = tessel.parameter "w" normal scale {scale:.6f} seed 10 : {tensor(weight)}',
            f'  %b = tessel.parameter "b" zeros scale 1.0 seed 0 : {tensor(bias)}',
            f"  %m = tessel.einsum %h, %w : ({tensor(inp)}, {tensor(weight)}) -> {tensor(out)}",
            f"  %a = tessel.add %m, %b : {tensor(out)}, {tensor(bias)} -> {tensor(out)}",
            f"  %r = tessel.relu %a : {tensor(out)}",
            f"  return %r : {tensor(out)}",
            "}",
            ""]
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, required=True)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--width", type=int, default=1024)
    args = parser.parse_args()
    b = args.batch
    images = tensor([("batch", b), ("c", 1), ("h", 28), ("w", 28)])
    labels = tensor([("batch", b)], "i32")
    scalar = tensor([])
    signature = (f'%x: {images} {{tessel.name = "images"}}, '
                 f'%labels: {labels} {{tessel.name = "labels"}}')
    out = [f"// The case study's classifier with {args.layers} fully connected layers of "
           f"width {args.width}, batch {b}.",
           "// Written by examples/papers/case_study_model.py; do not edit.",
           *layer_functions(args),
           f"func.func @forward({signature}) -> {scalar} {{"]
    body(args, out)
    out.append(f"  return %loss : {scalar}")
    out.append("}")
    out.append("")
    out.append(f"func.func @evaluate({signature}) -> ({scalar} {{tessel.name = \"loss\"}}, "
               f"{scalar} {{tessel.name = \"correct\"}}) {{")
    logits = body(args, out)
    per_example = tensor([("batch", b)])
    mask = tensor([("batch", b), ("classes", 10)], "i1")
    out += [f"  %best = tessel.reduce max %logits : {logits} -> {per_example}",
            f"  %is_best = tessel.compare ge, %logits, %best : {logits}, {per_example} -> {mask}",
            f"  %target = tessel.one_hot %labels as \"classes\" : {labels} -> {logits}",
            f"  %zero = tessel.constant 0.0 : f32 -> {scalar}",
            f"  %hits = tessel.select %is_best, %target, %zero : {mask}, {logits}, {scalar} -> {logits}",
            f"  %correct = tessel.reduce sum %hits : {logits} -> {scalar}",
            f"  return %loss, %correct : {scalar}, {scalar}",
            "}"]
    print("\n".join(out))


if __name__ == "__main__":
    main()
