#!/usr/bin/env bash
# The model-parallel TensorFlow case study with tessel: two convolutions
# with max pooling and N fully connected layers of width 1024 (N = 20, 40,
# 60: about 20, 41 and 62 million parameters), batch 1000, trained on
# Fashion-MNIST on 2, 3 and 4 ranks, with the `hidden` dimension split over
# the ranks (the case study's Mesh-TensorFlow layout) and, for comparison,
# data parallel, and the case study's layer placement as pipeline stages
# (docs/pipeline.md): each rank holds consecutive whole layers, the batch in
# one piece (`stages`) or in MICROBATCHES micro-batches under 1F1B
# (`microbatches`). Reports time per training step and peak memory per rank.
#
# usage: examples/papers/run_case_study.sh   (TESSEL_BUILD_DIR, default build;
#        LAYERS="20 40 60", RANKS="2 3 4",
#        SPLITS="hidden data stages microbatches", MICROBATCHES=4, STEPS=4)
# writes examples/papers/case_study.md (the table) and case_study.svg.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$root/${TESSEL_BUILD_DIR:-build}/bin
layers_list=${LAYERS:-20 40 60}
ranks_list=${RANKS:-2 3 4}
splits=${SPLITS:-hidden data stages microbatches}
microbatches=${MICROBATCHES:-4}
steps=${STEPS:-4}
data=/usr/share/datasets/fashion-mnist
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_MCA_btl=self,vader OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

results=$work/results.jsonl
: > "$results"
for layers in $layers_list; do
  python3 "$here/case_study_model.py" --layers "$layers" > "$work/model$layers.mlir"
  for ranks in $ranks_list; do
    for split in $splits; do
      case $split in
        hidden) layout=(--mesh "model:$ranks" --rules "hid_b:model" --pad-uneven) ;;
        data) layout=(--mesh "data:$ranks" --rules "batch:data" --pad-uneven) ;;
        stages | microbatches)
          count=1
          [ "$split" = microbatches ] && count=$microbatches
          printf 'mesh: {stage: %s}\npipeline: {axis: stage, microbatches: %s, schedule: 1f1b}\n' \
            "$ranks" "$count" > "$work/$split-$ranks.yaml"
          layout=(--layout "$work/$split-$ranks.yaml") ;;
      esac
      name="$layers-$ranks-$split"
      if ! "$bin/tessel" compile "$work/model$layers.mlir" "${layout[@]}" \
          -o "$work/$name.spmd" > "$work/$name.compile" 2>&1; then
        # The first error line says why (e.g. a split that does not divide).
        reason=$(grep -m1 "error:" "$work/$name.compile" | sed 's/.*error: //')
        python3 -c 'import json,sys; print(json.dumps({"layers": int(sys.argv[1]), "ranks": int(sys.argv[2]), "split": sys.argv[3], "error": sys.argv[4]}))' \
          "$layers" "$ranks" "$split" "$reason" >> "$results"
        echo "$name: not compiled: $reason"
        continue
      fi
      mpirun -n "$ranks" --oversubscribe --bind-to none "$work/$name.spmd" \
        --steps "$steps" --data "$data" --lr 0.01 --no-evaluate --log-every 1000 \
        --metrics "$work/$name.jsonl" > "$work/$name.out" 2>&1 ||
        { cat "$work/$name.out"; exit 1; }
      python3 - "$work/$name.jsonl" "$layers" "$ranks" "$split" >> "$results" <<'PY'
import json, statistics, sys
records = [json.loads(line) for line in open(sys.argv[1])]
# The first step also builds every op's kernel: the others are the steady state.
step_ms = [r["step_ms"] for r in records if "step" in r][1:]
summary = next(r for r in records if "peak_rss_mib" in r)
print(json.dumps({"layers": int(sys.argv[2]), "ranks": int(sys.argv[3]), "split": sys.argv[4],
                  "step_s": statistics.median(step_ms) / 1000,
                  "peak_mib": max(summary["peak_rss_mib"])}))
PY
      tail -1 "$results"
    done
  done
done

# Debian's python3 has matplotlib (python3-matplotlib) for the plot.
plot_python=/usr/bin/python3
[ -x "$plot_python" ] || plot_python=python3
"$plot_python" - "$results" "$here" "$(nproc)" "$steps" <<'PY'
import datetime, json, os, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
here, cores, steps = sys.argv[2], sys.argv[3], sys.argv[4]
lines = [
    "# The model-parallel TensorFlow case study, with tessel",
    "",
    "Two convolutions with max pooling, then N fully connected layers of width",
    "1024, batch 1000, SGD, on Fashion-MNIST. `hidden`: every other layer's",
    "output dimension split over the ranks (`--mesh model:R --rules hid_b:model`,",
    "the case study's split); `data`: the batch split; `stages`: the layers",
    "placed on the ranks as pipeline stages (the case study's layer placement,",
    "docs/pipeline.md), the batch in one piece; `microbatches`: the same in",
    f"micro-batches under 1F1B. Time per training step",
    f"is the median of steps 2-{steps}; memory is the largest peak resident set of",
    f"any rank. Written by `examples/papers/run_case_study.sh` on {datetime.date.today()},",
    f"on a machine with {cores} cores (ranks beyond the core count share cores).",
    "",
    "| layers | ranks | split | s / step | peak MiB per rank |",
    "| --- | --- | --- | --- | --- |",
]
for r in rows:
    if "error" in r:
        lines.append(f"| {r['layers']} | {r['ranks']} | {r['split']} | not compiled: {r['error']} | |")
    else:
        lines.append(f"| {r['layers']} | {r['ranks']} | {r['split']} | {r['step_s']:.2f} | {r['peak_mib']:.0f} |")
open(os.path.join(here, "case_study.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("no matplotlib (python3-matplotlib): no plot")
    sys.exit(0)
fig, (time_ax, memory_ax) = plt.subplots(1, 2, figsize=(9, 3.5))
for split in sorted({r["split"] for r in rows}):
    for ranks in sorted({r["ranks"] for r in rows}):
        ok = [r for r in rows if r["split"] == split and r["ranks"] == ranks and "error" not in r]
        if not ok:
            continue
        label = f"{split}, {ranks} ranks"
        time_ax.plot([r["layers"] for r in ok], [r["step_s"] for r in ok], marker="o", label=label)
        memory_ax.plot([r["layers"] for r in ok], [r["peak_mib"] for r in ok], marker="o", label=label)
time_ax.set_xlabel("fully connected layers")
time_ax.set_ylabel("seconds per step")
memory_ax.set_xlabel("fully connected layers")
memory_ax.set_ylabel("peak MiB per rank")
time_ax.legend(fontsize=7)
fig.tight_layout()
fig.savefig(os.path.join(here, "case_study.svg"))
print("wrote", os.path.join(here, "case_study.svg"))
PY
