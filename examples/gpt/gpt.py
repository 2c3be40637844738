#!/usr/bin/env python3
"""A GPT-style language model written with tessel's Python front end.

The same model as gpt.cpp (and the same IR: gpt.mlir is what both write):
a token embedding tied to the output projection, learned positions, and
pre-LN blocks of causal multi-head attention and a GELU MLP; `decode` runs
it one position at a time with key/value caches, for generating text.

    gpt.py --emit gpt.mlir
    gpt.py --explain examples/gpt/data.yaml --explain examples/gpt/hybrid.yaml
    gpt.py --train examples/gpt/hybrid.yaml --steps 100
"""
import argparse
import math

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


class BlockStep(Block):
    """The block at one position, for decoding: the same weights, the
    attention reading and extending its key/value cache."""

    def forward(self, x, position, k_cache, v_cache):
        attended, k_cache, v_cache = self.attention.step(
            tessel.LayerNorm("ln1", "d_model")(x), position, k_cache, v_cache)
        x = x + attended
        return x + self.mlp(tessel.LayerNorm("ln2", "d_model")(x)), k_cache, v_cache


def rotate(x, angles):
    """Rotary position embedding: the two halves of `head_dim` turned by the
    position's angles ([seq or key, head_dim/2])."""
    half = x.dim("head_dim").size // 2
    first, second = tessel.slice(x, "head_dim", 0, half), tessel.slice(x, "head_dim", half, half)
    cos, sin = tessel.cos(angles), tessel.sin(angles)
    return tessel.concat([first * cos - second * sin, first * sin + second * cos], "head_dim")


