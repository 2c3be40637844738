#!/usr/bin/env bash
# End to end: the Transformer language model trained under mpirun on the
# byte-level corpus every Debian machine has (/usr/share/common-licenses):
# the data, Megatron, hybrid and ZeRO-like layouts on 4 ranks give the 1-rank loss
# curve, and the loss goes down.
#
# usage: train_transformer.sh BUILD_BIN_DIR EXAMPLES_DIR
set -euo pipefail
bin=$1
examples=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_MCA_btl=self,vader OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
model=$examples/transformer/transformer.mlir
train=(--optimizer adamw --weight-decay 0.01 --clip-norm 1.0)
run_opts=(--steps 40 --lr 0.003 --seed 5 --log-every 1000)

passed=0
failed=0
result() {
  if [ "$2" -eq 0 ]; then echo "PASS: $1"; passed=$((passed + 1));
  else echo "FAIL: $1"; failed=$((failed + 1)); fi
}

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
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
