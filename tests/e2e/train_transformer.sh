#!/usr/bin/env bash
# End to end: the Transformer language model trained under mpirun on the
# byte-level corpus every Debian machine has (/usr/share/common-licenses):
# the data, Megatron, hybrid and ZeRO-like layouts on 4 ranks give the 1-rank loss
# curve, and so do two layouts on 8 ranks (hybrid data:2 x model:4 with the
# vocabulary split, and ZeRO-like over data:8 at a batch of 8); the loss goes
# down; the program compiled without element-wise fusion gives the same
# curve, and so does the data layout with fused ops merged
# (--merge-fused-outputs, whose several-result ops the collectives are
# scheduled around).
#
# usage: train_transformer.sh BUILD_BIN_DIR EXAMPLES_DIR
set -euo pipefail
bin=$1
examples=$2
source "$(dirname "$0")/common.sh"
model=$examples/transformer/transformer.mlir
train=(--optimizer adamw --weight-decay 0.01 --clip-norm 1.0)
run_opts=(--steps 40 --lr 0.003 --seed 5 --log-every 1000)

"$bin/tessel" compile "$model" "${train[@]}" -o "$work/reference.spmd"
"$work/reference.spmd" --metrics "$work/reference.jsonl" "${run_opts[@]}" | tee "$work/reference.out"
status=0
python3 - "$work/reference.jsonl" <<'PY' || status=1
import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
losses = [r["loss"] for r in records if "step" in r]
first, last = sum(losses[:5]) / 5, sum(losses[-5:]) / 5
print(f"mean loss of the first 5 steps {first:.4f}, of the last 5 {last:.4f}")
sys.exit(0 if last < 0.8 * first else 1)
PY
result "the loss goes down on one rank" $status

# Fusion (tessel-fuse-elementwise, on by default) computes in f32 what the
# separate ops compute, a few ulp apart: the unfused program gives the
# same loss curve.
status=0
"$bin/tessel" compile "$model" "${train[@]}" --no-fusion -o "$work/unfused.spmd" &&
  "$work/unfused.spmd" --metrics "$work/unfused.jsonl" "${run_opts[@]}" > "$work/unfused.out" 2>&1 &&
  python3 "$here/compare_losses.py" "$work/reference.jsonl" "$work/unfused.jsonl" 1e-4 ||
  { status=1; tail -5 "$work/unfused.out"; }
result "--no-fusion on one rank: the fused program's loss curve" $status

# A fused op and the fused op after it that reads its value merged into one
# of several results (tessel-merge-fused-outputs, off by default): the same
# values, and on 4 ranks the gradients' all_reduces scheduled around the
# merged updates.
status=0
"$bin/tessel" compile "$model" --layout "$examples/transformer/data.yaml" \
  "${train[@]}" --merge-fused-outputs -o "$work/merged.spmd" &&
  mpirun -n 4 --oversubscribe "$work/merged.spmd" --metrics "$work/merged.jsonl" \
    "${run_opts[@]}" > "$work/merged.out" 2>&1 &&
  python3 "$here/compare_losses.py" "$work/reference.jsonl" "$work/merged.jsonl" 1e-4 ||
  { status=1; tail -5 "$work/merged.out"; }
result "--merge-fused-outputs, data.yaml on 4 ranks: the 1-rank loss curve" $status

for layout in data model hybrid zero; do
  status=0
  "$bin/tessel" compile "$model" --layout "$examples/transformer/$layout.yaml" \
    "${train[@]}" -o "$work/$layout.spmd" &&
    mpirun -n 4 --oversubscribe "$work/$layout.spmd" --metrics "$work/$layout.jsonl" \
      "${run_opts[@]}" > "$work/$layout.out" 2>&1 &&
    python3 "$here/compare_losses.py" "$work/reference.jsonl" "$work/$layout.jsonl" 1e-4 ||
    { status=1; tail -5 "$work/$layout.out"; }
  result "$layout.yaml on 4 ranks: the 1-rank loss curve" $status
done

# Eight ranks. Megatron over model:4 (heads, d_ff and the output
# projection's vocabulary, as in model.yaml) times data parallelism over 2.
cat > "$work/hybrid8.yaml" <<'YAML'
mesh: {data: 2, model: 4}
layout:
  batch: data
  heads: model
  d_ff: model
overrides:
  unembed: {vocab: model}
  logits: {vocab: model}
YAML
# ZeRO-like over data:8: zero.yaml's parameter splits on 8 ranks, at a batch
# of 8 so that the batch divides; its reference is the 1-rank run at batch 8.
sed 's/^mesh: {data: 4}$/mesh: {data: 8}/' "$examples/transformer/zero.yaml" > "$work/zero8.yaml"
grep -q '^mesh: {data: 8}$' "$work/zero8.yaml"
"$bin/tessel" compile "$model" --batch 8 "${train[@]}" -o "$work/reference8.spmd"
"$work/reference8.spmd" --metrics "$work/reference8.jsonl" "${run_opts[@]}" > "$work/reference8.out"
for entry in "hybrid8|reference|" "zero8|reference8|--batch=8"; do
  IFS='|' read -r layout reference resize <<< "$entry"
  status=0
  "$bin/tessel" compile "$model" --layout "$work/$layout.yaml" ${resize:+"$resize"} \
    "${train[@]}" -o "$work/$layout.spmd" &&
    mpirun -n 8 --oversubscribe "$work/$layout.spmd" --metrics "$work/$layout.jsonl" \
      "${run_opts[@]}" > "$work/$layout.out" 2>&1 &&
    grep -q "on 8 ranks" "$work/$layout.out" &&
    python3 "$here/compare_losses.py" "$work/$reference.jsonl" "$work/$layout.jsonl" 1e-4 ||
    { status=1; tail -5 "$work/$layout.out"; }
  result "$layout on 8 ranks: the 1-rank loss curve" $status
done
finish
