#!/usr/bin/env python3
"""Writes the Transformer example's model file for any size.

With no options it prints exactly examples/transformer/transformer.mlir
(one block, batch 4, seq 16, vocab 256, d_model 64, 4 heads, d_ff 256);
tests/lit/examples/transformer_generate.test checks that. Other sizes give
deeper or wider models for benchmarks (benchmarks/run.sh compiles 12, 48
and 96 layers):

    examples/transformer/generate.py --layers 48 -o /tmp/transformer48.mlir

With one block the parameters have the example's names (`attn_wq`,
`mlp_w1`, ...); with more, block i's are prefixed `block<i>_`, so every
layout file of the example, which names dimensions rather than
parameters, applies to every depth. Python's standard library only.
"""

import argparse
import math
import sys


def header(a):
    blocks = "one pre-LN block" if a.layers == 1 else f"{a.layers} pre-LN blocks"
    return f"""\
// A decoder-only Transformer with {blocks}, written with named
// dimensions. `forward` embeds a batch of token sequences, runs causal
// multi-head self-attention and an MLP, projects back onto the vocabulary and
// returns the mean next-token cross-entropy against `targets`.
//
// Sizes: batch {a.batch}, seq {a.seq}, vocab {a.vocab}, d_model {a.d_model}, heads {a.heads} x head_dim {a.head_dim},
// d_ff {a.d_ff}. With the small initial weights the loss starts near
// ln({a.vocab}) ~= {math.log(a.vocab):.2f}.

// Activations, one row of d_model per token.
!act = !tessel.tensor<[batch:{a.batch}, seq:{a.seq}, d_model:{a.d_model}], f32>
// Per-head projections of the activations.
!heads = !tessel.tensor<[batch:{a.batch}, seq:{a.seq}, heads:{a.heads}, head_dim:{a.head_dim}], f32>
!keys = !tessel.tensor<[batch:{a.batch}, key:{a.seq}, heads:{a.heads}, head_dim:{a.head_dim}], f32>
// Attention scores and probabilities: every query `seq` against every `key`.
!scores = !tessel.tensor<[batch:{a.batch}, heads:{a.heads}, seq:{a.seq}, key:{a.seq}], f32>
!mask = !tessel.tensor<[seq:{a.seq}, key:{a.seq}], i1>
!pos = !tessel.tensor<[seq:{a.seq}, key:{a.seq}], i32>
!ff = !tessel.tensor<[batch:{a.batch}, seq:{a.seq}, d_ff:{a.d_ff}], f32>
!logits = !tessel.tensor<[batch:{a.batch}, seq:{a.seq}, vocab:{a.vocab}], f32>
!tokens = !tessel.tensor<[batch:{a.batch}, seq:{a.seq}], i32>
!tokens_f32 = !tessel.tensor<[batch:{a.batch}, seq:{a.seq}], f32>
!vec = !tessel.tensor<[d_model:{a.d_model}], f32>
!scalar = !tessel.tensor<[], f32>

func.func @forward(%tokens: !tokens {{tessel.name = "tokens"}},
                   %targets: !tokens {{tessel.name = "targets"}}) -> !scalar {{
  //===--------------------------------------------------------------------===//
  // Parameters
  //===--------------------------------------------------------------------===//

  // Token and learned position embeddings.
  %tok_emb = tessel.parameter "tok_emb" normal scale 0.02 seed 1
      : !tessel.tensor<[vocab:{a.vocab}, d_model:{a.d_model}], f32>
  %pos_emb = tessel.parameter "pos_emb" normal scale 0.02 seed 2
      : !tessel.tensor<[seq:{a.seq}, d_model:{a.d_model}], f32>
"""


