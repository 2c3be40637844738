#!/usr/bin/env python3
"""Does tessel explain's peak memory per rank match what the ranks hold?

    benchmarks/memory_model.py [--bin build/bin] [--steps 10] [--profile FILE]
        [--only NAME ...] [-o RESULTS.json]

First it measures the driver's own memory, the constant the machine
profile carries (`memory` in analysis/profiles/default.json), with `tessel
calibrate` (tools/tessel/CalibrateMemory.cpp): the peak resident memory of
a trivial compiled program (a Transformer of d_model 8) training on the
text corpus, and of one (an MLP of hidden 1) training on Fashion-MNIST;
the difference is what loading the images adds at most, and what stays of
them is the size of the training split's images and labels; a 16-block
twin of the first gives what each runtime call site holds. It writes
them into a copy of the profile (--profile, else the built-in one) that
`tessel explain --profile` reads.

Then, for the MLP, the CNN and three Transformers (one block of d_model
1024; four blocks of d_model 256 at seq 128; 48 blocks of d_model 32, from
examples/transformer/generate.py), each under two or three layouts on 1 to
4 ranks, and the GPT example pipelined over two stages (1F1B, GPipe,
remat, beside a data axis; the largest stage's rank memory: its peak, the
driver's memory and its call sites'), it predicts
the peak memory per rank with `tessel explain --train --format json`
(totals.memory_bytes_per_rank), compiles the same step with `tessel
compile`, trains it for --steps steps under mpirun as `tessel run` starts
it (--no-evaluate; the ranks' memory grows a little over the first steps,
so 10 by default) and reads the largest rank's `peak_rss_mib` (getrusage)
from the metrics. It prints predicted against measured and the error, and
with -o writes them as JSON (results/memory_model.json, docs/search.md).
Trains on Fashion-MNIST (Debian package dataset-fashion-mnist) and the
licence texts in /usr/share/common-licenses.
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

REPO = pathlib.Path(__file__).resolve().parent.parent
MPI_ENV = {
    "OMPI_MCA_btl": "self,vader",
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
}
MIB = 1 << 20
EXAMPLES = REPO / "examples"
FASHION_MNIST = pathlib.Path("/usr/share/datasets/fashion-mnist")


def run(command):
    env = dict(os.environ, **MPI_ENV)
    done = subprocess.run([str(c) for c in command], capture_output=True,
                          text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, command))}\n{done.stdout}\n"
                 f"{done.stderr}")
    return done.stdout


def generate(tmp, name, *options):
    path = tmp / f"{name}.mlir"
    run([sys.executable, EXAMPLES / "transformer/generate.py", *options,
         "-o", path])
    return path


def configurations(tmp):
    """(name, model, tessel options, ranks) of every measured run."""
    mlp = EXAMPLES / "mlp/mlp.mlir"
    cnn = EXAMPLES / "cnn/cnn.mlir"
    t1 = generate(tmp, "transformer_1x1024", "--layers", "1",
                  "--d-model", "1024")
    t4 = generate(tmp, "transformer_4x256", "--layers", "4", "--d-model",
                  "256", "--seq", "128")
    # Deep and narrow: what grows is the program, not its tensors (each
    # runtime call site keeps a prepared op).
    t48 = generate(tmp, "transformer_48x32", "--layers", "48", "--d-model",
                   "32", "--heads", "2", "--d-ff", "64", "--seq", "16")
    wide = ["--dim-size", "hidden=4096", "--batch", "512"]
    cnn_big = ["--dim-size", "f1=32", "--dim-size", "f2=64", "--batch", "64"]
    lay = lambda p: ["--layout", EXAMPLES / p]
    single = ["--mesh", "data:1", "--rules", "batch:data"]
    adam = ["--optimizer", "adam"]
    gpt = EXAMPLES / "gpt/gpt.mlir"
    gpt_sizes = ["--batch", "64", "--dim-size", "seq=128", "--dim-size",
                 "key=128"]
    long_sizes = ["--batch", "2", "--dim-size", "seq=1024", "--dim-size",
                  "key=1024"]
    return [
        ("mlp", mlp, single, 1),
        ("mlp", mlp, lay("mlp/data.yaml"), 4),
        ("mlp hidden 4096, batch 512", mlp, single + wide, 1),
        ("mlp hidden 4096, batch 512", mlp, lay("mlp/model.yaml") + wide, 4),
        ("mlp hidden 4096, batch 512, adam", mlp,
         lay("mlp/hybrid.yaml") + wide + adam, 4),
        ("cnn", cnn, single, 1),
        ("cnn f1 32, f2 64, batch 64", cnn, single + cnn_big, 1),
        ("cnn f1 32, f2 64, batch 64", cnn, lay("cnn/channels.yaml") + cnn_big,
         4),
        ("transformer 1 x d1024", t1, single, 1),
        ("transformer 1 x d1024, adam", t1, single + adam, 1),
        ("transformer 1 x d1024", t1, lay("transformer/model.yaml"), 4),
        ("transformer 1 x d1024, adam", t1,
         lay("transformer/zero.yaml") + adam, 4),
        ("transformer 48 x d32 seq 16", t48, single, 1),
        ("transformer 48 x d32 seq 16", t48, lay("transformer/hybrid.yaml"),
         4),
        ("transformer 4 x d256 seq 128", t4, single, 1),
        ("transformer 4 x d256 seq 128", t4, lay("transformer/hybrid.yaml"),
         4),
        ("transformer 4 x d256 seq 128, adam", t4,
         lay("transformer/data.yaml") + adam, 4),
        # Mixed precision: bf16 ops on f32 kernels keep f32 copies.
        ("transformer 4 x d256 seq 128, adam, bf16", t4,
         single + adam + ["--precision", "bf16"], 1),
        # Pipelined: each stage's parameters, the micro-batches its
        # schedule holds and the working buffers its functions leave in
        # the runtime's cache.
        ("gpt batch 64 seq 128, 1f1b x 8", gpt,
         gpt_sizes + pipeline(tmp, "1f1b8", 8, "1f1b"), 2),
        ("gpt batch 64 seq 128, 1f1b x 2, adam", gpt,
         gpt_sizes + pipeline(tmp, "1f1b2", 2, "1f1b") + adam, 2),
        ("gpt batch 64 seq 128, gpipe x 8", gpt,
         gpt_sizes + pipeline(tmp, "gpipe8", 8, "gpipe"), 2),
        ("gpt batch 64 seq 128, 1f1b x 8 remat, adam", gpt,
         gpt_sizes + pipeline(tmp, "remat8", 8, "1f1b", remat=True) + adam,
         2),
        ("gpt batch 64 seq 128, data 2 x 1f1b x 4, adam", gpt,
         gpt_sizes + pipeline(tmp, "data-1f1b4", 4, "1f1b", data=2) + adam,
         4),
        # Long sequences: attention's working buffers of one size in the
        # forward, others in the backward, both kept by the cache.
        ("gpt batch 2 seq 1024, 1f1b x 2", gpt,
         long_sizes + pipeline(tmp, "long-1f1b2", 2, "1f1b"), 2),
        ("gpt batch 2 seq 1024, 1f1b x 2 remat", gpt,
         long_sizes + pipeline(tmp, "long-remat2", 2, "1f1b", remat=True),
         2),
    ]


def pipeline(tmp, name, microbatches, schedule, remat=False, data=1):
    """--layout of the GPT example's two stages (its blocks apart) over
    `stage`, beside a data axis of `data` ranks."""
    mesh = f"data: {data}, stage: 2" if data > 1 else "stage: 2"
    rules = "batch: data" if data > 1 else ""
    path = tmp / f"{name}.yaml"
    path.write_text(
        f"mesh: {{{mesh}}}\nlayout: {{{rules}}}\n"
        f"pipeline: {{axis: stage, microbatches: {microbatches}, "
        f"schedule: {schedule}, remat: {str(remat).lower()}, "
        f"stages: [[tok_emb, block0], [block1, ln_f]]}}\n")
    return ["--layout", path]


def predicted_bytes(report):
    """explain's peak memory per rank: the totals of an unpipelined step,
    the largest stage's rank memory (its peak, the driver's own memory and
    its call sites') of a pipelined one."""
    if "totals" in report:
        return report["totals"]["memory_bytes_per_rank"], report["memory"]
    peaks = [stage["peak_bytes_per_rank"] for stage in report["stages"]]
    return (max(stage["memory_bytes_per_rank"] for stage in report["stages"]),
            {"stage_peak_bytes": peaks, "driver_bytes": report["driver_bytes"],
             "stage_call_site_bytes": [stage["call_site_bytes"]
                                       for stage in report["stages"]]})


