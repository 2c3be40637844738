#!/usr/bin/env python3
"""A GPT-style language model written with tessel's Python front end.

The same model as gpt.cpp (and the same IR: gpt.mlir is what both write):
a token embedding tied to the output projection, learned positions, and
pre-LN blocks of causal multi-head attention and a GELU MLP; `decode` runs
it one position at a time with key/value caches, for generating text.

    gpt.py --emit gpt.mlir
    gpt.py --explain examples/gpt/data.yaml --explain examples/gpt/hybrid.yaml
    gpt.py --train examples/gpt/hybrid.yaml --steps 100
    gpt.py --train examples/gpt/hybrid.yaml --checkpoint-dir ckpt \
        --generate examples/gpt/data.yaml --prompt "Licensed under "
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

    def inverse_frequencies(self, model):
        """10000^(-2i / head_dim) for each i of head_dim/2: angle[p, i] is
        p times it."""
        half = Dim("head_dim", self.head_dim.size // 2)
        exponent = tessel.cast(tessel.iota(model, [half], "head_dim"), "f32")
        return tessel.exp(exponent * (-2.0 * math.log(10000.0) / self.head_dim.size))

    def project(self, name, x):
        return tessel.Linear(name, [self.heads, self.head_dim], "d_model", bias=False)(x)

    def output(self, attention, x):
        return tessel.Linear("o", [x.dim("d_model")], ["heads", "head_dim"], bias=False)(attention)

    def forward(self, x):
        seq = x.dim("seq")
        half = Dim("head_dim", self.head_dim.size // 2)
        model = tessel.Model.of(x)
        inv_freq = self.inverse_frequencies(model)
        q_angles = tessel.cast(tessel.iota(model, [seq, half], "seq"), "f32") * inv_freq
        k_angles = tessel.rename(q_angles, "seq", "key")
        q = rotate(self.project("q", x), q_angles)
        k = rotate(tessel.rename(self.project("k", x), "seq", "key"), k_angles)
        v = tessel.rename(self.project("v", x), "seq", "key")
        attention = tessel.dot_product_attention(q, k, v, "seq", "key", "head_dim")
        return self.output(attention, x)


class RotaryAttentionStep(RotaryAttention):
    """The rotary attention at one position, for decoding: the query and key
    turned by that position's angles, the key (rotated) and value written
    into the caches."""

    def forward(self, x, position, k_cache, v_cache):
        angles = tessel.cast(position, "f32") * self.inverse_frequencies(tessel.Model.of(x))
        q = rotate(self.project("q", x), angles)
        k = rotate(self.project("k", x), angles)
        v = self.project("v", x)
        attention, k_cache, v_cache = tessel.cached_attention(q, k, v, k_cache, v_cache,
                                                              position)
        return self.output(attention, x), k_cache, v_cache


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


class RegularizedBlockStep(RegularizedBlock):
    """The regularized block at one position, for decoding (no dropout)."""

    def __init__(self, name, heads, head_dim, d_ff, dropout):
        super().__init__(name, heads, head_dim, d_ff, dropout)
        self.attention = RotaryAttentionStep("attn", heads, head_dim)

    def forward(self, x, position, k_cache, v_cache):
        attended, k_cache, v_cache = self.attention(
            tessel.LayerNorm("ln1", "d_model")(x), position, k_cache, v_cache)
        x = x + attended
        return x + self.mlp(tessel.LayerNorm("ln2", "d_model")(x)), k_cache, v_cache


def build_gpt(layers=2, batch=4, seq=16, vocab=256, d_model=64, heads=4, d_ff=256,
              rotary=False, dropout=0.0, full_logits=False):
    """The LM: learned positions by default; `rotary` rotates queries and keys
    instead, and `dropout` > 0 adds dropout after the embedding and each
    sub-block (its masks keyed by the `dropout_step` input). It has
    `evaluate` (the loss and the number of positions predicted right, no
    dropout) and `decode`, one position with key/value caches (no dropout); with
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
            x = tessel.dropout(x, dropout, step, seed=1, training=model.training)
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

    def evaluate(tokens, targets, step=None):
        # The loss and the positions whose next byte is predicted right,
        # which the driver reports on held-out text (--eval-every).
        return tessel.loss_and_correct(model, logits_of(tokens, step), targets, vocab)

    model.define("evaluate", inputs, evaluate)

    def block_step(i):
        if regularized:
            return RegularizedBlockStep(f"block{i}", heads, head_dim, Dim("d_ff", d_ff), dropout)
        return BlockStep(f"block{i}", heads, head_dim, Dim("d_ff", d_ff))

    cache_dims = tessel.MultiHeadAttention("attn", heads, head_dim, "d_model",
                                           "seq").cache_dims([batch], seq.size)
    define_decode(model, embedding, block_step, layers, batch, cache_dims,
                  positions=None if rotary else (seq, d_model))
    if full_logits:
        # The tokens (and the dropout step, which is off outside training).
        model.define("logits", inputs[:1] + inputs[2:], logits_of)
    return model


def cache_name(i, part):
    """The name of block i's key ("k") or value ("v") cache."""
    return f"block{i}.attn.{part}_cache"


def define_decode(model, embedding, block_step, layers, batch, cache_dims, positions):
    """decode: one position of each sequence in the batch, for generating
    text: the logits of the next token, and every block's key/value cache
    with this position's keys and values added. `block_step(i)` is block i
    at one position; `positions` are the (seq, d_model) dims of a learned
    position table, None for rotary positions."""

    def decode(token, position, *caches):
        x = embedding(token)
        if positions is not None:
            x = x + tessel.gather(model.parameter("pos_emb", list(positions)), position, "seq")
        outputs = {}
        for i in range(layers):
            x, k_cache, v_cache = block_step(i)(x, position, caches[2 * i], caches[2 * i + 1])
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
    tessel.add_model_arguments(parser, steps=100, generation=True)
    args = parser.parse_args()

    model = build_gpt(args.layers, args.batch, args.seq, 256, args.d_model, args.heads,
                      args.d_ff, rotary=args.rotary, dropout=args.dropout)
    tessel.run_model_commands(model, args)


if __name__ == "__main__":
    main()