class Block:
    """Names of block `index`'s parameters and values.

    With one block they are the example's own names; with several, SSA
    values get a `_<i>` suffix and parameters a `block<i>_` prefix.
    """

    def __init__(self, a, index):
        self.a = a
        self.index = index
        self.single = a.layers == 1
        # Seeds 1 and 2 are the embeddings'; each block takes six.
        self.seed = 3 + 6 * index
        # The residual stream: block i reads x<2i>, adds attention into
        # x<2i+1> and the MLP into x<2i+2>.
        self.x_in = f"%x{2 * index}"
        self.x_mid = f"%x{2 * index + 1}"
        self.x_out = f"%x{2 * index + 2}"

    def v(self, name):
        """The SSA name of a per-block value."""
        return f"%{name}" if self.single else f"%{name}_{self.index}"

    def p(self, name):
        """The name of a per-block parameter."""
        return name if self.single else f"block{self.index}_{name}"

    def parameters(self):
        a, v, p, s = self.a, self.v, self.p, self.seed
        title = "" if self.single else f" of block {self.index}"
        ends = ", and at the end" if self.single else ""
        return f"""\
  // Attention{title}: query, key, value and output projections.
  {v("wq")} = tessel.parameter "{p("attn_wq")}" normal scale 0.02 seed {s}
      : !tessel.tensor<[d_model:{a.d_model}, heads:{a.heads}, head_dim:{a.head_dim}], f32>
  {v("wk")} = tessel.parameter "{p("attn_wk")}" normal scale 0.02 seed {s + 1}
      : !tessel.tensor<[d_model:{a.d_model}, heads:{a.heads}, head_dim:{a.head_dim}], f32>
  {v("wv")} = tessel.parameter "{p("attn_wv")}" normal scale 0.02 seed {s + 2}
      : !tessel.tensor<[d_model:{a.d_model}, heads:{a.heads}, head_dim:{a.head_dim}], f32>
  {v("wo")} = tessel.parameter "{p("attn_wo")}" normal scale 0.02 seed {s + 3}
      : !tessel.tensor<[heads:{a.heads}, head_dim:{a.head_dim}, d_model:{a.d_model}], f32>
  // MLP{title}: d_model -> d_ff -> d_model, with biases.
  {v("w_ff1")} = tessel.parameter "{p("mlp_w1")}" normal scale 0.02 seed {s + 4}
      : !tessel.tensor<[d_model:{a.d_model}, d_ff:{a.d_ff}], f32>
  {v("b_ff1")} = tessel.parameter "{p("mlp_b1")}" zeros scale 1.0 seed 0
      : !tessel.tensor<[d_ff:{a.d_ff}], f32>
  {v("w_ff2")} = tessel.parameter "{p("mlp_w2")}" normal scale 0.02 seed {s + 5}
      : !tessel.tensor<[d_ff:{a.d_ff}, d_model:{a.d_model}], f32>
  {v("b_ff2")} = tessel.parameter "{p("mlp_b2")}" zeros scale 1.0 seed 0 : !vec
  // Layer norms{title}: before attention, before the MLP{ends}.
  {v("ln1_g")} = tessel.parameter "{p("ln1_gamma")}" ones scale 1.0 seed 0 : !vec
  {v("ln1_b")} = tessel.parameter "{p("ln1_beta")}" zeros scale 1.0 seed 0 : !vec
  {v("ln2_g")} = tessel.parameter "{p("ln2_gamma")}" ones scale 1.0 seed 0 : !vec
  {v("ln2_b")} = tessel.parameter "{p("ln2_beta")}" zeros scale 1.0 seed 0 : !vec
"""

    def body(self):
        a, v = self.a, self.v
        title = "" if self.single else f" of block {self.index}"
        return f"""\
  //===--------------------------------------------------------------------===//
  // Attention sub-block{title}: layer norm, then causal multi-head self-attention
  //===--------------------------------------------------------------------===//

  // Pre-attention layer norm; gamma and beta broadcast over batch and seq.
  {v("n1")} = tessel.layer_norm {self.x_in} over ["d_model"] epsilon 1.0e-05 : !act
  {v("n1_g")} = tessel.mul {v("n1")}, {v("ln1_g")} : !act, !vec -> !act
  {v("h1")} = tessel.add {v("n1_g")}, {v("ln1_b")} : !act, !vec -> !act

  // Q, K and V: contract d_model into heads x head_dim.
  {v("q")} = tessel.einsum {v("h1")}, {v("wq")}
      : (!act, !tessel.tensor<[d_model:{a.d_model}, heads:{a.heads}, head_dim:{a.head_dim}], f32>) -> !heads
  {v("k_seq")} = tessel.einsum {v("h1")}, {v("wk")}
      : (!act, !tessel.tensor<[d_model:{a.d_model}, heads:{a.heads}, head_dim:{a.head_dim}], f32>) -> !heads
  {v("v_seq")} = tessel.einsum {v("h1")}, {v("wv")}
      : (!act, !tessel.tensor<[d_model:{a.d_model}, heads:{a.heads}, head_dim:{a.head_dim}], f32>) -> !heads

  // Keys and values are indexed by `key`, so that the score einsum keeps the
  // query position `seq` and the key position apart.
  {v("k")} = tessel.rename {v("k_seq")} : !heads -> !keys
  {v("v")} = tessel.rename {v("v_seq")} : !heads -> !keys

  // Scores: contract head_dim, scaled by 1 / sqrt(head_dim) = 1 / sqrt({a.head_dim}).
  {v("qk")} = tessel.einsum {v("q")}, {v("k")} : (!heads, !keys) -> !scores
  {v("inv_sqrt_d")} = tessel.constant {1 / math.sqrt(a.head_dim)!r} : f32 -> !scalar
  {v("scaled")} = tessel.mul {v("qk")}, {v("inv_sqrt_d")} : !scores, !scalar -> !scores

  // Causal mask: query position `seq` may attend to key positions <= seq.
  {v("q_pos")} = tessel.iota "seq" : !pos
  {v("k_pos")} = tessel.iota "key" : !pos
  {v("causal")} = tessel.compare ge, {v("q_pos")}, {v("k_pos")} : !pos, !pos -> !mask
  {v("neg_inf")} = tessel.constant -1.0e9 : f32 -> !scalar
  {v("masked")} = tessel.select {v("causal")}, {v("scaled")}, {v("neg_inf")}
      : !mask, !scores, !scalar -> !scores

  // Attention weights over the keys.
  {v("probs")} = tessel.softmax {v("masked")} over "key" : !scores

  // Weighted sum of the values: contract key.
  {v("attn")} = tessel.einsum {v("probs")}, {v("v")} : (!scores, !keys) -> !heads

  // Output projection: contract heads and head_dim back into d_model.
  {v("attn_out")} = tessel.einsum {v("attn")}, {v("wo")}
      : (!heads, !tessel.tensor<[heads:{a.heads}, head_dim:{a.head_dim}, d_model:{a.d_model}], f32>) -> !act

  // Residual connection.
  {self.x_mid} = tessel.add {self.x_in}, {v("attn_out")} : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // MLP sub-block{title}: layer norm, d_model -> d_ff (gelu) -> d_model
  //===--------------------------------------------------------------------===//

  {v("n2")} = tessel.layer_norm {self.x_mid} over ["d_model"] epsilon 1.0e-05 : !act
  {v("n2_g")} = tessel.mul {v("n2")}, {v("ln2_g")} : !act, !vec -> !act
  {v("h2")} = tessel.add {v("n2_g")}, {v("ln2_b")} : !act, !vec -> !act

  {v("ff1")} = tessel.einsum {v("h2")}, {v("w_ff1")}
      : (!act, !tessel.tensor<[d_model:{a.d_model}, d_ff:{a.d_ff}], f32>) -> !ff
  {v("ff1_b")} = tessel.add {v("ff1")}, {v("b_ff1")} : !ff, !tessel.tensor<[d_ff:{a.d_ff}], f32> -> !ff
  {v("ff1_act")} = tessel.gelu {v("ff1_b")} : !ff
  {v("ff2")} = tessel.einsum {v("ff1_act")}, {v("w_ff2")}
      : (!ff, !tessel.tensor<[d_ff:{a.d_ff}, d_model:{a.d_model}], f32>) -> !act
  {v("ff2_b")} = tessel.add {v("ff2")}, {v("b_ff2")} : !act, !vec -> !act

  // Residual connection.
  {self.x_out} = tessel.add {self.x_mid}, {v("ff2_b")} : !act, !act -> !act

"""


