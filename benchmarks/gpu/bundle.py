#!/usr/bin/env python3
"""Packs what a GPU machine without MLIR or MPI needs to test and time the
CUDA runtime (docs/gpu.md, "Running on a lent GPU"): the compiled programs,
the GPU test binaries, the calibrate probe, the runtime libraries and their non-system
dependencies, Open MPI as Debian packages, and the data.

    benchmarks/gpu/bundle.py --bin build/bin --out .devbundle
    # then, on the GPU machine, from the repository root:
    benchmarks/gpu/on_device.sh .devbundle/tessel-gpu.tar.xz OUT_DIR

The bundle is one xz-compressed tar (about 24 MB; oneDNN alone is 40 MB
unpacked), small enough to travel with a working tree to a lent machine.

The programs are compiled here because the GPU machine has no MLIR: each
model twice, for the CPU runtime and for the CUDA one, with the options of
tests/e2e/gpu.sh (the loss-curve check) and of benchmarks/throughput.py
(the timed rows). The CUDA libraries (cuBLAS, cuDNN, NCCL) are not packed:
they are large and the GPU machine has its own (on_device.sh finds them).
"""

import argparse
import gzip
import json
import os
import pathlib
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))
import throughput  # noqa: E402  (the timed models' specs)

FASHION_MNIST = pathlib.Path("/usr/share/datasets/fashion-mnist")
TEXT_CORPUS = pathlib.Path("/usr/share/common-licenses")
# Enough training images for the checks' 40 steps and the timed steps,
# without carrying the whole 26 MB split.
TRAIN_IMAGES = 16384

# Libraries every Linux machine has in a newer version, and the CUDA
# libraries the GPU machine brings: never packed.
SYSTEM_LIBRARIES = ("linux-vdso", "ld-linux", "libc.so", "libm.so", "libdl.so", "libpthread.so",
                    "librt.so", "libstdc++.so", "libgcc_s.so", "libcublas", "libcudnn", "libnccl",
                    "libcuda.so", "libmpi", "libopen-", "libz.so")
# Open MPI 4.1 and what its launcher and plugins load, unpacked on the GPU
# machine into a directory of their own (on_device.sh sets OPAL_PREFIX).
OPEN_MPI_PACKAGES = ("openmpi-bin", "openmpi-common", "libopenmpi3", "libpmix2", "libhwloc15",
                     "libevent-core-2.1-7", "libevent-pthreads-2.1-7", "libfabric1", "libucx0",
                     "libibverbs1", "librdmacm1", "libnl-3-200", "libnl-route-3-200", "libpsm2-2",
                     "libpsm-infinipath1", "libnuma1", "libmunge2")


def run(command, **kwargs):
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        sys.exit(f"bundle: failed: {' '.join(map(str, command))}\n{done.stdout}{done.stderr}")
    return done.stdout


def programs(bin_dir, tmp):
    """(name, model, compile options, run options) of every packed program."""
    realistic = tmp / "transformer_realistic.mlir"
    run([sys.executable, REPO / "examples/transformer/generate.py",
         *throughput.REALISTIC_TRANSFORMER, "-o", realistic])
    mlp_1024 = throughput.MODELS["mlp"]
    transformer = throughput.MODELS["transformer"]
    return [
        # tests/e2e/gpu.sh's train mode.
        ("mlp", REPO / "examples/mlp/mlp.mlir", ["--optimizer", "momentum"]),
        ("cnn", REPO / "examples/cnn/cnn.mlir", ["--optimizer", "momentum"]),
        # benchmarks/throughput.py's models.
        ("mlp_1024", mlp_1024["model"], mlp_1024["compile"]),
        ("transformer", realistic, transformer["compile"]),
        ("transformer_bf16", realistic, [*transformer["compile"], "--precision", "bf16"]),
        # The GPU's fused element-wise kernel (--gpu-fusion, docs/gpu.md):
        # GPU programs only, against the ones above.
        ("mlp_fused", REPO / "examples/mlp/mlp.mlir", ["--optimizer", "momentum", "--gpu-fusion"]),
        ("mlp_1024_fused", mlp_1024["model"], [*mlp_1024["compile"], "--gpu-fusion"]),
        ("transformer_fused", realistic, [*transformer["compile"], "--gpu-fusion"]),
        ("transformer_bf16_fused", realistic,
         [*transformer["compile"], "--precision", "bf16", "--gpu-fusion"]),
    ]


