#!/usr/bin/env python3
"""Training throughput: tessel against PyTorch on the same model, batch,
optimizer, data and machine, on 1 rank and on 2.

    benchmarks/throughput.py --bin build/bin [--quick]

Models: benchmarks/models/mlp_1024.mlir (784-1024-1024-10, batch 256, SGD,
Fashion-MNIST) and examples/transformer/transformer.mlir (batch 4 x 16
bytes, AdamW with weight decay 0.01, the licence texts of
/usr/share/common-licenses), each against its peer in benchmarks/peers/.
One rank: tessel with no layout (its driver gives the rank all cores)
against PyTorch with torch.set_num_threads(<cores>). Two ranks: tessel under
benchmarks/layouts/data2.yaml with mpirun (one core each) against
DistributedDataParallel over gloo with two processes of one thread.

Both sides time every step, batch preparation included (tessel's --metrics
step_ms; the peers the same way), and report the median over the steps
after the warm-up: samples/s = batch / median step. The tessel MLP step's
FLOPs come from `tessel explain` (its one-rank training step), its GFLOP/s
is those over the median step.
"""

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile

REPO = pathlib.Path(__file__).resolve().parent.parent
PYTHON = "/usr/bin/python3"
MPI_ENV = {
    "OMPI_MCA_btl": "self,vader",
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
}

MODELS = {
    "mlp": {
        "model": REPO / "benchmarks/models/mlp_1024.mlir",
        "peer": REPO / "benchmarks/peers/mlp.py",
        "compile": ["--optimizer", "sgd"],
        "run": ["--lr", "0.1"],
        "batch": 256,
        "steps": 40,
        "peer_steps": 30,
        "warmup": 5,
        "unit": "images/s",
    },
    "transformer": {
        "model": REPO / "examples/transformer/transformer.mlir",
        "peer": REPO / "benchmarks/peers/transformer.py",
        "compile": ["--optimizer", "adamw", "--weight-decay", "0.01"],
        "run": ["--lr", "0.003"],
        "batch": 4,
        "steps": 300,
        "peer_steps": 150,
        "warmup": 20,
        "unit": "sequences/s",
    },
}


def run(command, **kwargs):
    env = dict(os.environ, **MPI_ENV)
    done = subprocess.run(command, capture_output=True, text=True, env=env, **kwargs)
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, command))}\n{done.stdout}\n{done.stderr}")
    return done.stdout


def tessel_step_ms(bin_dir, spec, ranks, tmp, steps):
    exe = tmp / f"{spec['model'].stem}.{ranks}.spmd"
    layout = ["--layout", str(REPO / "benchmarks/layouts/data2.yaml")] if ranks == 2 else []
    run([bin_dir / "tessel", "compile", spec["model"], *layout, *spec["compile"], "-o", exe])
    metrics = tmp / "metrics.jsonl"
    # Unbound, as `tessel run` starts it: mpirun's default binding would
    # give one rank one core.
    run(["mpirun", "--oversubscribe", "--bind-to", "none", "-n", str(ranks), exe, "--steps", str(steps),
         "--no-evaluate", "--metrics", metrics, *spec["run"]])
    # One line per step, then a summary line without a step number.
    lines = [json.loads(l) for l in metrics.read_text().splitlines()]
    lines = [l for l in lines if "step" in l]
    return statistics.median(l["step_ms"] for l in lines[spec["warmup"]:])


def peer_step_ms(spec, ranks, steps):
    threads = os.cpu_count() if ranks == 1 else 1
    out = run([PYTHON, spec["peer"], "--ranks", str(ranks), "--threads", str(threads),
               "--steps", str(steps), "--warmup", str(spec["warmup"])])
    return json.loads(out.strip().splitlines()[-1])["step_ms"]


def step_flops(bin_dir, spec, tmp):
    step = tmp / "step.mlir"
    optimizer = spec["compile"][1]
    run([bin_dir / "tessel-opt", spec["model"], f"--tessel-autodiff=optimizer={optimizer}", "-o", step])
    report = json.loads(run([bin_dir / "tessel", "explain", step, "--mesh", "data:1",
                             "--rules", "batch:data", "--function", "train_step",
                             "--format", "json"]))
    return report["totals"]["flops_per_rank"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=str(REPO / "build" / "bin"))
    parser.add_argument("--quick", action="store_true", help="a third of the steps")
    args = parser.parse_args()
    bin_dir = pathlib.Path(args.bin)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for name, spec in MODELS.items():
            scale = 3 if args.quick else 1
            for ranks in (1, 2):
                mine = tessel_step_ms(bin_dir, spec, ranks, tmp, max(spec["steps"] // scale, spec["warmup"] + 5))
                theirs = peer_step_ms(spec, ranks, max(spec["peer_steps"] // scale, spec["warmup"] + 5))
                row = {
                    "name": f"throughput {name} {ranks} rank{'s' if ranks > 1 else ''}",
                    "tessel": spec["batch"] / mine * 1e3,
                    "peer": spec["batch"] / theirs * 1e3,
                    "unit": spec["unit"],
                    "tessel_step_ms": mine,
                    "peer_step_ms": theirs,
                }
                row["ratio"] = row["tessel"] / row["peer"]
                if ranks == 1:
                    row["tessel_step_gflops"] = step_flops(bin_dir, spec, tmp) / mine / 1e6
                print(json.dumps(row), flush=True)
                rows.append(row)


if __name__ == "__main__":
    main()
