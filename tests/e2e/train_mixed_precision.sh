#!/usr/bin/env bash
# End to end: the Transformer language model trained in bf16 and f16 mixed
# precision (--precision) on one rank: each narrow step runs no reference
# kernel (its element-wise chains and casts are fused and computed in f32
# registers, its matmuls, reductions and softmax run on oneDNN's bf16
# kernels or, for f16, on the f32 kernels between conversions); its loss
# curve follows the f32 one to the narrow type's precision and goes down;
# f16 scales its loss dynamically by default, bf16 does not; and the bf16
# program compiled without fusion, whose element-wise ops run one by one,
# gives the fused program's curve, as does ZeRO over 4 ranks.
#
# usage: train_mixed_precision.sh BUILD_BIN_DIR EXAMPLES_DIR
set -euo pipefail
bin=$1
examples=$2
source "$(dirname "$0")/common.sh"
model=$examples/transformer/transformer.mlir
train=(--optimizer adamw --weight-decay 0.01 --clip-norm 1.0)
run_opts=(--steps 30 --lr 0.003 --seed 5 --log-every 1000 --no-evaluate)

"$bin/tessel" compile "$model" "${train[@]}" -o "$work/f32.spmd"
"$work/f32.spmd" --metrics "$work/f32.jsonl" "${run_opts[@]}" > "$work/f32.out"

for precision in bf16 f16; do
  status=0
  "$bin/tessel" compile "$model" "${train[@]}" --precision $precision \
    -o "$work/$precision.spmd" &&
    "$work/$precision.spmd" --metrics "$work/$precision.jsonl" --profile \
      "${run_opts[@]}" > "$work/$precision.out" 2>&1 || status=1
  # The profile counts the reference kernels a step runs where the runtime
  # counts them (runtime/executor/ReferenceKernel.h).
  if grep -q "reference kernels" "$work/$precision.out"; then
    grep -q "reference kernels (slow paths): none" "$work/$precision.out" ||
      { status=1; grep -A8 "reference kernels" "$work/$precision.out"; }
  fi
  [ "$status" -eq 0 ] || tail -5 "$work/$precision.out"
  result "$precision: no reference kernel in the step" $status

  # bf16 keeps 8 bits of mantissa, f16 11: a few percent over 30 steps.
  status=0
  python3 "$here/compare_losses.py" "$work/f32.jsonl" "$work/$precision.jsonl" 0.03 ||
    status=1
  python3 - "$work/$precision.jsonl" <<'PY' || status=1
import json, sys
losses = [json.loads(l)["loss"] for l in open(sys.argv[1]) if '"step"' in l]
first, last = sum(losses[:5]) / 5, sum(losses[-5:]) / 5
print(f"mean loss of the first 5 steps {first:.4f}, of the last 5 {last:.4f}")
sys.exit(0 if last < 0.9 * first else 1)
PY
  result "$precision: the f32 loss curve to 3%, going down" $status
done

# Loss scaling is on for f16 only (docs/training.md): its steps report the
# scale, which starts at 2^15, and bf16's do not.
status=0
python3 - "$work/f16.jsonl" "$work/bf16.jsonl" <<'PY' || status=1
import json, sys
f16, bf16 = ([json.loads(l) for l in open(p) if '"step"' in l] for p in sys.argv[1:])
scales = [s.get("loss_scale") for s in f16]
print(f"f16 loss scales {sorted(set(map(str, scales)))}, {sum(1 for s in f16 if s.get('skipped'))} skipped")
sys.exit(0 if scales[0] == 32768 and None not in scales and
         not any("loss_scale" in s for s in bf16) else 1)
PY
result "f16: dynamic loss scaling by default, from 32768; bf16: none" $status

status=0
"$bin/tessel" compile "$model" "${train[@]}" --precision bf16 --no-fusion \
  -o "$work/bf16-unfused.spmd" &&
  "$work/bf16-unfused.spmd" --metrics "$work/bf16-unfused.jsonl" "${run_opts[@]}" \
    > "$work/bf16-unfused.out" 2>&1 &&
  python3 "$here/compare_losses.py" "$work/bf16.jsonl" "$work/bf16-unfused.jsonl" 0.01 ||
  { status=1; tail -5 "$work/bf16-unfused.out"; }
result "bf16 --no-fusion: the fused program's loss curve to 1%" $status

# ZeRO in bf16 on 4 ranks: each rank reduce-scatters its bf16 gradients
# (summed in f32) and squares its block of them for the clipping norm;
# the curve and the gradient norms are the one-rank bf16 program's,
# within bf16's rounding of sums taken in another order (a norm of one
# rank's blocks alone would be half the whole's).
status=0
"$bin/tessel" compile "$model" "${train[@]}" --precision bf16 \
  --layout "$examples/transformer/zero.yaml" -o "$work/bf16-zero.spmd" &&
  mpirun -n 4 --oversubscribe --bind-to none "$work/bf16-zero.spmd" \
    --metrics "$work/bf16-zero.jsonl" "${run_opts[@]}" > "$work/bf16-zero.out" 2>&1 &&
  python3 "$here/compare_losses.py" "$work/bf16.jsonl" "$work/bf16-zero.jsonl" 0.02 &&
  python3 "$here/compare_losses.py" "$work/bf16.jsonl" "$work/bf16-zero.jsonl" 0.02 \
    --field gradient_norm ||
  { status=1; tail -5 "$work/bf16-zero.out"; }
result "bf16 under ZeRO on 4 ranks: the one-rank losses and gradient norms to 2%" $status

finish
