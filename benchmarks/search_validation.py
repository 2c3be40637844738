#!/usr/bin/env python3
"""Does tessel search rank layouts the way they really run?

    benchmarks/search_validation.py --bin build/bin [--ranks 2,4]
        [--model examples/mlp/mlp.mlir] [--profile FILE] [--top 3]
        [--sample 4] [--steps 300] [--warmup 30] [-o RESULTS.json]

For each rank count: `tessel search --format json` lists every candidate it
ranked with its predicted step time; this measures the step time of the
top candidates and of an evenly spaced sample of the others (compiled with
`tessel compile`, trained under mpirun as `tessel run` starts them, the
median of --metrics step_ms after the warm-up), and of the model's
hand-written layouts (the example directory's *.yaml on that many ranks).
It reports the Spearman rank correlation between predicted and measured
times, the measured time of search's pick against the fastest measured
candidate, and against the fastest hand-written layout. Trains on
Fashion-MNIST (Debian package dataset-fashion-mnist). Run it alone on the
machine: other load changes what it measures.
"""

import argparse
import json
import math
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile

REPO = pathlib.Path(__file__).resolve().parent.parent
MPI_ENV = {
    "OMPI_MCA_btl": "self,vader",
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
}


def run(command):
    env = dict(os.environ, **MPI_ENV)
    done = subprocess.run([str(c) for c in command], capture_output=True,
                          text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, command))}\n{done.stdout}\n{done.stderr}")
    return done.stdout


def layout_yaml(candidate):
    """The layout file of a candidate of tessel search's JSON."""
    mesh = ", ".join(f"{axis}: {size}" for axis, size in candidate["mesh"].items())
    lines = [f"mesh: {{{mesh}}}"]
    if candidate["layout"]:
        lines.append("layout:")
        lines += [f"  {dim}: {axis}" for dim, axis in candidate["layout"].items()]
    else:
        lines.append("layout: {}")
    if candidate["overrides"]:
        lines.append("overrides:")
        for tensor, rules in candidate["overrides"].items():
            inner = ", ".join(f"{dim}: {axis}" for dim, axis in rules.items())
            lines.append(f'  "{tensor}": {{{inner}}}')
    if candidate["pad_uneven"]:
        lines.append("pad_uneven: true")
    if "pipeline" in candidate:
        # A pipelined candidate's section, as search writes it.
        pipeline = candidate["pipeline"]
        stages = ", ".join("[" + ", ".join(stage) + "]"
                           for stage in pipeline["stages"])
        lines += ["pipeline:",
                  f"  axis: {pipeline['axis']}",
                  f"  microbatches: {pipeline['microbatches']}",
                  f"  schedule: {pipeline['schedule']}",
                  f"  batch_dim: {pipeline['batch_dim']}",
                  f"  stages: [{stages}]"]
    return "\n".join(lines) + "\n"


def describe(candidate):
    rules = [f"{dim}->{axis}" for dim, axis in candidate["layout"].items()]
    if candidate["zero"]:
        rules.append("ZeRO")
    if "pipeline" in candidate:
        pipeline = candidate["pipeline"]
        starts = "|".join(stage[0] for stage in pipeline["stages"])
        rules.append(f"stages {starts}, {pipeline['microbatches']} micro-batches")
    mesh = " x ".join(f"{a}:{s}" for a, s in candidate["mesh"].items())
    return f"{mesh} ({', '.join(rules) or 'replicated'})"


def measure(args, layout, ranks, tmp):
    """Median step_ms of `layout` (a path) on `ranks` ranks."""
    exe = tmp / "model.spmd"
    run([args.bin / "tessel", "compile", args.model, "--layout", layout,
         "--optimizer", args.optimizer, "-o", exe])
    metrics = tmp / "metrics.jsonl"
    metrics.unlink(missing_ok=True)
    run(["mpirun", "--oversubscribe", "--bind-to", "none", "-n", ranks, exe,
         "--steps", args.steps, "--no-evaluate", "--metrics", metrics,
         "--lr", "0.05"])
    lines = [json.loads(l) for l in metrics.read_text().splitlines()]
    steps = [l["step_ms"] for l in lines if "step" in l]
    return statistics.median(steps[args.warmup:])


