#!/usr/bin/env python3
"""Mixed precision's speed: the realistic Transformer's training step in
bf16 and f16 against f32, on one rank, and the GEMM rates behind it.

    benchmarks/precision.py --bin build/bin [--rounds 3] [--quick]

The model, optimizer and learning rate are throughput.py's (4 blocks,
d_model 256, AdamW with weight decay 0.01, --lr 0.003, where every
precision trains: the default rate makes the loss diverge, which slows the
f32 step down, not the narrow ones). It is compiled three times
(`--precision f32|bf16|f16`) and the programs run one after another,
`--rounds` times over, so that the machine's drift falls on all of them
alike; each run's figure is its median step after the warm-up, each
program's the median of its runs. bf16 also runs with
TESSEL_NATIVE_BF16_PRODUCTS=1 and =0 (einsums on oneDNN's bf16 kernels,
and on the f32 kernels between conversions, whichever the runtime would
choose on this CPU, docs/training.md).

Prints one JSON line per comparison, as report.py reads them: `tessel` is
the narrow step, `peer` the f32 step, `ratio` the speed-up (f32 over the
narrow step) against the issue's goal (bf16 1.5x, f16 1.0x). The details
hold every run, the last losses (the three should agree to the narrow
type's precision) and oneDNN's large-GEMM rates in f32 and bf16 from
tessel-bench-gemm: on an Intel CPU without AMX the bf16 rate is below the
f32 one, which bounds what bf16 can gain; on AMD's Zen 4 it is about twice
the f32 one.
"""

import argparse
import json
import os
import pathlib
import statistics
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from throughput import MODELS, model_file, run  # noqa: E402

WARMUP = 10
GOALS = {"bf16": 1.5, "f16": 1.0}


def median_step(exe, steps, metrics, env=None):
    """The run's median step (ms) after the warm-up and its last loss."""
    # One rank, started directly: the driver gives it every core.
    run([exe, "--steps", str(steps), "--no-evaluate", "--metrics", metrics,
         *MODELS["transformer"]["run"]], env=env)
    lines = [json.loads(l) for l in pathlib.Path(metrics).read_text().splitlines()]
    lines = [l for l in lines if "step" in l]
    warmup = min(WARMUP, len(lines) // 2)
    return statistics.median(l["step_ms"] for l in lines[warmup:]), lines[-1]["loss"]


def gemm_rate(bin_dir, element_type, size):
    return json.loads(run([bin_dir / "tessel-bench-gemm", "--size", str(size), "--type", element_type]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=str(pathlib.Path(__file__).resolve().parent.parent / "build" / "bin"))
    parser.add_argument("--rounds", type=int, default=3, help="runs of each program, interleaved")
    parser.add_argument("--steps", type=int, default=30, help="steps of each run (the first 10 are left out)")
    parser.add_argument("--quick", action="store_true", help="one round of 15 steps (a smoke test)")
    args = parser.parse_args()
    rounds, steps = (1, 15) if args.quick else (args.rounds, args.steps)
    bin_dir = pathlib.Path(args.bin)
    spec = MODELS["transformer"]

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = pathlib.Path(tmp_name)
        model = model_file(spec, tmp)
        programs = {}
        for precision in ("f32", "bf16", "f16"):
            programs[precision] = tmp / f"transformer.{precision}.spmd"
            run([bin_dir / "tessel", "compile", model, *spec["compile"], "--precision", precision,
                 "-o", programs[precision]])
        # (label, program, environment)
        variants = [("f32", "f32", None), ("bf16", "bf16", None),
                    ("bf16 native products", "bf16", {"TESSEL_NATIVE_BF16_PRODUCTS": "1"}),
                    ("bf16 widened products", "bf16", {"TESSEL_NATIVE_BF16_PRODUCTS": "0"}),
                    ("f16", "f16", None)]
        runs = {label: [] for label, _, _ in variants}
        losses = {}
        for _ in range(rounds):
            for label, precision, env in variants:
                step, loss = median_step(programs[precision], steps, tmp / "metrics.jsonl", env)
                runs[label].append(round(step, 2))
                losses[label] = loss
        medians = {label: statistics.median(steps_ms) for label, steps_ms in runs.items()}
        size = 1024 if args.quick else 2048
        gemm = {t: gemm_rate(bin_dir, t, size) for t in ("f32", "bf16")}

    for precision in ("bf16", "f16"):
        details = {"runs_ms": runs, "median_ms": medians, "last_loss": losses, "steps": steps,
                   "warmup": WARMUP, "rounds": rounds, "gemm_gflops": gemm,
                   "omp_num_threads": os.environ.get("OMP_NUM_THREADS")}
        print(json.dumps({"name": f"transformer 1 rank: {precision} step against f32",
                          "tessel": medians[precision], "peer": medians["f32"], "unit": "ms",
                          "ratio": medians["f32"] / medians[precision], "goal": GOALS[precision],
                          "details": details}), flush=True)


if __name__ == "__main__":
    main()
