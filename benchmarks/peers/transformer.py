#!/usr/bin/env python3
"""PyTorch peer of the Transformer that examples/transformer/generate.py
writes: the same decoder (pre-LN blocks of causal multi-head attention
without biases and a GELU MLP with biases, learned positions, a final layer
norm, untied unembedding, byte vocabulary 256) trained with AdamW (weight
decay 0.01) on the byte corpus tessel's driver reads by default, timed per
step like the driver. The defaults are examples/transformer/transformer.mlir
(one block, batch 4, seq 16, d_model 64, 4 heads, d_ff 256); the benchmark's
realistic one:

    benchmarks/peers/transformer.py --layers 4 --d-model 256 --heads 8 --d-ff 1024 --seq 128 --batch 8
    ... --ranks 2 --threads 1   # DDP over gloo
    build/bench-venv/bin/python benchmarks/peers/transformer.py --compile ...   # torch.compile
    benchmarks/peers/transformer.py --device cuda ...   # on a GPU (benchmarks/gpu/)

The weights start as tessel's do (normal with scale 0.02, biases and layer
norm shifts zero, scales one), so the first loss is near ln(256) on both.
"""

import argparse
import math

import numpy as np
import torch
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F

import common


class Block(nn.Module):
    """Pre-LN causal self-attention and MLP, each with a residual."""

    def __init__(self, d_model, heads, d_ff):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        # The example's projections have no biases; its MLP has them.
        self.wq = nn.Linear(d_model, d_model, bias=False)
        self.wk = nn.Linear(d_model, d_model, bias=False)
        self.wv = nn.Linear(d_model, d_model, bias=False)
        self.wo = nn.Linear(d_model, d_model, bias=False)
        self.ff1 = nn.Linear(d_model, d_ff)
        self.ff2 = nn.Linear(d_ff, d_model)

    def forward(self, x):
        b, s, d = x.shape
        h = self.ln1(x)
        split = lambda t: t.view(b, s, self.heads, d // self.heads).transpose(1, 2)
        q, k, v = split(self.wq(h)), split(self.wk(h)), split(self.wv(h))
        scores = q @ k.transpose(-1, -2) / math.sqrt(d // self.heads)
        causal = torch.ones(s, s, dtype=torch.bool, device=x.device).tril()
        scores = scores.masked_fill(~causal, -1e9)
        attn = (scores.softmax(-1) @ v).transpose(1, 2).reshape(b, s, d)
        x = x + self.wo(attn)
        return x + self.ff2(F.gelu(self.ff1(self.ln2(x))))


class Decoder(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.tok = nn.Embedding(args.vocab, args.d_model)
        self.pos = nn.Parameter(torch.empty(args.seq, args.d_model))
        self.blocks = nn.Sequential(
            *[Block(args.d_model, args.heads, args.d_ff) for _ in range(args.layers)]
        )
        self.lnf = nn.LayerNorm(args.d_model)
        self.unembed = nn.Linear(args.d_model, args.vocab, bias=False)
        for name, p in self.named_parameters():
            if p.dim() > 1:
                nn.init.normal_(p, std=0.02)
            elif name.endswith("bias"):
                nn.init.zeros_(p)

    def forward(self, tokens):
        return self.unembed(self.lnf(self.blocks(self.tok(tokens) + self.pos)))


def model_name(args):
    """transformer for the example's sizes; the sizes otherwise."""
    if (args.layers, args.d_model, args.heads, args.d_ff, args.seq, args.batch) == (1, 64, 4, 256, 16, 4):
        return "transformer"
    return f"transformer_l{args.layers}_d{args.d_model}_h{args.heads}_f{args.d_ff}_s{args.seq}_b{args.batch}"


def train(rank, args):
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    if args.ranks > 1:
        common.init_distributed(args.ranks, rank)
    text = common.text_corpus(args.data)
    windows = text.shape[0] - args.seq
    model = Decoder(args).to(args.device)
    if args.ranks > 1:
        model = nn.parallel.DistributedDataParallel(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)

    def loss_of(tokens, targets):
        logits = model(tokens)
        return F.cross_entropy(logits.reshape(-1, args.vocab), targets.reshape(-1))

    update = optimizer.step
    if args.compile:
        loss_of = common.compile_with_inductor(loss_of)
        update = torch.compile(optimizer.step)
    local = args.batch // args.ranks
    offsets = np.arange(args.seq + 1)
    order = common.shuffled(windows)
    last = [0.0]

    def step(i):
        start = (i * args.batch + rank * local) % (windows - local)
        rows = torch.from_numpy(text[order[start : start + local, None] + offsets]).to(args.device)
        loss = loss_of(rows[:, :-1], rows[:, 1:])
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        update()
        last[0] = loss.item()
        return last[0]

    seconds, first = common.time_steps(step, args.steps, args.warmup)
    if rank == 0:
        peer = "pytorch-compile" if args.compile else "pytorch"
        common.report(peer, torch.__version__, model_name(args), args.ranks, args.threads, args.batch, seconds,
                      first, last[0], {"device": args.device})
    if args.ranks > 1:
        torch.distributed.destroy_process_group()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ranks", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2, help="torch threads per process")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--batch", type=int, default=4, help="global batch (sequences)")
    parser.add_argument("--layers", type=int, default=1)
    parser.add_argument("--seq", type=int, default=16)
    parser.add_argument("--vocab", type=int, default=256)
    parser.add_argument("--d-model", type=int, default=64)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--d-ff", type=int, default=256)
    parser.add_argument("--lr", type=float, default=0.003)
    parser.add_argument("--compile", action="store_true", help="torch.compile the loss and the update")
    parser.add_argument("--data", default=common.TEXT_CORPUS)
    parser.add_argument("--device", default="cpu", help="cpu, or cuda (one rank)")
    args = parser.parse_args()
    if args.device != "cpu" and args.ranks != 1:
        parser.error("--device cuda runs one rank")
    if args.compile and not hasattr(torch, "compile"):
        parser.error(f"--compile needs PyTorch 2 (this is {torch.__version__})")
    if args.ranks == 1:
        train(0, args)
    else:
        mp.spawn(train, args=(args,), nprocs=args.ranks)


if __name__ == "__main__":
    main()