def ranks_of(values):
    """Ranks 1..n of `values`, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return result


def spearman(xs, ys):
    rx, ry = ranks_of(xs), ranks_of(ys)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5 if vx and vy else float("nan")


def chosen(ranked, top, sample):
    """Indices of the top candidates and an evenly spaced sample of the rest."""
    picks = list(range(min(top, len(ranked))))
    rest = list(range(len(picks), len(ranked)))
    if rest and sample > 0:
        step = max(1, len(rest) / sample)
        picks += sorted({rest[min(len(rest) - 1, int(i * step))]
                         for i in range(min(sample, len(rest)))})
    return picks


def validate(args, ranks, tmp):
    search = ["search", args.model, "-n", ranks, "--top", "1000",
              "--format", "json", "--optimizer", args.optimizer]
    if args.profile:
        search += ["--profile", args.profile]
    result = json.loads(run([args.bin / "tessel", *search]))
    ranked = result["candidates"]
    rows = []
    for index in chosen(ranked, args.top, args.sample):
        candidate = ranked[index]
        layout = tmp / f"candidate{index}.yaml"
        layout.write_text(layout_yaml(candidate))
        measured = measure(args, layout, ranks, tmp)
        rows.append({"rank": index + 1, "layout": describe(candidate),
                     "predicted_ms": candidate["step_seconds"] * 1e3,
                     "measured_ms": measured})
        print(f"  {ranks} ranks #{index + 1} {describe(candidate)}: predicted "
              f"{rows[-1]['predicted_ms']:.3f} ms, measured {measured:.3f} ms",
              file=sys.stderr)
    hand = []
    for path in sorted(args.model.parent.glob("*.yaml")):
        text = path.read_text()
        sizes = [int(s) for s in text.split("mesh: {", 1)[-1].split("}", 1)[0]
                 .replace(",", " ").split() if s.isdigit()]
        if "mesh: {" in text and sizes and math.prod(sizes) == ranks:
            hand.append({"layout": path.name, "measured_ms": measure(args, path, ranks, tmp)})
            print(f"  {ranks} ranks hand-written {path.name}: measured "
                  f"{hand[-1]['measured_ms']:.3f} ms", file=sys.stderr)
    best_measured = min(r["measured_ms"] for r in rows)
    pick = rows[0]["measured_ms"]
    return {
        "ranks": ranks,
        "candidates_ranked": len(ranked),
        "search_seconds": result["seconds"],
        "measured": rows,
        "hand_written": hand,
        "spearman": spearman([r["predicted_ms"] for r in rows],
                             [r["measured_ms"] for r in rows]),
        "pick_over_best_measured": pick / best_measured,
        "pick_over_best_hand_written":
            pick / min(h["measured_ms"] for h in hand) if hand else None,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", type=pathlib.Path, default=REPO / "build/bin")
    parser.add_argument("--model", type=pathlib.Path,
                        default=REPO / "examples/mlp/mlp.mlir")
    parser.add_argument("--ranks", default="2,4")
    parser.add_argument("--profile", type=pathlib.Path)
    parser.add_argument("--optimizer", default="sgd")
    parser.add_argument("--top", type=int, default=3)
    parser.add_argument("--sample", type=int, default=4)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("-o", "--output", type=pathlib.Path)
    args = parser.parse_args()
    if not pathlib.Path("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz").exists():
        sys.exit("search_validation: Fashion-MNIST is not installed "
                 "(Debian package dataset-fashion-mnist)")
    with tempfile.TemporaryDirectory() as tmp:
        reports = [validate(args, int(r), pathlib.Path(tmp))
                   for r in args.ranks.split(",")]
    summary = {"model": str(args.model.relative_to(REPO) if args.model.is_relative_to(REPO) else args.model),
               "optimizer": args.optimizer, "steps": args.steps,
               "warmup": args.warmup,
               "profile": str(args.profile) if args.profile else "built-in default",
               "results": reports}
    for report in reports:
        hand = report["pick_over_best_hand_written"]
        print(f"{report['ranks']} ranks: Spearman {report['spearman']:.2f} over "
              f"{len(report['measured'])} layouts; pick / best measured "
              f"{report['pick_over_best_measured']:.2f}"
              + (f"; pick / best hand-written {hand:.2f}" if hand else ""))
    if args.output:
        args.output.write_text(json.dumps(summary, indent=2) + "\n")


if __name__ == "__main__":
    main()
