#!/usr/bin/env bash
# End to end: the pipelined layout tessel search picks trains. The GPT
# example on 2 ranks at a batch of 64 sequences of 128 under 100 MiB per
# rank, where no unpipelined layout fits (docs/search.md, "The stage
# axis"), and at a batch of 2 sequences of 1024 under 110 MiB, where no
# layout fits unless its stages recompute their forward (remat): the
# written layout has a pipeline section (with `remat: true` in the second
# case), compiles, trains 3 steps under mpirun with finite, falling
# losses, and every rank's peak resident memory stays within the budget.
#
# usage: search_stages.sh BUILD_BIN_DIR EXAMPLES_DIR
set -euo pipefail
bin=$1
examples=$2
source "$(dirname "$0")/common.sh"

model=$examples/gpt/gpt.mlir
for case in "100 no 64 128" "110 yes 2 1024"; do
  read -r budget_mib remat batch seq <<< "$case"
  sizes=(--batch "$batch" --dim-size "seq=$seq" --dim-size "key=$seq")
  "$bin/tessel" search "$model" -n 2 "${sizes[@]}" \
    --memory-per-rank "${budget_mib}M" -o "$work/best.yaml" > "$work/search.out"
  grep -q '^pipeline:' "$work/best.yaml" ||
    { echo "FAIL: the pick is not pipelined"; cat "$work/best.yaml"; exit 1; }
  "$bin/tessel" compile "$model" "${sizes[@]}" --layout "$work/best.yaml" \
    -o "$work/best.spmd"
  mpirun -n 2 --oversubscribe "$work/best.spmd" --steps 3 --seed 3 \
    --metrics "$work/metrics.jsonl" > "$work/run.out" 2>&1 ||
    { echo "FAIL: the pick does not train"; tail -20 "$work/run.out"; exit 1; }
  grep -q "pipeline: 2 stages over 'stage'" "$work/run.out" ||
    { echo "FAIL: the run is not pipelined"; cat "$work/run.out"; exit 1; }
  python3 - "$work/metrics.jsonl" "$budget_mib" <<'PY'
import json, math, sys
records = [json.loads(line) for line in open(sys.argv[1])]
losses = [r["loss"] for r in records if "loss" in r and "split" not in r]
assert len(losses) == 3 and all(math.isfinite(l) for l in losses), losses
assert losses[-1] < losses[0], losses
[summary] = [r for r in records if "peak_rss_mib" in r]
assert max(summary["peak_rss_mib"]) <= float(sys.argv[2]), summary
print(f"PASS: search's pipelined pick under {sys.argv[2]} MiB trains: "
      f"losses {losses}, peak {max(summary['peak_rss_mib'])} MiB per rank")
PY
  if [[ $remat == yes ]]; then
    grep -q '^  remat: true' "$work/best.yaml" ||
      { echo "FAIL: the pick under ${budget_mib} MiB does not recompute"; cat "$work/best.yaml"; exit 1; }
    grep -q "recomputing the forward" "$work/run.out" ||
      { echo "FAIL: the run does not recompute"; cat "$work/run.out"; exit 1; }
  elif grep -q '^  remat: true' "$work/best.yaml"; then
    echo "FAIL: the pick under ${budget_mib} MiB recomputes"; cat "$work/best.yaml"; exit 1
  fi
done
