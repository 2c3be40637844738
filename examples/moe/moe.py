#!/usr/bin/env python3
"""A top-2 mixture-of-experts language model written with tessel's Python front end.

A small decoder LM on the byte corpus (like examples/gpt) whose second block
replaces the MLP by a mixture of experts in the GShard / Mesh-TensorFlow
formulation with dense dispatch and combine tensors: each sequence is a
group of tokens; a router picks the top 2 of `experts` experts per token
(argmax, then argmax with the first masked out), each expert takes at most
`capacity` tokens of a group (a token's slot is the running count of its
expert's tokens before it, a cumsum over `seq`; later ones are dropped),
the dispatch tensor [batch, seq, route, capacity] gathers the tokens into
[experts, group, capacity, d_model] for the experts' FFNs, and the combine
tensor (dispatch times the renormalised gates) puts their outputs back.
An auxiliary load-balancing loss is added to the LM loss.

The router's view of the experts is the dimension `route`, never split; the
experts' side names the same extent `experts` and the batch `group`, and a
reshape between the two namings is where a layout that splits `experts`
moves the tokens to the ranks holding their experts (an all_to_all).

    moe.py --emit moe.mlir                       # the committed moe.mlir
    moe.py --explain examples/moe/expert.yaml
    moe.py --train examples/moe/hybrid.yaml --steps 300
"""
import argparse
import math

import tessel
from tessel import Dim


def top_k_routing(gates, capacity, k=2):
    """Dense top-k routing of gates [batch, seq, route] (softmax over `route`)
    with `capacity` slots per expert and group (sequence).

    Returns the dispatch tensor [batch, seq, route, capacity] (1 where a token
    takes a slot of an expert), the combine tensor (the same times the
    token's gate, renormalised over its chosen experts) and the
    load-balancing loss (a scalar)."""
    batch, seq, route = gates.dims
    limit = tessel.constant(tessel.Model.of(gates), float(capacity.size))
    remaining = gates
    filled = None        # [batch, route]: the slots earlier choices took
    masks, chosen, top1 = [], [], None
    for _ in range(k):
        # The best expert not chosen yet: argmax, as a one-hot mask.
        mask = tessel.one_hot(tessel.argmax(remaining, "route"), route)
        if top1 is None:
            top1 = mask
        chosen.append(tessel.reduce_sum(gates * mask, "route"))        # [batch, seq]
        remaining = remaining * (1.0 - mask)
        # A token's slot in its expert: how many tokens of its group before
        # it chose the same expert (for the second choice, after every
        # first choice the expert kept), counted from 0.
        position = tessel.cumsum(mask, "seq") - 1.0
        if filled is not None:
            position = position + filled
        # Tokens past the expert's capacity are dropped.
        mask = mask * tessel.cast(tessel.compare("lt", position, limit), "f32")
        count = tessel.reduce_sum(mask, "seq")
        filled = count if filled is None else filled + count
        slot = tessel.cast(tessel.reduce_sum(position * mask, "route"), "i32")
        masks.append(mask * tessel.one_hot(slot, capacity))           # [batch, seq, route, capacity]
    # The gates of the chosen experts, renormalised to sum to one.
    total = chosen[0]
    for gate in chosen[1:]:
        total = total + gate
    dispatch, combine = masks[0], masks[0] * (chosen[0] / total)
    for mask, gate in zip(masks[1:], chosen[1:]):
        dispatch = dispatch + mask
        combine = combine + mask * (gate / total)
    # Load balance (GShard, Switch Transformer): experts x the sum over the
    # experts of the mean gate times the fraction of tokens whose first
    # choice it is (before the capacity drops any); 1 when balanced.
    fraction = tessel.reduce_mean(top1, ["batch", "seq"])
    mean_gate = tessel.reduce_mean(gates, ["batch", "seq"])
    balance = tessel.reduce_sum(fraction * mean_gate) * float(route.size)
    return dispatch, combine, balance


class Router(tessel.Module):
    """x [batch, seq, d_model] -> top_k_routing of softmax(x w) over `route`."""

    def __init__(self, name, route, capacity, k=2):
        super().__init__(name)
        self.route, self.capacity, self.k = route, capacity, k

    def forward(self, x):
        batch, seq, d_model = x.dims
        logits = tessel.einsum(x, self.param("w", [d_model, self.route]),
                               out=[batch, seq, self.route])
        return top_k_routing(tessel.softmax(logits, "route"), self.capacity, self.k)


class Experts(tessel.Module):
    """`experts` GELU FFNs, each on its own [group, capacity, d_model] tokens."""

    def __init__(self, name, experts, d_model, d_ff):
        super().__init__(name)
        self.experts, self.d_model, self.d_ff = experts, d_model, d_ff

    def forward(self, x):
        e, d, f = self.experts, self.d_model, self.d_ff
        w1 = self.param("w1", [e, d, f], scale=1.0 / math.sqrt(d.size))
        b1 = self.param("b1", [e, f], init="zeros")
        w2 = self.param("w2", [e, f, d], scale=1.0 / math.sqrt(f.size))
        b2 = self.param("b2", [e, d], init="zeros")
        group, capacity = x.dims[1], x.dims[2]
        h = tessel.gelu(tessel.einsum(x, w1, out=[e, group, capacity, f]) + b1)
        return tessel.einsum(h, w2, out=[e, group, capacity, d]) + b2


