#!/usr/bin/env python3
"""Does tessel search rank layouts the way they really run?

    benchmarks/search_validation.py --bin build/bin [--ranks 2,4]
        [--model examples/mlp/mlp.mlir] [--profile FILE] [--top 3]
        [--sample 4] [--steps 300] [--warmup 30] [--repeats 1]
        [--batch N] [--dim-size NAME=N ...] [--pipelined] [--lr LR]
        [--baseline-bin OTHER/bin] [--target cpu|cuda] [-o RESULTS.json]
    benchmarks/search_validation.py --rescore EARLIER.json [--profile FILE]

For each rank count: `tessel search --format json` lists every candidate it
ranked with its predicted step time; this measures the step time of the
top candidates and of an evenly spaced sample of the others (compiled with
`tessel compile`, trained under mpirun as `tessel run` starts them, the
median of --metrics step_ms after the warm-up), and of the model's
hand-written layouts (the example directory's *.yaml on that many ranks).
It reports the Spearman rank correlation between predicted and measured
times, the measured time of search's pick against the fastest measured
candidate, and against the fastest hand-written layout, and how far each
measured candidate's predicted peak memory per rank is from the largest
rank's peak resident memory (the driver's `peak_rss_mib`). Trains on
Fashion-MNIST (Debian package dataset-fashion-mnist), or a language model
on the driver's text corpus. Run it alone on the machine: other load
changes what it measures.

--pipelined measures every pipelined candidate instead (the stage axis,
docs/search.md) and reports their Spearman and how far each prediction is
from its measurement (measured / predicted). --repeats runs every layout
that many times, interleaved (each round runs each layout once), and takes
the median of the runs; with more than one round it also reports the
Spearman on each layout's fastest round (noise on a shared machine only
slows a run), how well the rounds rank the layouts alike (the mean
Spearman between two rounds: what the machine's noise leaves for any
prediction to match), and of the pairs of layouts that every round
orders alike, how many search predicted in that order. --rescore
EARLIER.json measures nothing: it predicts the layouts an earlier run
measured (its -o file) with this --bin and --profile, to compare profiles
or cost models on the same measurements. --baseline-bin names another build's bin
directory: its search's predictions of the same layouts are reported
beside this one's (the same measurements judge both), to show what a
change of the cost model does.
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


def model_options(args):
    """The options that resize the model and set the step's precision, for
    search and compile alike."""
    options = ["--precision", args.precision]
    if args.batch:
        options += ["--batch", args.batch]
    for size in args.dim_size:
        options += ["--dim-size", size]
    return options


def compile_command(args, layout, exe):
    """`tessel compile` of the model under `layout` for --target's runtime."""
    return [args.bin / "tessel", "compile", args.model, "--layout", layout,
            "--optimizer", args.optimizer, *model_options(args),
            "--target", args.target, "-o", exe]


def compile_layout(args, layout, exe):
    run(compile_command(args, layout, exe))


def measure(args, exe, ranks, tmp):
    """Median step_ms of the compiled `exe` on `ranks` ranks, and the
    largest rank's peak resident memory in MiB (the driver's summary)."""
    metrics = tmp / "metrics.jsonl"
    metrics.unlink(missing_ok=True)
    run(["mpirun", "--oversubscribe", "--bind-to", "none", "-n", ranks, exe,
         "--steps", args.steps, "--no-evaluate", "--metrics", metrics,
         "--lr", args.lr])
    lines = [json.loads(l) for l in metrics.read_text().splitlines()]
    steps = [l["step_ms"] for l in lines if "step" in l]
    peaks = [max(l["peak_rss_mib"]) for l in lines if "peak_rss_mib" in l]
    return statistics.median(steps[args.warmup:]), peaks[-1] if peaks else None


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


def round_agreement(runs):
    """How well the machine agrees with itself: the mean Spearman between
    two rounds' step times of the same layouts, over every pair of rounds
    (None with one round). No prediction can rank the layouts much better
    than this."""
    rounds = list(zip(*runs))
    pairs = [spearman(a, b) for i, a in enumerate(rounds)
             for b in rounds[i + 1:]]
    return statistics.mean(pairs) if pairs else None


