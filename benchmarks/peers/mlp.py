#!/usr/bin/env python3
"""PyTorch peer of benchmarks/models/mlp_1024.mlir: a 784-1024-1024-10
perceptron on Fashion-MNIST, batch 256, SGD, timed per step like tessel's
driver (the batch is cut from the data set inside the timed step, and the
loss is read back every step).

    benchmarks/peers/mlp.py --ranks 1 --threads 2
    benchmarks/peers/mlp.py --ranks 2 --threads 1   # DDP over gloo
    build/bench-venv/bin/python benchmarks/peers/mlp.py --compile   # torch.compile
    benchmarks/peers/mlp.py --device cuda   # on a GPU (benchmarks/gpu/)

With --ranks 2 each process trains on half of the global batch, as tessel's
data layout does, and the gradients are averaged by DistributedDataParallel.
The weights start as tessel's do (normal with the model file's scales,
biases zero), so that the first step's loss is tessel's up to the draw.
It runs under any PyTorch: Debian's 1.13 (/usr/bin/python3) and PyTorch 2.x
in the benchmark's virtual environment, which alone has --compile.
"""

import argparse

import torch
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F

import common


def build_model(hidden):
    model = nn.Sequential(
        nn.Linear(784, hidden),
        nn.ReLU(),
        nn.Linear(hidden, hidden),
        nn.ReLU(),
        nn.Linear(hidden, 10),
    )
    # benchmarks/models/mlp_1024.mlir's initial weights.
    for layer, scale in zip(model[::2], (0.05, 0.03, 0.03)):
        nn.init.normal_(layer.weight, std=scale)
        nn.init.zeros_(layer.bias)
    return model


def train(rank, args):
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    if args.ranks > 1:
        common.init_distributed(args.ranks, rank)
    images, labels = common.fashion_mnist(args.data)
    model = build_model(args.hidden).to(args.device)
    if args.ranks > 1:
        model = nn.parallel.DistributedDataParallel(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)

    def loss_of(x, y):
        return F.cross_entropy(model(x), y)

    update = optimizer.step
    if args.compile:
        loss_of = common.compile_with_inductor(loss_of)
        update = torch.compile(optimizer.step)
    local = args.batch // args.ranks
    order = common.shuffled(images.shape[0])
    last = [0.0]

    def step(i):
        start = (i * args.batch + rank * local) % (images.shape[0] - local)
        chosen = order[start : start + local]
        # The batch is cut on the host and copied in, as tessel's driver does.
        x = torch.from_numpy(images[chosen]).to(args.device)
        y = torch.from_numpy(labels[chosen]).to(args.device)
        loss = loss_of(x, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        update()
        last[0] = loss.item()
        return last[0]

    seconds, first = common.time_steps(step, args.steps, args.warmup)
    if rank == 0:
        peer = "pytorch-compile" if args.compile else "pytorch"
        common.report(peer, torch.__version__, "mlp_1024", args.ranks, args.threads, args.batch, seconds,
                      first, last[0], {"device": args.device})
    if args.ranks > 1:
        torch.distributed.destroy_process_group()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ranks", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2, help="torch threads per process")
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--batch", type=int, default=256, help="global batch")
    parser.add_argument("--hidden", type=int, default=1024)
    parser.add_argument("--lr", type=float, default=0.1, help="the driver's default")
    parser.add_argument("--compile", action="store_true", help="torch.compile the loss and the update")
    parser.add_argument("--data", default=common.FASHION_MNIST)
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