def head_parameters(a):
    # With one block the final layer norm shares the comment of the block's
    # layer norms, as in the hand-written example.
    comment = "" if a.layers == 1 else "  // The final layer norm.\n"
    return f"""\
{comment}  %lnf_g = tessel.parameter "lnf_gamma" ones scale 1.0 seed 0 : !vec
  %lnf_b = tessel.parameter "lnf_beta" zeros scale 1.0 seed 0 : !vec
  // The unembedding, not tied to the token embedding.
  %w_out = tessel.parameter "unembed" normal scale 0.02 seed {3 + 6 * a.layers}
      : !tessel.tensor<[d_model:{a.d_model}, vocab:{a.vocab}], f32>

  //===--------------------------------------------------------------------===//
  // Embedding: look up each token's row and add its position's row
  //===--------------------------------------------------------------------===//

  %x_tok = tessel.gather %tok_emb[%tokens] over "vocab"
      : !tessel.tensor<[vocab:{a.vocab}, d_model:{a.d_model}], f32>, !tokens -> !act
  %x0 = tessel.add %x_tok, %pos_emb
      : !act, !tessel.tensor<[seq:{a.seq}, d_model:{a.d_model}], f32> -> !act

"""


def footer(a):
    return f"""\
  //===--------------------------------------------------------------------===//
  // Head: final layer norm, logits over the vocabulary, loss
  //===--------------------------------------------------------------------===//

  %nf = tessel.layer_norm %x{2 * a.layers} over ["d_model"] epsilon 1.0e-05 : !act
  %nf_g = tessel.mul %nf, %lnf_g : !act, !vec -> !act
  %hf = tessel.add %nf_g, %lnf_b : !act, !vec -> !act

  %logits = tessel.einsum %hf, %w_out {{tessel.name = "logits"}}
      : (!act, !tessel.tensor<[d_model:{a.d_model}, vocab:{a.vocab}], f32>) -> !logits

  // Cross-entropy of every position against its target token, averaged
  // over batch and seq.
  %losses = tessel.softmax_cross_entropy %logits, %targets over "vocab"
      : !logits, !tokens -> !tokens_f32
  %loss = tessel.reduce mean %losses : !tokens_f32 -> !scalar
  return %loss : !scalar
}}
"""


def generate(a):
    blocks = [Block(a, i) for i in range(a.layers)]
    parts = [header(a)]
    parts += [b.parameters() for b in blocks]
    parts.append(head_parameters(a))
    parts += [b.body() for b in blocks]
    parts.append(footer(a))
    return "".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--layers", type=int, default=1, help="Transformer blocks")
    parser.add_argument("--d-model", type=int, default=64)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--d-ff", type=int, default=256)
    parser.add_argument("--seq", type=int, default=16)
    parser.add_argument("--vocab", type=int, default=256)
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("-o", "--output", help="output file (default: stdout)")
    a = parser.parse_args()
    for name in ("layers", "d_model", "heads", "d_ff", "seq", "vocab", "batch"):
        if getattr(a, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if a.d_model % a.heads:
        parser.error(f"--d-model {a.d_model} is not a multiple of --heads {a.heads}")
    a.head_dim = a.d_model // a.heads
    text = generate(a)
    if a.output:
        with open(a.output, "w") as out:
            out.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