def step_flops(bin_dir, model, options, tmp):
    """The one-rank training step's FLOPs (`tessel explain`), as throughput.py counts them."""
    step = tmp / "step.mlir"
    optimizer = options[options.index("--optimizer") + 1]
    run([bin_dir / "tessel-opt", model, f"--tessel-autodiff=optimizer={optimizer}", "-o", step])
    report = json.loads(run([bin_dir / "tessel", "explain", step, "--mesh", "data:1", "--rules",
                             "batch:data", "--function", "train_step", "--format", "json"]))
    return report["totals"]["flops_per_rank"]


def shared_libraries(paths):
    """The non-system shared libraries the files load, by ldd."""
    found = {}
    for path in paths:
        for line in run(["ldd", path]).splitlines():
            parts = line.split("=>")
            if len(parts) != 2 or "not found" in parts[1]:
                continue
            name, target = parts[0].strip(), parts[1].split("(")[0].strip()
            if target and not any(name.startswith(s) for s in SYSTEM_LIBRARIES):
                found[name] = pathlib.Path(target)
    return found


def write_idx_subset(source, target, count):
    """The first `count` entries of an idx file (gzip), with the count rewritten."""
    with gzip.open(source, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = list(struct.unpack(">" + "I" * dims, data[4:4 + 4 * dims]))
    entry = 1
    for size in shape[1:]:
        entry *= size
    shape[0] = min(count, shape[0])
    header = data[:4] + struct.pack(">" + "I" * dims, *shape)
    with gzip.open(target, "wb") as f:
        f.write(header + data[4 + 4 * dims:4 + 4 * dims + shape[0] * entry])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=str(REPO / "build/bin"))
    parser.add_argument("--out", default=str(REPO / ".devbundle"))
    args = parser.parse_args()
    bin_dir = pathlib.Path(args.bin).resolve()
    lib_dir = bin_dir.parent / "lib"
    if not (lib_dir / "libtessel_runtime_cuda.so").exists():
        sys.exit(f"bundle: {lib_dir}/libtessel_runtime_cuda.so is not built (no CUDA toolkit?)")
    with tempfile.TemporaryDirectory() as staging:
        pack(bin_dir, pathlib.Path(staging))
        out = pathlib.Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        archive = out / "tessel-gpu.tar.xz"
        partial = out / "tessel-gpu.tar.xz.partial"
        with tarfile.open(partial, "w:xz") as tar:
            tar.add(staging, arcname=".")
        partial.replace(archive)
    print(f"bundle: {archive}: {archive.stat().st_size / 2**20:.1f} MiB")


def pack(bin_dir, out):
    """Fills the directory `out` with the bundle's files."""
    for sub in ("bin", "lib", "debs", "data/fashion-mnist", "data/text", "tmp"):
        (out / sub).mkdir(parents=True)
    tmp = out / "tmp"

    flops = {}
    for name, model, options in programs(bin_dir, tmp):
        # --gpu-fusion changes only the GPU's program.
        for target in ("cuda",) if "--gpu-fusion" in options else ("cpu", "cuda"):
            suffix = "gpu" if target == "cuda" else "cpu"
            run([bin_dir / "tessel", "compile", model, *options, "--target", target,
                 "-o", out / "bin" / f"{name}.{suffix}"])
        if name in ("mlp_1024", "transformer"):
            flops[name] = step_flops(bin_dir, model, options, tmp)
    (out / "flops.json").write_text(json.dumps(flops, indent=1) + "\n")
    for tool in ("tessel-cuda-probe", "tessel-calibrate-probe-cuda", "tessel-runtime-gpu-tests",
                 "tessel-runtime-gpu-plan-tests"):
        shutil.copy2(bin_dir / tool, out / "bin")

    binaries = sorted((out / "bin").iterdir())
    for name, path in sorted(shared_libraries(binaries).items()):
        shutil.copy2(path, out / "lib" / name)
    run(["apt-get", "download", *OPEN_MPI_PACKAGES], cwd=out / "debs")

    for stem in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"):
        write_idx_subset(FASHION_MNIST / f"{stem}.gz", out / "data/fashion-mnist" / f"{stem}.gz",
                         TRAIN_IMAGES)
    for path in sorted(TEXT_CORPUS.iterdir()):
        if path.is_file():
            shutil.copy2(path, out / "data/text")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
