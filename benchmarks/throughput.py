#!/usr/bin/env python3
"""Training throughput: tessel against its peers on the same model, batch,
optimizer, data and machine, on 1 rank and on 2.

    benchmarks/throughput.py --bin build/bin --venv build/bench-venv [--quick]

Models: benchmarks/models/mlp_1024.mlir (784-1024-1024-10, batch 256, SGD,
Fashion-MNIST) and the realistic Transformer that
examples/transformer/generate.py writes (4 blocks, d_model 256, 8 heads,
d_ff 1024, seq 128, batch 8, AdamW with weight decay 0.01, the licence texts
of /usr/share/common-licenses). Peers (benchmarks/peers/), each run on the
same model right after tessel:

- PyTorch 2.x eager, and with torch.compile (loss and optimizer step), from
  the virtual environment benchmarks/peers/venv.sh makes;
- JAX, one jax.jit of the whole step, from the same environment;
- Debian's PyTorch 1.13 (OpenBLAS, /usr/bin/python3), the earlier reference.

One rank: tessel with no layout (its driver gives the rank both cores)
against PyTorch with torch.set_num_threads(2) and JAX on one host device
(XLA's pool of 2 threads). Two ranks: tessel under
benchmarks/layouts/data2.yaml with mpirun (one core each) against
DistributedDataParallel over gloo with two processes of one thread, and JAX
on two host devices with the batch under NamedSharding (GSPMD), one thread
each. Every peer also gets OMP_NUM_THREADS (and MKL's, OpenBLAS's) set to
its threads.

Both sides time every step, batch preparation included (tessel's --metrics
step_ms; the peers the same way), and report the median over the steps
after the warm-up: samples/s = batch / median step. Each row also holds the
first step's loss of both sides: the peers start from the same scales, so
the losses agree within FIRST_LOSS_TOLERANCE when they compute the same
thing (`same_first_loss`). The one-rank rows carry tessel's step GFLOP/s:
the FLOPs of `tessel explain` (its one-rank training step) over the median
step.

Each model also runs on 2 ranks under the layout `tessel search -n 2`
writes (with its built-in profile; for the Transformer, ZeRO over the data
axis): a row of tessel alone, its throughput over its own 1-rank
throughput (the scaling goal of 0.9), with the layout in words.
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
DEBIAN_PYTHON = "/usr/bin/python3"
PEERS_DIR = REPO / "benchmarks/peers"
# Relative. The first losses differ by the draw of the weights and of the
# first batch: the MLP's 2.33 (PyTorch) and 2.39 (JAX) on the same batch.
FIRST_LOSS_TOLERANCE = 0.05
MPI_ENV = {
    "OMPI_MCA_btl": "self,vader",
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
}

REALISTIC_TRANSFORMER = ["--layers", "4", "--d-model", "256", "--heads", "8", "--d-ff", "1024",
                         "--seq", "128", "--batch", "8"]

MODELS = {
    "mlp": {
        "model": REPO / "benchmarks/models/mlp_1024.mlir",
        "torch_peer": [PEERS_DIR / "mlp.py"],
        "jax_peer": [PEERS_DIR / "jax_peer.py", "--model", "mlp"],
        "compile": ["--optimizer", "sgd"],
        "run": ["--lr", "0.1"],
        "batch": 256,
        "steps": 40,
        "peer_steps": 30,
        "warmup": 10,
        "unit": "images/s",
    },
    "transformer": {
        "generate": REALISTIC_TRANSFORMER,
        "torch_peer": [PEERS_DIR / "transformer.py", *REALISTIC_TRANSFORMER],
        "jax_peer": [PEERS_DIR / "jax_peer.py", "--model", "transformer", *REALISTIC_TRANSFORMER],
        "compile": ["--optimizer", "adamw", "--weight-decay", "0.01"],
        "run": ["--lr", "0.003"],
        "batch": 8,
        "steps": 60,
        "peer_steps": 30,
        "warmup": 10,
        "unit": "sequences/s",
    },
}

# (label, which interpreter, which script, extra arguments, the goal
# for tessel's throughput over the peer's).
PEERS = [
    ("PyTorch 2 eager", "venv", "torch_peer", [], 1.5),
    ("torch.compile", "venv", "torch_peer", ["--compile"], 1.0),
    ("JAX jit", "venv", "jax_peer", [], 1.0),
    ("PyTorch 1.13 Debian", "debian", "torch_peer", [], 3.0),
]


def same_loss(theirs, mine):
    """Whether two first losses agree within FIRST_LOSS_TOLERANCE of mine."""
    return abs(theirs - mine) <= FIRST_LOSS_TOLERANCE * abs(mine)


def run(command, env=None, **kwargs):
    env = dict(os.environ, **MPI_ENV, **(env or {}))
    done = subprocess.run(command, capture_output=True, text=True, env=env, **kwargs)
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, command))}\n{done.stdout}\n{done.stderr}")
    return done.stdout


def model_file(spec, tmp):
    """The benchmark's model file, or the one generate.py writes."""
    if "model" in spec:
        return spec["model"]
    path = tmp / "transformer_realistic.mlir"
    if not path.exists():
        run([sys.executable, REPO / "examples/transformer/generate.py", *spec["generate"], "-o", path])
    return path