def measured_peak_mib(args, model, options, ranks, tmp):
    """The largest rank's peak resident memory training `model`."""
    exe = tmp / "model.spmd"
    run([args.bin / "tessel", "compile", model, *options, "-o", exe])
    metrics = tmp / "metrics.jsonl"
    metrics.unlink(missing_ok=True)
    run(["mpirun", "--oversubscribe", "--bind-to", "none", "-n", ranks, exe,
         "--steps", args.steps, "--no-evaluate", "--metrics", metrics])
    last = json.loads(metrics.read_text().splitlines()[-1])
    return max(last["peak_rss_mib"])


def driver_memory(args):
    """The profile's `memory` section, as `tessel calibrate` measures it
    (three trivial programs trained on one rank; the kernels it also times
    on one rank are not used here)."""
    out = run([args.bin / "tessel", "calibrate", "--max-ranks", "1",
               "--repetitions", "1", "--min-seconds", "0.002",
               "--data-dir", FASHION_MNIST])
    return json.loads(out)["memory"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", type=pathlib.Path, default=REPO / "build/bin")
    parser.add_argument("--profile", type=pathlib.Path,
                        help="the profile whose memory section to measure "
                        "anew (default: analysis/profiles/default.json)")
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--only", action="append",
                        help="run only the model of this name, as printed "
                        "(repeatable)")
    parser.add_argument("-o", "--output", type=pathlib.Path)
    args = parser.parse_args()
    if not (FASHION_MNIST / "train-images-idx3-ubyte.gz").exists():
        sys.exit("memory_model: Fashion-MNIST is not installed "
                 "(Debian package dataset-fashion-mnist)")
    rows = []
    with tempfile.TemporaryDirectory() as name:
        tmp = pathlib.Path(name)
        profile = json.loads((args.profile or
                              REPO / "analysis/profiles/default.json")
                             .read_text())
        profile["memory"] = driver_memory(args)
        profile_path = tmp / "profile.json"
        profile_path.write_text(json.dumps(profile))
        memory = profile["memory"]
        print(f"driver: {memory['driver_bytes'] / MIB:.1f} MiB; Fashion-MNIST "
              f"adds {memory['image_load_bytes'] / MIB:.1f} MiB loading, "
              f"keeps {memory['image_resident_bytes'] / MIB:.1f} MiB")
        only = set(args.only) if args.only else None
        for name, model, options, ranks in configurations(tmp):
            if only and name not in only:
                continue
            report = json.loads(run([args.bin / "tessel", "explain", model,
                                     "--train", *options, "--profile",
                                     profile_path, "--format", "json"]))
            predicted_total, breakdown = predicted_bytes(report)
            predicted = predicted_total / MIB
            measured = measured_peak_mib(args, model, options, ranks, tmp)
            layout = next((pathlib.Path(o).name for o in options
                           if str(o).endswith(".yaml")), "data:1")
            rows.append({"model": name, "layout": layout, "ranks": ranks,
                         "predicted_mib": predicted, "measured_mib": measured,
                         "error": predicted / measured - 1,
                         "breakdown_mib": {
                             k: ([b / MIB for b in v] if isinstance(v, list)
                                 else v / MIB)
                             for k, v in breakdown.items()
                             if k != "call_sites"},
                         "call_sites": breakdown.get("call_sites")})
            row = rows[-1]
            print(f"{name:<36} {layout:<12} {ranks} ranks: predicted "
                  f"{predicted:7.1f} MiB, measured {measured:7.1f} MiB, "
                  f"error {row['error'] * 100:+5.1f}%", flush=True)
    worst = max(abs(r["error"]) for r in rows)
    print(f"largest error {worst * 100:.1f}% over {len(rows)} runs")
    if args.output:
        args.output.write_text(json.dumps(
            {"steps": args.steps, "memory": profile["memory"], "runs": rows},
            indent=2) + "\n")


if __name__ == "__main__":
    main()
