#!/usr/bin/env python3
"""JAX peer of the benchmark models: the same MLP and Transformer as tessel's
(benchmarks/models/mlp_1024.mlir, examples/transformer/generate.py), the same
initial scales, batch, optimizer (optax's SGD and AdamW with the defaults of
tessel's) and data, one `jax.jit` of the whole training step (forward,
backward and update), timed per step like tessel's driver: the batch is cut
from the data set and put on the devices inside the timed step, and the loss
is read back every step.

    build/bench-venv/bin/python benchmarks/peers/jax_peer.py --model mlp
    build/bench-venv/bin/python benchmarks/peers/jax_peer.py --model transformer \\
        --layers 4 --d-model 256 --heads 8 --d-ff 1024 --seq 128 --batch 8 --devices 2

--devices N makes N host devices (XLA_FLAGS=--xla_force_host_platform_device_count)
and trains data parallel: the batch under NamedSharding(mesh, P("data")), the
parameters and the optimizer state replicated, so that XLA's GSPMD
partitioner splits the step and inserts the gradients' all-reduce (the peer
of tessel's benchmarks/layouts/data2.yaml).

--compile-only times `jax.jit(step).lower(...).compile()` instead (tracing,
StableHLO, GSPMD partitioning and XLA's CPU compilation, no cache) of the
Transformer's SGD step under the hybrid layout of
examples/transformer/hybrid.yaml on 4 host devices: batch over `data`,
heads and d_ff over `model` (the peer of benchmarks/compile_time.py's
`tessel compile`). The blocks are unrolled, as in tessel's model file (a
Python loop: one copy of each block's ops in the program); with --scan they
are one `jax.lax.scan` over parameters stacked by block, the way deep models
are usually written in JAX so that XLA compiles the block once.

Threads: XLA's CPU runtime sizes its thread pool to the cores (2 here);
with --threads 1 (the 2-device rows, one core per device like tessel's
ranks) every device runs its ops on one thread
(--xla_cpu_multi_thread_eigen=false).
"""

import argparse
import json
import math
import os
import time

import numpy as np

import common


def parse():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", choices=["mlp", "transformer"], default="mlp")
    parser.add_argument("--devices", type=int, default=1, help="host devices, data parallel")
    parser.add_argument("--threads", type=int, default=2, help="threads per device's ops: 1, or the cores")
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--batch", type=int, help="global batch (default: 256 for the MLP, 4 sequences)")
    parser.add_argument("--lr", type=float, help="default: 0.1 for the MLP's SGD, 0.003 for AdamW")
    parser.add_argument("--hidden", type=int, default=1024, help="the MLP's hidden width")
    parser.add_argument("--layers", type=int, default=1)
    parser.add_argument("--seq", type=int, default=16)
    parser.add_argument("--vocab", type=int, default=256)
    parser.add_argument("--d-model", type=int, default=64)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--d-ff", type=int, default=256)
    parser.add_argument("--compile-only", action="store_true",
                        help="time the compilation of the Transformer's SGD step under the hybrid layout")
    parser.add_argument("--scan", action="store_true",
                        help="with --compile-only: the blocks as one lax.scan over stacked parameters")
    parser.add_argument("--data", help="Fashion-MNIST's directory or the text corpus")
    args = parser.parse_args()
    if args.batch is None:
        args.batch = 256 if args.model == "mlp" else 4
    if args.lr is None:
        args.lr = 0.1 if args.model == "mlp" else 0.003
    if args.compile_only:
        args.model, args.devices = "transformer", 4
    if args.batch % args.devices:
        parser.error(f"--batch {args.batch} is not a multiple of --devices {args.devices}")
    if args.d_model % args.heads:
        parser.error(f"--d-model {args.d_model} is not a multiple of --heads {args.heads}")
    return args


def configure_xla(args):
    """XLA reads its flags once, when jax is first imported."""
    flags = [f"--xla_force_host_platform_device_count={args.devices}"]
    if args.threads == 1:
        flags.append("--xla_cpu_multi_thread_eigen=false")
    os.environ["XLA_FLAGS"] = " ".join([os.environ.get("XLA_FLAGS", "")] + flags).strip()
    common.pin_threads(args.threads)


args = parse()
configure_xla(args)

import jax  # noqa: E402  (after XLA_FLAGS)
import jax.numpy as jnp  # noqa: E402
import optax  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402


def normal(key, shape, scale):
    return scale * jax.random.normal(key, shape, jnp.float32)


# ---------------------------------------------------------------- the MLP


def mlp_params(key, hidden):
    """benchmarks/models/mlp_1024.mlir's parameters and initial scales."""
    k1, k2, k3 = jax.random.split(key, 3)
    return {
        "w1": normal(k1, (784, hidden), 0.05), "b1": jnp.zeros(hidden),
        "w2": normal(k2, (hidden, hidden), 0.03), "b2": jnp.zeros(hidden),
        "w3": normal(k3, (hidden, 10), 0.03), "b3": jnp.zeros(10),
    }