class RotaryAttention(tessel.Module):
    """Causal multi-head self-attention whose queries and keys carry their
    positions by rotation (RoFormer) instead of a learned position table."""

    def __init__(self, name, heads, head_dim):
        super().__init__(name)
        self.heads, self.head_dim = heads, head_dim

    def forward(self, x):
        seq = x.dim("seq")
        half = Dim("head_dim", self.head_dim.size // 2)
        model = tessel.Model.of(x)
        # angle[p, i] = p * 10000^(-2i / head_dim)
        exponent = tessel.cast(tessel.iota(model, [half], "head_dim"), "f32")
        inv_freq = tessel.exp(exponent * (-2.0 * math.log(10000.0) / self.head_dim.size))
        q_angles = tessel.cast(tessel.iota(model, [seq, half], "seq"), "f32") * inv_freq
        k_angles = tessel.rename(q_angles, "seq", "key")

        def project(name):
            return tessel.Linear(name, [self.heads, self.head_dim], "d_model", bias=False)(x)

        q = rotate(project("q"), q_angles)
        k = rotate(tessel.rename(project("k"), "seq", "key"), k_angles)
        v = tessel.rename(project("v"), "seq", "key")
        attention = tessel.dot_product_attention(q, k, v, "seq", "key", "head_dim")
        return tessel.Linear("o", [x.dim("d_model")], ["heads", "head_dim"], bias=False)(attention)


class RegularizedBlock(tessel.Module):
    """A block with rotary attention and dropout after each sub-block (the
    `dropout_step` input changes the masks every step)."""

    def __init__(self, name, heads, head_dim, d_ff, dropout):
        super().__init__(name)
        self.attention = RotaryAttention("attn", heads, head_dim)
        self.mlp = tessel.MLP("mlp", d_ff, "d_model")
        self.rate = dropout

    def forward(self, x, step):
        attended = self.attention(tessel.LayerNorm("ln1", "d_model")(x))
        x = x + tessel.dropout(attended, self.rate, step, seed=1, training=self.training)
        fed = self.mlp(tessel.LayerNorm("ln2", "d_model")(x))
        return x + tessel.dropout(fed, self.rate, step, seed=2, training=self.training)


def build_gpt(layers=2, batch=4, seq=16, vocab=256, d_model=64, heads=4, d_ff=256,
              rotary=False, dropout=0.0, full_logits=False):
    """The LM: learned positions by default; `rotary` rotates queries and keys
    instead, and `dropout` > 0 adds dropout after the embedding and each
    sub-block (its masks keyed by the `dropout_step` input). With learned
    positions it has `decode`, one position with key/value caches; with
    `full_logits` also `logits(tokens)`, the logits at every position (what
    decode is checked against)."""
    batch, seq, vocab, d_model = (Dim("batch", batch), Dim("seq", seq),
                                  Dim("vocab", vocab), Dim("d_model", d_model))
    heads, head_dim = Dim("heads", heads), Dim("head_dim", d_model.size // heads)
    embedding = tessel.Embedding("tok_emb", vocab, [d_model])
    model = tessel.Model()
    regularized = rotary or dropout > 0

    def logits_of(tokens, step=None):
        x = embedding(tokens)
        if not rotary:
            x = x + model.parameter("pos_emb", [seq, d_model])
        if dropout > 0:
            x = tessel.dropout(x, dropout, step, seed=1)
        for i in range(layers):
            if regularized:
                x = RegularizedBlock(f"block{i}", heads, head_dim, Dim("d_ff", d_ff),
                                     dropout)(x, step)
            else:
                x = Block(f"block{i}", heads, head_dim, Dim("d_ff", d_ff))(x)
        logits = embedding.attend(tessel.LayerNorm("ln_f", "d_model")(x))
        model.name(logits, "logits")
        return logits

    def forward(tokens, targets, step=None):
        logits = logits_of(tokens, step)
        return tessel.reduce_mean(tessel.cross_entropy(logits, targets, "vocab"))

    inputs = [tessel.Input("tokens", [batch, seq], "i32"),
              tessel.Input("targets", [batch, seq], "i32")]
    if regularized:
        # The step is an input even without dropout, so that one block
        # function serves both; `tessel run` sets it every step.
        inputs.append(tessel.Input("dropout_step", [], "i64"))
    model.define("forward", inputs, forward)
    if not regularized:
        define_decode(model, embedding, layers, batch, seq, d_model, heads, head_dim, d_ff)
    if full_logits:
        model.define("logits", inputs[:1], logits_of)
    return model


def cache_name(i, part):
    """The name of block i's key ("k") or value ("v") cache."""
    return f"block{i}.attn.{part}_cache"


def define_decode(model, embedding, layers, batch, seq, d_model, heads, head_dim, d_ff):
    """decode: one position of each sequence in the batch, for generating
    text: the logits of the next token, and every block's key/value cache
    with this position's keys and values added."""
    cache_dims = tessel.MultiHeadAttention("attn", heads, head_dim, "d_model",
                                           "seq").cache_dims([batch], seq.size)

    def decode(token, position, *caches):
        x = embedding(token)
        x = x + tessel.gather(model.parameter("pos_emb", [seq, d_model]), position, "seq")
        outputs = {}
        for i in range(layers):
            x, k_cache, v_cache = BlockStep(f"block{i}", heads, head_dim, Dim("d_ff", d_ff))(
                x, position, caches[2 * i], caches[2 * i + 1])
            outputs[cache_name(i, "k")], outputs[cache_name(i, "v")] = k_cache, v_cache
        logits = embedding.attend(tessel.LayerNorm("ln_f", "d_model")(x))
        model.name(logits, "logits")
        return {"logits": logits, **outputs}

    inputs = [tessel.Input("token", [batch], "i32"), tessel.Input("position", [], "i32")]
    for i in range(layers):
        inputs += [tessel.Input(cache_name(i, "k"), cache_dims),
                   tessel.Input(cache_name(i, "v"), cache_dims)]
    model.define("decode", inputs, decode)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--seq", type=int, default=16)
    parser.add_argument("--d-model", type=int, default=64)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--d-ff", type=int, default=256)
    parser.add_argument("--rotary", action="store_true",
                        help="rotary position embeddings instead of a learned table")
    parser.add_argument("--dropout", type=float, default=0.0,
                        help="dropout rate after the embedding and each sub-block")
    tessel.add_model_arguments(parser, steps=100)
    args = parser.parse_args()

    model = build_gpt(args.layers, args.batch, args.seq, 256, args.d_model, args.heads,
                      args.d_ff, rotary=args.rotary, dropout=args.dropout)
    tessel.run_model_commands(model, args)


if __name__ == "__main__":
    main()