def separable_pairs(predicted, runs):
    """The pairs of layouts that every round orders alike (each round of
    one faster than each round of the other), and how many of them the
    prediction orders the same way."""
    agree = total = 0
    for i in range(len(runs)):
        for j in range(len(runs)):
            if max(runs[i]) < min(runs[j]):
                total += 1
                agree += predicted[i] < predicted[j]
    return {"pairs": total, "predicted_alike": agree,
            "pairs_compared": len(runs) * (len(runs) - 1) // 2}


def measure_all(args, layouts, ranks, tmp):
    """Each layout's step time: compiled once, run --repeats times
    interleaved, the median of the runs' medians; and its peak memory per
    rank, the median of the runs'."""
    exes = []
    for i, layout in enumerate(layouts):
        exe = tmp / f"layout{i}.spmd"
        compile_layout(args, layout, exe)
        exes.append(exe)
    runs = [[] for _ in layouts]
    peaks = [[] for _ in layouts]
    for _ in range(args.repeats):
        for i, exe in enumerate(exes):
            step_ms, peak_mib = measure(args, exe, ranks, tmp)
            runs[i].append(step_ms)
            if peak_mib is not None:
                peaks[i].append(peak_mib)
    return ([statistics.median(r) for r in runs], runs,
            [statistics.median(p) if p else None for p in peaks])


def memory_error(rows):
    """How far the predicted peak memory per rank is from the measured:
    (predicted - measured) / measured for each row that has both, their
    median, the largest in size, and how many are within 10%."""
    errors = [(r["predicted_memory_mib"] - r["measured_memory_mib"])
              / r["measured_memory_mib"]
              for r in rows if r.get("predicted_memory_mib")
              and r.get("measured_memory_mib")]
    if not errors:
        return None
    return {"median": statistics.median(errors),
            "largest": max(errors, key=abs),
            "within_10_percent": sum(abs(e) <= 0.10 for e in errors),
            "rows": len(errors)}


def memory_text(memory):
    """One line on memory_error's figures."""
    return (f"  peak memory per rank: predicted - measured "
            f"{memory['median']:+.1%} (median; largest "
            f"{memory['largest']:+.1%}), {memory['within_10_percent']} "
            f"of {memory['rows']} within 10%")


def candidate_key(candidate):
    """What makes a candidate the layout it is (its predictions aside)."""
    pipeline = candidate.get("pipeline")
    return json.dumps([candidate["mesh"], candidate["layout"],
                       candidate["overrides"], candidate["pad_uneven"],
                       pipeline and [pipeline["microbatches"],
                                     pipeline["stages"]]], sort_keys=True)


def search_candidates(args, bin_dir, ranks):
    search = ["search", args.model, "-n", ranks, "--top", "1000",
              "--format", "json", "--optimizer", args.optimizer,
              *model_options(args)]
    if args.profile:
        search += ["--profile", args.profile]
    return json.loads(run([bin_dir / "tessel", *search]))


def prediction_error(rows, key):
    """measured / predicted: the median and the range over `rows`."""
    ratios = [r["measured_ms"] / r[key] for r in rows if r.get(key)]
    if not ratios:
        return None
    return {"median": statistics.median(ratios), "min": min(ratios),
            "max": max(ratios)}


def error_text(error):
    """A prediction_error as the reports print it."""
    return (f"measured / predicted {error['median']:.2f} "
            f"({error['min']:.2f} to {error['max']:.2f})")


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
    result = search_candidates(args, args.bin, ranks)
    ranked = result["candidates"]
    baseline = {}
    if args.baseline_bin:
        for candidate in search_candidates(args, args.baseline_bin,
                                           ranks)["candidates"]:
            baseline[candidate_key(candidate)] = candidate["step_seconds"] * 1e3
    if args.pipelined:
        indices = [i for i, c in enumerate(ranked) if "pipeline" in c]
    else:
        indices = chosen(ranked, args.top, args.sample)
    layouts = []
    for index in indices:
        layout = tmp / f"candidate{index}.yaml"
        layout.write_text(layout_yaml(ranked[index]))
        layouts.append(layout)
    hand_paths = []
    if not args.pipelined:
        for path in sorted(args.model.parent.glob("*.yaml")):
            text = path.read_text()
            sizes = [int(s) for s in text.split("mesh: {", 1)[-1].split("}", 1)[0]
                     .replace(",", " ").split() if s.isdigit()]
            if "mesh: {" in text and sizes and math.prod(sizes) == ranks:
                hand_paths.append(path)
    measured, runs, peaks = measure_all(args, layouts + hand_paths, ranks,
                                        tmp)
    rows = []
    for n, index in enumerate(indices):
        candidate = ranked[index]
        row = {"rank": index + 1, "layout": describe(candidate),
               "predicted_ms": candidate["step_seconds"] * 1e3,
               "measured_ms": measured[n], "runs_ms": runs[n],
               "predicted_memory_mib":
                   candidate["memory_bytes_per_rank"] / 2**20,
               "measured_memory_mib": peaks[n]}
        if args.baseline_bin:
            row["baseline_predicted_ms"] = baseline.get(candidate_key(candidate))
        rows.append(row)
        print(f"  {ranks} ranks #{index + 1} {describe(candidate)}: predicted "
              f"{row['predicted_ms']:.3f} ms"
              + (f" (baseline {row['baseline_predicted_ms']:.3f})"
                 if row.get("baseline_predicted_ms") else "")
              + f", measured {row['measured_ms']:.3f} ms; peak memory "
              f"predicted {row['predicted_memory_mib']:.1f} MiB, measured "
              + (f"{peaks[n]:.1f} MiB" if peaks[n] else "-"),
              file=sys.stderr)
    hand = []
    for n, path in enumerate(hand_paths, start=len(layouts)):
        hand.append({"layout": path.name, "measured_ms": measured[n],
                     "runs_ms": runs[n]})
        print(f"  {ranks} ranks hand-written {path.name}: measured "
              f"{measured[n]:.3f} ms", file=sys.stderr)
    best_measured = min(r["measured_ms"] for r in rows)
    pick = rows[0]["measured_ms"]
    predicted = [r["predicted_ms"] for r in rows]
    candidate_runs = [r["runs_ms"] for r in rows]
    report = {
        "ranks": ranks,
        "candidates_ranked": len(ranked),
        "search_seconds": result["seconds"],
        "measured": rows,
        "hand_written": hand,
        "spearman": spearman([r["predicted_ms"] for r in rows],
                             [r["measured_ms"] for r in rows]),
        "spearman_fastest_round": spearman(
            predicted, [min(r) for r in candidate_runs]),
        "round_agreement": round_agreement(candidate_runs),
        "separable_pairs": separable_pairs(predicted, candidate_runs),
        "measured_over_predicted": prediction_error(rows, "predicted_ms"),
        "memory_error": memory_error(rows),
        "pick_over_best_measured": pick / best_measured,
        "pick_over_best_hand_written":
            pick / min(h["measured_ms"] for h in hand) if hand else None,
    }
    if args.baseline_bin:
        paired = [r for r in rows if r.get("baseline_predicted_ms")]
        report["baseline_spearman"] = spearman(
            [r["baseline_predicted_ms"] for r in paired],
            [r["measured_ms"] for r in paired])
        report["baseline_measured_over_predicted"] = prediction_error(
            paired, "baseline_predicted_ms")
    return report


def rescore(args):
    """Predicts the layouts an earlier run measured (its -o file) with this
    run's --bin and --profile, and reports how that ranks them."""
    earlier = json.loads(args.rescore.read_text())
    model = args.model if args.model_given else pathlib.Path(earlier["model"])
    if not model.is_absolute():
        model = REPO / model
    args.model, args.optimizer = model, earlier["optimizer"]
    args.precision = earlier.get("precision", "f32")
    args.batch, args.dim_size = earlier.get("batch"), earlier.get("dim_sizes") or []
    for report in earlier["results"]:
        ranked = search_candidates(args, args.bin, report["ranks"])["candidates"]
        predicted = {describe(c): c["step_seconds"] * 1e3 for c in ranked}
        predicted_memory = {describe(c): c["memory_bytes_per_rank"] / 2**20
                            for c in ranked}
        rows = [r for r in report["measured"] if r["layout"] in predicted]
        times = [predicted[r["layout"]] for r in rows]
        measured = [r["measured_ms"] for r in rows]
        pick = describe(ranked[0])
        pick_ms = next((r["measured_ms"] for r in report["measured"]
                        if r["layout"] == pick), None)
        pairs = separable_pairs(times, [r["runs_ms"] for r in rows])
        error = prediction_error(
            [dict(r, rescored_ms=predicted[r["layout"]]) for r in rows],
            "rescored_ms")
        print(f"{report['ranks']} ranks: {len(rows)} of "
              f"{len(report['measured'])} measured layouts predicted; "
              f"Spearman {spearman(times, measured):.2f} (the run's own "
              f"{report['spearman']:.2f}); {error_text(error)}; pick {pick}: "
              + (f"{pick_ms / min(measured):.2f} of the best measured"
                 if pick_ms else "not measured in that run")
              + f"; {pairs['predicted_alike']} of the {pairs['pairs']} pairs "
              "every round ordered alike predicted in that order")
        memory = memory_error(
            [dict(r, predicted_memory_mib=predicted_memory[r["layout"]])
             for r in rows])
        if memory:
            print(memory_text(memory))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", type=pathlib.Path, default=REPO / "build/bin")
    parser.add_argument("--model", type=pathlib.Path)
    parser.add_argument("--ranks", default="2,4")
    parser.add_argument("--profile", type=pathlib.Path)
    parser.add_argument("--target", choices=("cpu", "cuda"), default="cpu",
                        help="the runtime the layouts are compiled for and "
                             "measured on: cuda with a profile of "
                             "`tessel calibrate --target cuda`")
    parser.add_argument("--optimizer", default="sgd")
    parser.add_argument("--precision", choices=("f32", "bf16", "f16"), default="f32",
                        help="the step's precision, as for search and compile")
    parser.add_argument("--lr", type=float,
                        help="the learning rate the layouts train at: by "
                             "default 0.05 for SGD and momentum, 3e-4 for "
                             "Adam and AdamW, at which their losses fall")
    parser.add_argument("--top", type=int, default=3)
    parser.add_argument("--sample", type=int, default=4)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--batch", type=int)
    parser.add_argument("--dim-size", action="append", default=[])
    parser.add_argument("--pipelined", action="store_true")
    parser.add_argument("--baseline-bin", type=pathlib.Path)
    parser.add_argument("--rescore", type=pathlib.Path)
    parser.add_argument("-o", "--output", type=pathlib.Path)
    args = parser.parse_args()
    args.model_given = args.model is not None
    if not args.model_given:
        args.model = REPO / "examples/mlp/mlp.mlir"
    if args.rescore:
        rescore(args)
        return
    if args.lr is None:
        args.lr = 3e-4 if args.optimizer in ("adam", "adamw") else 0.05
    if not pathlib.Path("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz").exists():
        sys.exit("search_validation: Fashion-MNIST is not installed "
                 "(Debian package dataset-fashion-mnist)")
    with tempfile.TemporaryDirectory() as tmp:
        reports = [validate(args, int(r), pathlib.Path(tmp))
                   for r in args.ranks.split(",")]
    summary = {"model": str(args.model.relative_to(REPO) if args.model.is_relative_to(REPO) else args.model),
               "optimizer": args.optimizer, "precision": args.precision,
               "steps": args.steps,
               "warmup": args.warmup, "repeats": args.repeats,
               "batch": args.batch, "dim_sizes": args.dim_size,
               "pipelined_only": args.pipelined,
               "profile": str(args.profile) if args.profile else "built-in default",
               "target": args.target,
               "results": reports}
    for report in reports:
        hand = report["pick_over_best_hand_written"]
        print(f"{report['ranks']} ranks: Spearman {report['spearman']:.2f} over "
              f"{len(report['measured'])} layouts; "
              f"{error_text(report['measured_over_predicted'])}; "
              f"pick / best measured {report['pick_over_best_measured']:.2f}"
              + (f"; pick / best hand-written {hand:.2f}" if hand else ""))
        memory = report.get("memory_error")
        if memory:
            print(memory_text(memory))
        if report["round_agreement"] is not None:
            pairs = report["separable_pairs"]
            print(f"  rounds: Spearman on each layout's fastest round "
                  f"{report['spearman_fastest_round']:.2f}; the rounds agree "
                  f"with each other at {report['round_agreement']:.2f}; "
                  f"{pairs['pairs']} of {pairs['pairs_compared']} pairs "
                  f"ordered alike by every round, {pairs['predicted_alike']} "
                  f"of them predicted in that order")
        if "baseline_spearman" in report:
            print(f"  baseline: Spearman {report['baseline_spearman']:.2f}; "
                  f"{error_text(report['baseline_measured_over_predicted'])}")
    if args.output:
        args.output.write_text(json.dumps(summary, indent=2) + "\n")


if __name__ == "__main__":
    main()
