#!/usr/bin/env python3
"""A GPT-style language model written with tessel's Python front end.

The same model as gpt.cpp (and the same IR: gpt.mlir is what both write):
a token embedding tied to the output projection, learned positions, and
pre-LN blocks of causal multi-head attention and a GELU MLP.

    gpt.py --emit gpt.mlir
    gpt.py --explain examples/gpt/data.yaml --explain examples/gpt/hybrid.yaml
    gpt.py --train examples/gpt/hybrid.yaml --steps 100
"""
import argparse
import json

import tessel
from tessel import Dim


class Block(tessel.Module):
    """x + attention(ln(x)), then + mlp(ln(x))."""

    def __init__(self, name, heads, head_dim, d_ff):
        super().__init__(name)
        self.attention = tessel.MultiHeadAttention("attn", heads, head_dim, "d_model", "seq")
        self.mlp = tessel.MLP("mlp", d_ff, "d_model")

    def forward(self, x):
        x = x + self.attention(tessel.LayerNorm("ln1", "d_model")(x))
        return x + self.mlp(tessel.LayerNorm("ln2", "d_model")(x))


def build_gpt(layers=2, batch=4, seq=16, vocab=256, d_model=64, heads=4, d_ff=256):
    batch, seq, vocab, d_model = (Dim("batch", batch), Dim("seq", seq),
                                  Dim("vocab", vocab), Dim("d_model", d_model))
    heads, head_dim = Dim("heads", heads), Dim("head_dim", d_model.size // heads)
    embedding = tessel.Embedding("tok_emb", vocab, [d_model])
    model = tessel.Model()

    def forward(tokens, targets):
        x = embedding(tokens) + model.parameter("pos_emb", [seq, d_model])
        for i in range(layers):
            x = Block(f"block{i}", heads, head_dim, Dim("d_ff", d_ff))(x)
        logits = embedding.attend(tessel.LayerNorm("ln_f", "d_model")(x))
        model.name(logits, "logits")
        return tessel.reduce_mean(tessel.cross_entropy(logits, targets, "vocab"))

    model.define("forward", [tessel.Input("tokens", [batch, seq], "i32"),
                             tessel.Input("targets", [batch, seq], "i32")], forward)
    return model


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--seq", type=int, default=16)
    parser.add_argument("--d-model", type=int, default=64)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--d-ff", type=int, default=256)
    parser.add_argument("--emit", help="write the model's MLIR to this file")
    parser.add_argument("--explain", action="append", default=[],
                        help="explain under a layout file")
    parser.add_argument("--train", help="train under a layout file")
    parser.add_argument("-n", "--ranks", type=int, default=0)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--lr", type=float, default=0.003)
    args = parser.parse_args()

    model = build_gpt(args.layers, args.batch, args.seq, 256, args.d_model, args.heads,
                      args.d_ff)
    if args.emit:
        model.write(args.emit)
    for layout in args.explain:
        report = tessel.explain(model, layout)
        print(f"{layout}: {report['ranks']} ranks, {json.dumps(report['totals'])}", flush=True)
    if args.train:
        metrics = tessel.run(model, args.train, ranks=args.ranks, optimizer="adamw",
                             args=["--steps", args.steps, "--lr", args.lr])
        print("last metrics:", json.dumps(metrics[-1]))


if __name__ == "__main__":
    main()
