#!/usr/bin/python3
"""PyTorch peer of examples/transformer/transformer.mlir: the same decoder
(one pre-LN block, batch 4, seq 16, byte vocabulary 256, d_model 64, 4 heads
of 16, d_ff 256 with GELU, untied unembedding) trained with AdamW (weight
decay 0.01) on the byte corpus tessel's driver reads by default, timed per
step like the driver.

    benchmarks/peers/transformer.py --ranks 1 --threads 2
    benchmarks/peers/transformer.py --ranks 2 --threads 1   # DDP over gloo
"""

import argparse
import math

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
        causal = torch.ones(s, s, dtype=torch.bool).tril()
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

    def forward(self, tokens):
        return self.unembed(self.lnf(self.blocks(self.tok(tokens) + self.pos)))


def train(rank, args):
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    if args.ranks > 1:
        common.init_distributed(args.ranks, rank)
    text = common.text_corpus(args.data)
    windows = text.shape[0] - args.seq
    model = Decoder(args)
    if args.ranks > 1:
        model = nn.parallel.DistributedDataParallel(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    local = args.batch // args.ranks
    offsets = torch.arange(args.seq + 1)
    order = torch.randperm(windows, generator=torch.Generator().manual_seed(1))
    last = [0.0]

    def step(i):
        start = (i * args.batch + rank * local) % (windows - local)
        rows = text[order[start : start + local, None] + offsets]
        tokens, targets = rows[:, :-1], rows[:, 1:]
        logits = model(tokens)
        loss = F.cross_entropy(logits.reshape(-1, args.vocab), targets.reshape(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        last[0] = loss.item()

    seconds = common.time_steps(step, args.steps, args.warmup)
    if rank == 0:
        common.report("transformer", args.ranks, args.threads, args.batch, seconds, last[0])
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
    parser.add_argument("--data", default=common.TEXT_CORPUS)
    args = parser.parse_args()
    if args.ranks == 1:
        train(0, args)
    else:
        mp.spawn(train, args=(args,), nprocs=args.ranks)


if __name__ == "__main__":
    main()