def mlp_loss(params, images, labels):
    h1 = jax.nn.relu(images @ params["w1"] + params["b1"])
    h2 = jax.nn.relu(h1 @ params["w2"] + params["b2"])
    logits = h2 @ params["w3"] + params["b3"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


# --------------------------------------------------------- the Transformer


def transformer_params(key, a):
    """generate.py's parameters, named as there, with its initial scales."""
    hd = a.d_model // a.heads
    keys = iter(jax.random.split(key, 3 + 6 * a.layers))
    params = {
        "tok_emb": normal(next(keys), (a.vocab, a.d_model), 0.02),
        "pos_emb": normal(next(keys), (a.seq, a.d_model), 0.02),
        "lnf_gamma": jnp.ones(a.d_model), "lnf_beta": jnp.zeros(a.d_model),
        "unembed": normal(next(keys), (a.d_model, a.vocab), 0.02),
        "blocks": [],
    }
    for _ in range(a.layers):
        params["blocks"].append({
            "attn_wq": normal(next(keys), (a.d_model, a.heads, hd), 0.02),
            "attn_wk": normal(next(keys), (a.d_model, a.heads, hd), 0.02),
            "attn_wv": normal(next(keys), (a.d_model, a.heads, hd), 0.02),
            "attn_wo": normal(next(keys), (a.heads, hd, a.d_model), 0.02),
            "mlp_w1": normal(next(keys), (a.d_model, a.d_ff), 0.02), "mlp_b1": jnp.zeros(a.d_ff),
            "mlp_w2": normal(next(keys), (a.d_ff, a.d_model), 0.02), "mlp_b2": jnp.zeros(a.d_model),
            "ln1_gamma": jnp.ones(a.d_model), "ln1_beta": jnp.zeros(a.d_model),
            "ln2_gamma": jnp.ones(a.d_model), "ln2_beta": jnp.zeros(a.d_model),
        })
    return params


def stacked(params):
    """The blocks' parameters stacked: one array per name, block first."""
    return dict(params, blocks=jax.tree.map(lambda *xs: jnp.stack(xs), *params["blocks"]))


def hybrid_specs(params):
    """examples/transformer/hybrid.yaml: heads and d_ff over `model`, the
    rest replicated (batch over `data` is the inputs')."""
    split = {"attn_wq": P(None, "model", None), "attn_wk": P(None, "model", None),
             "attn_wv": P(None, "model", None), "attn_wo": P("model", None, None),
             "mlp_w1": P(None, "model"), "mlp_b1": P("model"), "mlp_w2": P("model", None)}
    specs = {k: P() for k in params if k != "blocks"}
    if isinstance(params["blocks"], dict):
        specs["blocks"] = {k: P(None, *split.get(k, P())) for k in params["blocks"]}
    else:
        specs["blocks"] = [{k: split.get(k, P()) for k in block} for block in params["blocks"]]
    return specs


def layer_norm(x, gamma, beta):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + 1e-5) * gamma + beta


def block(x, p):
    """generate.py's pre-LN block: causal attention without biases, then a
    GELU (erf) MLP with biases, each with a residual."""
    seq, hd = x.shape[1], p["attn_wq"].shape[2]
    h = layer_norm(x, p["ln1_gamma"], p["ln1_beta"])
    q = jnp.einsum("bsd,dhe->bshe", h, p["attn_wq"])
    k = jnp.einsum("bsd,dhe->bshe", h, p["attn_wk"])
    v = jnp.einsum("bsd,dhe->bshe", h, p["attn_wv"])
    scores = jnp.einsum("bshe,bkhe->bhsk", q, k) * (1 / math.sqrt(hd))
    causal = jnp.arange(seq)[:, None] >= jnp.arange(seq)[None, :]
    probs = jax.nn.softmax(jnp.where(causal, scores, -1e9), axis=-1)
    attn = jnp.einsum("bhsk,bkhe->bshe", probs, v)
    x = x + jnp.einsum("bshe,hed->bsd", attn, p["attn_wo"])
    h = layer_norm(x, p["ln2_gamma"], p["ln2_beta"])
    ff = jax.nn.gelu(h @ p["mlp_w1"] + p["mlp_b1"], approximate=False)
    return x + ff @ p["mlp_w2"] + p["mlp_b2"]


def transformer_loss(params, tokens, targets):
    x = params["tok_emb"][tokens] + params["pos_emb"]
    if isinstance(params["blocks"], dict):
        x, _ = jax.lax.scan(lambda x, p: (block(x, p), None), x, params["blocks"])
    else:
        for p in params["blocks"]:
            x = block(x, p)
    logits = layer_norm(x, params["lnf_gamma"], params["lnf_beta"]) @ params["unembed"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, targets).mean()