def tessel_step(bin_dir, spec, ranks, tmp, steps, layout_file=None):
    """tessel's median step (ms) and first loss, on `layout_file`, or on
    none (1 rank) or data2.yaml (2 ranks)."""
    model = model_file(spec, tmp)
    exe = tmp / f"{model.stem}.{ranks}.spmd"
    if layout_file is None and ranks == 2:
        layout_file = REPO / "benchmarks/layouts/data2.yaml"
    layout = ["--layout", str(layout_file)] if layout_file else []
    run([bin_dir / "tessel", "compile", model, *layout, *spec["compile"], "-o", exe])
    metrics = tmp / "metrics.jsonl"
    # Unbound, as `tessel run` starts it: mpirun's default binding would
    # give one rank one core.
    run(["mpirun", "--oversubscribe", "--bind-to", "none", "-n", str(ranks), exe, "--steps", str(steps),
         "--no-evaluate", "--metrics", metrics, *spec["run"]])
    # One line per step, then a summary line without a step number.
    lines = [json.loads(l) for l in metrics.read_text().splitlines()]
    lines = [l for l in lines if "step" in l]
    return statistics.median(l["step_ms"] for l in lines[spec["warmup"]:]), lines[0]["loss"]


def peer_line(python, spec, script, extra, ranks, steps):
    """The peer's JSON line: step_ms, first_loss, version, ..."""
    threads = os.cpu_count() if ranks == 1 else 1
    command = [python, *spec[script], *extra, "--threads", str(threads),
               "--steps", str(steps), "--warmup", str(spec["warmup"])]
    command += ["--devices" if script == "jax_peer" else "--ranks", str(ranks)]
    thread_env = {name: str(threads) for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")}
    out = run(command, env=thread_env, cwd=PEERS_DIR)
    return json.loads(out.strip().splitlines()[-1])


def search_layout(bin_dir, spec, ranks, tmp):
    """The layout `tessel search` writes for the model on `ranks` ranks (its
    built-in profile), and its mesh and rules in words."""
    layout = tmp / f"search{ranks}.yaml"
    out = run([bin_dir / "tessel", "search", model_file(spec, tmp), "-n", str(ranks),
               "--optimizer", spec["compile"][1], "--top", "1", "--format", "json", "-o", layout])
    best = json.loads(out)["candidates"][0]
    mesh = " x ".join(f"{axis}:{size}" for axis, size in best["mesh"].items())
    rules = ", ".join(f"{dim}->{axis}" for dim, axis in best["layout"].items())
    return layout, f"{mesh} {rules}" + (", ZeRO" if best.get("zero") else "")


def step_flops(bin_dir, spec, tmp):
    step = tmp / "step.mlir"
    optimizer = spec["compile"][1]
    run([bin_dir / "tessel-opt", model_file(spec, tmp), f"--tessel-autodiff=optimizer={optimizer}", "-o", step])
    report = json.loads(run([bin_dir / "tessel", "explain", step, "--mesh", "data:1",
                             "--rules", "batch:data", "--function", "train_step",
                             "--format", "json"]))
    return report["totals"]["flops_per_rank"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=str(REPO / "build" / "bin"))
    parser.add_argument("--venv", default=str(REPO / "build" / "bench-venv"),
                        help="the peers' virtual environment (benchmarks/peers/venv.sh)")
    parser.add_argument("--peers", nargs="+", default=[p[0] for p in PEERS], metavar="PEER",
                        help="some peers only: " + ", ".join(repr(p[0]) for p in PEERS))
    parser.add_argument("--models", nargs="+", default=list(MODELS), choices=list(MODELS))
    parser.add_argument("--quick", action="store_true", help="a third of the steps")
    args = parser.parse_args()
    bin_dir = pathlib.Path(args.bin)
    # Absolute (the peers run in their own directory) but not resolved: the
    # environment's python is a link to the interpreter it was made from.
    pythons = {"venv": os.path.abspath(pathlib.Path(args.venv) / "bin" / "python"), "debian": DEBIAN_PYTHON}
    unknown = set(args.peers) - {p[0] for p in PEERS}
    if unknown:
        parser.error(f"unknown peers: {', '.join(sorted(unknown))}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for name in args.models:
            spec = MODELS[name]
            scale = 3 if args.quick else 1
            steps = max(spec["steps"] // scale, spec["warmup"] + 5)
            for ranks in (1, 2):
                load = open("/proc/loadavg").read().split()[:3]
                mine, my_first = tessel_step(bin_dir, spec, ranks, tmp, steps)
                if ranks == 1:
                    one_rank, one_rank_first = mine, my_first
                gflops = step_flops(bin_dir, spec, tmp) / mine / 1e6 if ranks == 1 else None
                for label, python, script, extra, goal in PEERS:
                    if label not in args.peers:
                        continue
                    theirs = peer_line(pythons[python], spec, script, extra, ranks,
                                       max(spec["peer_steps"] // scale, spec["warmup"] + 5))
                    row = {
                        "name": f"throughput {name} {ranks} rank{'s' if ranks > 1 else ''} vs {label}",
                        "model": name,
                        "ranks": ranks,
                        "peer_name": label,
                        "peer_version": theirs["version"],
                        "tessel": spec["batch"] / mine * 1e3,
                        "peer": spec["batch"] / theirs["step_ms"] * 1e3,
                        "unit": spec["unit"],
                        "goal": goal,
                        "tessel_step_ms": mine,
                        "peer_step_ms": theirs["step_ms"],
                        "tessel_first_loss": my_first,
                        "peer_first_loss": theirs["first_loss"],
                        "same_first_loss": same_loss(theirs["first_loss"], my_first),
                        "load_average_before": [float(x) for x in load],
                    }
                    row["ratio"] = row["tessel"] / row["peer"]
                    if gflops is not None:
                        row["tessel_step_gflops"] = gflops
                    print(json.dumps(row), flush=True)
            # Issue 22 item 5 on the layout tessel search picks for 2 ranks
            # (issue 21): its throughput over 1 rank's, same global batch.
            layout, picked = search_layout(bin_dir, spec, 2, tmp)
            searched, searched_first = tessel_step(bin_dir, spec, 2, tmp, steps, layout)
            row = {
                "name": f"throughput {name} 2 ranks on tessel search's layout vs 1 rank",
                "kind": "search_layout",
                "model": name,
                "ranks": 2,
                "layout": picked,
                "tessel": spec["batch"] / searched * 1e3,
                "peer": spec["batch"] / one_rank * 1e3,
                "unit": spec["unit"],
                "goal": 0.9,
                "tessel_step_ms": searched,
                "one_rank_step_ms": one_rank,
                "tessel_first_loss": searched_first,
                "same_first_loss": same_loss(searched_first, one_rank_first),
            }
            row["ratio"] = row["tessel"] / row["peer"]
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
