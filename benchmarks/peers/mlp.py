#!/usr/bin/python3
"""PyTorch peer of benchmarks/models/mlp_1024.mlir: a 784-1024-1024-10
perceptron on Fashion-MNIST, batch 256, SGD, timed per step like tessel's
driver (the batch is cut from the data set inside the timed step, and the
loss is read back every step).

    benchmarks/peers/mlp.py --ranks 1 --threads 2
    benchmarks/peers/mlp.py --ranks 2 --threads 1   # DDP over gloo

With --ranks 2 each process trains on half of the global batch, as tessel's
data layout does, and the gradients are averaged by DistributedDataParallel.
"""

import argparse

import torch
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F

import common


def train(rank, args):
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    if args.ranks > 1:
        common.init_distributed(args.ranks, rank)
    images, labels = common.fashion_mnist(args.data)
    model = nn.Sequential(
        nn.Linear(784, args.hidden),
        nn.ReLU(),
        nn.Linear(args.hidden, args.hidden),
        nn.ReLU(),
        nn.Linear(args.hidden, 10),
    )
    if args.ranks > 1:
        model = nn.parallel.DistributedDataParallel(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
    local = args.batch // args.ranks
    order = torch.randperm(images.shape[0], generator=torch.Generator().manual_seed(1))
    last = [0.0]

    def step(i):
        start = (i * args.batch + rank * local) % (images.shape[0] - local)
        chosen = order[start : start + local]
        loss = F.cross_entropy(model(images[chosen]), labels[chosen])
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        last[0] = loss.item()

    seconds = common.time_steps(step, args.steps, args.warmup)
    if rank == 0:
        common.report("mlp_1024", args.ranks, args.threads, args.batch, seconds, last[0])
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
    parser.add_argument("--data", default=common.FASHION_MNIST)
    args = parser.parse_args()
    if args.ranks == 1:
        train(0, args)
    else:
        mp.spawn(train, args=(args,), nprocs=args.ranks)


if __name__ == "__main__":
    main()