# ------------------------------------------------------------------ steps


def make_step(loss_fn, optimizer):
    def step(params, state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, state = optimizer.update(grads, state, params)
        return optax.apply_updates(params, updates), state, loss

    return step


def compile_seconds(args):
    """Wall time of jit + lower + compile of the hybrid-layout SGD step."""
    mesh = Mesh(np.array(jax.devices()).reshape(2, 2), ("data", "model"))
    params = transformer_params(jax.random.PRNGKey(0), args)
    if args.scan:
        params = stacked(params)
    optimizer = optax.sgd(args.lr)
    param_sharding = jax.tree.map(lambda s: NamedSharding(mesh, s), hybrid_specs(params),
                                  is_leaf=lambda s: isinstance(s, P))
    batch_sharding = NamedSharding(mesh, P("data"))
    tokens = jax.ShapeDtypeStruct((args.batch, args.seq), jnp.int32, sharding=batch_sharding)
    shaped = jax.tree.map(lambda x, s: jax.ShapeDtypeStruct(x.shape, x.dtype, sharding=s), params, param_sharding)
    state = jax.eval_shape(optimizer.init, params)
    start = time.perf_counter()
    step = jax.jit(make_step(transformer_loss, optimizer),
                   in_shardings=(param_sharding, None, batch_sharding, batch_sharding),
                   out_shardings=(param_sharding, None, None))
    lowered = step.lower(shaped, state, tokens, tokens)
    lowered_at = time.perf_counter()
    lowered.compile()
    done = time.perf_counter()
    return {"peer": "jax", "version": jax.__version__, "layers": args.layers, "devices": 4,
            "layout": "hybrid (batch: data, heads: model, d_ff: model)",
            "blocks": "lax.scan" if args.scan else "unrolled",
            "trace_lower_s": lowered_at - start, "xla_compile_s": done - lowered_at,
            "compile_wall_s": done - start}


def train(args):
    devices = jax.devices()[: args.devices]
    mesh = Mesh(np.array(devices), ("data",))
    replicated, by_batch = NamedSharding(mesh, P()), NamedSharding(mesh, P("data"))
    key = jax.random.PRNGKey(0)
    if args.model == "mlp":
        images, labels = common.fashion_mnist(args.data or common.FASHION_MNIST)
        params, optimizer, loss_fn = mlp_params(key, args.hidden), optax.sgd(args.lr), mlp_loss
        order = common.shuffled(images.shape[0])
        count, name = images.shape[0], "mlp_1024"

        def batch(start):
            chosen = order[start : start + args.batch]
            return images[chosen], labels[chosen].astype(np.int32)
    else:
        text = common.text_corpus(args.data or common.TEXT_CORPUS)
        params, loss_fn = transformer_params(key, args), transformer_loss
        # torch's and tessel's AdamW: weight decay on every parameter.
        optimizer = optax.adamw(args.lr, b1=0.9, b2=0.999, eps=1e-8, weight_decay=0.01)
        count = text.shape[0] - args.seq
        order, offsets = common.shuffled(count), np.arange(args.seq + 1)
        name = (f"transformer_l{args.layers}_d{args.d_model}_h{args.heads}_f{args.d_ff}"
                f"_s{args.seq}_b{args.batch}")

        def batch(start):
            rows = text[order[start : start + args.batch, None] + offsets].astype(np.int32)
            return rows[:, :-1], rows[:, 1:]

    params = jax.device_put(params, replicated)
    state = jax.device_put(optimizer.init(params), replicated)
    step_fn = jax.jit(make_step(loss_fn, optimizer),
                      in_shardings=(replicated, replicated, by_batch, by_batch),
                      out_shardings=(replicated, replicated, replicated), donate_argnums=(0, 1))
    carried = [params, state]
    last = [0.0]

    def step(i):
        x, y = batch((i * args.batch) % (count - args.batch))
        x, y = jax.device_put(x, by_batch), jax.device_put(y, by_batch)
        carried[0], carried[1], loss = step_fn(carried[0], carried[1], x, y)
        last[0] = float(loss)
        return last[0]

    seconds, first = common.time_steps(step, args.steps, args.warmup)
    common.report("jax", jax.__version__, name, args.devices, args.threads, args.batch, seconds, first, last[0],
                  {"sharding": "NamedSharding(P('data')), GSPMD" if args.devices > 1 else None,
                   "xla_flags": os.environ["XLA_FLAGS"]})


if __name__ == "__main__":
    if args.compile_only:
        print(json.dumps(compile_seconds(args)), flush=True)
    else:
        train(args)
