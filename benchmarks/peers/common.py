"""What the peers share: the data tessel's driver reads, the step timer,
the thread settings, the DistributedDataParallel set-up and the report line.

The data are the driver's: Fashion-MNIST's idx files with pixels scaled to
[0, 1] (runtime/driver/Batches.cpp), and for language models the files of a
directory concatenated in name order, one example per byte offset, targets
shifted by one byte (runtime/driver/TextCorpus.cpp). Each step draws its
examples from a seeded shuffle, as the driver does (the order differs, the
cost does not).

The data are NumPy arrays, so that the PyTorch peers (Debian's torch 1.13 or
PyTorch 2.x in the benchmark's virtual environment) and the JAX peers read
them the same way; torch is imported only by the functions that need it.
"""

import gzip
import json
import os
import statistics
import struct
import time

import numpy as np

FASHION_MNIST = "/usr/share/datasets/fashion-mnist"
TEXT_CORPUS = "/usr/share/common-licenses"


def _read_idx(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = struct.unpack(">" + "I" * dims, data[4 : 4 + 4 * dims])
    return np.frombuffer(data[4 + 4 * dims :], dtype=np.uint8).reshape(shape)


def fashion_mnist(directory=FASHION_MNIST):
    """Returns the training split as (images [n, 784] f32 in [0, 1], labels [n] i64)."""

    def find(stem):
        for name in (stem, stem + ".gz"):
            if os.path.exists(os.path.join(directory, name)):
                return os.path.join(directory, name)
        raise SystemExit(f"{directory}: no {stem}[.gz]")

    images = _read_idx(find("train-images-idx3-ubyte")).reshape(-1, 784).astype(np.float32) / 255.0
    labels = _read_idx(find("train-labels-idx1-ubyte")).astype(np.int64)
    return images, labels


def text_corpus(path=TEXT_CORPUS):
    """Returns the bytes of a file, or of a directory's files in name order, as i64."""
    if os.path.isdir(path):
        files = [os.path.join(path, n) for n in sorted(os.listdir(path))]
        files = [f for f in files if os.path.isfile(f)]
    else:
        files = [path]
    text = b"".join(open(f, "rb").read() for f in files)
    return np.frombuffer(text, dtype=np.uint8).astype(np.int64)


def shuffled(count, seed=1):
    """The seeded order in which the steps draw their examples."""
    return np.random.default_rng(seed).permutation(count)


def pin_threads(threads):
    """Limits the process to `threads` threads of BLAS/OpenMP work. Called
    before torch or jax is imported, since both size their pools once."""
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[name] = str(threads)


def compile_with_inductor(function):
    """torch.compile(function), with inductor's C++ kernels linked against
    the wheel's libtorch. Inductor passes Python's LIBDIR to the linker
    first, and on Debian that is /usr/lib/x86_64-linux-gnu, where
    python3-torch's libtorch-dev puts libtorch_cpu.so 1.13: the kernels then
    miss the wheel's symbols, inductor's check of the vector ISA fails and
    every kernel is scalar (torch.compile ran slower than eager). The
    kernels link no libpython, so the directory is dropped; compile_threads
    1 keeps the compilation in this process, where the change holds."""
    import torch
    import torch._inductor.config as inductor_config
    import torch._inductor.cpp_builder as cpp_builder

    python_args = cpp_builder._get_python_related_args
    cpp_builder._get_python_related_args = lambda: (python_args()[0], [])
    inductor_config.compile_threads = 1
    return torch.compile(function)


def init_distributed(ranks, rank):
    """Joins a gloo process group of `ranks` processes on this machine."""
    import torch.distributed as dist

    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    dist.init_process_group("gloo", rank=rank, world_size=ranks)


def time_steps(step, steps, warmup):
    """Runs `step(i)` `steps` times; returns the median seconds of the steps
    after the first `warmup` (the statistic run.sh also takes from tessel's
    --metrics) and the loss of the first step, which step(0) returns (the
    check that the peer computes what tessel does)."""
    seconds, first_loss = [], None
    for i in range(steps):
        start = time.perf_counter()
        loss = step(i)
        seconds.append(time.perf_counter() - start)
        if i == 0:
            first_loss = loss
    return statistics.median(seconds[warmup:]), first_loss


def report(peer, version, name, ranks, threads, batch, step_seconds, first_loss, loss, extra=None):
    """Prints the peer's one JSON line."""
    line = {
        "peer": peer,
        "version": version,
        "model": name,
        "ranks": ranks,
        "threads_per_rank": threads,
        "batch": batch,
        "step_ms": step_seconds * 1e3,
        "samples_per_s": batch / step_seconds,
        "first_loss": first_loss,
        "last_loss": loss,
    }
    line.update(extra or {})
    print(json.dumps(line), flush=True)
