"""What the PyTorch peers share: the data tessel's driver reads, the step
timer and the DistributedDataParallel set-up.

The data are the driver's: Fashion-MNIST's idx files with pixels scaled to
[0, 1] (runtime/driver/Batches.cpp), and for language models the files of a
directory concatenated in name order, one example per byte offset, targets
shifted by one byte (runtime/driver/TextCorpus.cpp). Each step draws its
examples from a seeded shuffle, as the driver does (the order differs, the
cost does not).
"""

import gzip
import json
import os
import statistics
import struct
import time

import torch
import torch.distributed as dist

FASHION_MNIST = "/usr/share/datasets/fashion-mnist"
TEXT_CORPUS = "/usr/share/common-licenses"


def _read_idx(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = struct.unpack(">" + "I" * dims, data[4 : 4 + 4 * dims])
    return torch.frombuffer(bytearray(data[4 + 4 * dims :]), dtype=torch.uint8).reshape(shape)


def fashion_mnist(directory=FASHION_MNIST):
    """Returns the training split as (images [n, 784] f32 in [0, 1], labels [n] i64)."""

    def find(stem):
        for name in (stem, stem + ".gz"):
            if os.path.exists(os.path.join(directory, name)):
                return os.path.join(directory, name)
        raise SystemExit(f"{directory}: no {stem}[.gz]")

    images = _read_idx(find("train-images-idx3-ubyte")).reshape(-1, 784).float() / 255.0
    labels = _read_idx(find("train-labels-idx1-ubyte")).long()
    return images, labels


def text_corpus(path=TEXT_CORPUS):
    """Returns the bytes of a file, or of a directory's files in name order."""
    if os.path.isdir(path):
        files = [os.path.join(path, n) for n in sorted(os.listdir(path))]
        files = [f for f in files if os.path.isfile(f)]
    else:
        files = [path]
    text = b"".join(open(f, "rb").read() for f in files)
    return torch.frombuffer(bytearray(text), dtype=torch.uint8).long()


def init_distributed(ranks, rank):
    """Joins a gloo process group of `ranks` processes on this machine."""
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    dist.init_process_group("gloo", rank=rank, world_size=ranks)


def time_steps(step, steps, warmup):
    """Runs `step(i)` `steps` times and returns the median seconds of the
    steps after the first `warmup`, the statistic run.sh also takes from
    tessel's --metrics."""
    seconds = []
    for i in range(steps):
        start = time.perf_counter()
        step(i)
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds[warmup:])


def report(name, ranks, threads, batch, step_seconds, loss, extra=None):
    """Prints the peer's one JSON line."""
    line = {
        "peer": "pytorch",
        "torch": torch.__version__,
        "model": name,
        "ranks": ranks,
        "threads_per_rank": threads,
        "batch": batch,
        "step_ms": step_seconds * 1e3,
        "samples_per_s": batch / step_seconds,
        "last_loss": loss,
    }
    line.update(extra or {})
    print(json.dumps(line), flush=True)