class MixtureOfExperts(tessel.Module):
    """x [batch, seq, d_model] -> (the experts' mixture, the load-balancing loss)."""

    def __init__(self, name, experts, capacity, d_ff, k=2):
        super().__init__(name)
        self.experts, self.capacity, self.d_ff, self.k = experts, capacity, d_ff, k

    def forward(self, x):
        batch, seq, d_model = x.dims
        route = Dim("route", self.experts.size)
        group = Dim("group", batch.size)
        dispatch, combine, balance = Router("router", route, self.capacity, self.k)(x)
        # The tokens each expert takes from each group: [route, batch, capacity, d_model].
        tokens = tessel.einsum(dispatch, x, out=[route, batch, self.capacity, d_model])
        # The same tensor named from the experts' side: a layout that splits
        # `experts` (and not `group`) moves each expert's tokens to its ranks.
        tokens = tessel.reshape(tokens, [self.experts, group, self.capacity, d_model])
        out = Experts("experts", self.experts, d_model, self.d_ff)(tokens)
        out = tessel.reshape(out, [route, batch, self.capacity, d_model])
        return tessel.einsum(combine, out, out=[batch, seq, d_model]), balance


class Block(tessel.Module):
    """x + attention(ln(x)), then + mlp(ln(x)), the MLP dense or a mixture of experts."""

    def __init__(self, name, heads, head_dim, d_ff, moe=None):
        super().__init__(name)
        self.heads, self.head_dim, self.d_ff, self.moe = heads, head_dim, d_ff, moe

    def forward(self, x):
        attention = tessel.MultiHeadAttention("attn", self.heads, self.head_dim, "d_model", "seq")
        x = x + attention(tessel.LayerNorm("ln1", "d_model")(x))
        h = tessel.LayerNorm("ln2", "d_model")(x)
        if self.moe is None:
            return x + tessel.MLP("mlp", self.d_ff, "d_model")(h)
        y, balance = self.moe(h)
        return x + y, balance


def build_moe(layers=2, batch=16, seq=16, vocab=256, d_model=32, heads=4, d_ff=64,
              experts=4, k=2, capacity_factor=1.25, balance_weight=0.01):
    """Every odd block's MLP is a mixture of `experts` experts (GShard's
    interleaving); `capacity` = seq * k / experts * capacity_factor."""
    batch, seq, vocab, d_model = (Dim("batch", batch), Dim("seq", seq),
                                  Dim("vocab", vocab), Dim("d_model", d_model))
    heads, head_dim = Dim("heads", heads), Dim("head_dim", d_model.size // heads)
    experts = Dim("experts", experts)
    capacity = Dim("capacity", math.ceil(seq.size * k / experts.size * capacity_factor))
    embedding = tessel.Embedding("tok_emb", vocab, [d_model])
    model = tessel.Model()

    def forward(tokens, targets):
        x = embedding(tokens) + model.parameter("pos_emb", [seq, d_model])
        balance = None
        for i in range(layers):
            if i % 2 == 1:
                moe = MixtureOfExperts("moe", experts, capacity, Dim("d_ff", d_ff), k)
                x, aux = Block(f"block{i}", heads, head_dim, Dim("d_ff", d_ff), moe)(x)
                if balance_weight != 0:
                    balance = aux if balance is None else balance + aux
            else:
                x = Block(f"block{i}", heads, head_dim, Dim("d_ff", d_ff))(x)
        logits = embedding.attend(tessel.LayerNorm("ln_f", "d_model")(x))
        model.name(logits, "logits")
        loss = tessel.reduce_mean(tessel.cross_entropy(logits, targets, "vocab"))
        return loss if balance is None else loss + balance * balance_weight

    model.define("forward", [tessel.Input("tokens", [batch, seq], "i32"),
                             tessel.Input("targets", [batch, seq], "i32")], forward)
    return model


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--seq", type=int, default=16)
    parser.add_argument("--d-model", type=int, default=32)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--d-ff", type=int, default=64)
    parser.add_argument("--experts", type=int, default=4)
    parser.add_argument("--capacity-factor", type=float, default=1.25)
    parser.add_argument("--balance-weight", type=float, default=0.01,
                        help="weight of the load-balancing loss (0: none)")
    tessel.add_model_arguments(parser, steps=300)
    args = parser.parse_args()

    model = build_moe(args.layers, args.batch, args.seq, 256, args.d_model, args.heads,
                      args.d_ff, args.experts, 2, args.capacity_factor,
                      args.balance_weight)
    tessel.run_model_commands(model, args)


if __name__ == "__main__":
    main()
