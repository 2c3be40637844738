#!/usr/bin/env bash
# The NaN policy for gradients (issue 24): a step whose gradient norm is
# NaN or infinite while its loss is finite stops training naming the step,
# before its update reaches the weights, or with --skip-nonfinite is
# dropped. The model (models/sqrt_of_data.mlir) is the mean of x * w +
# sqrt(x * v), whose gradient is NaN for a batch holding an x of 0 while
# the loss stays finite; of its 8 examples one has a 0, so one of the two batches of each
# epoch has a NaN gradient.
#
# 1. Without --skip-nonfinite the job stops at the first such step, naming
#    it and the gradient norm, on 1 rank and on 2 (batch split over data:2,
#    both ranks stopping alike).
# 2. With --skip-nonfinite exactly the steps whose batch holds the 0 are
#    skipped (their metrics lines say so, with a null gradient norm), and
#    every other step trains: its loss and gradient norm are finite, so the
#    weights never became NaN.
# 3. The same pipelined over two stages (below).
#
# usage: nonfinite.sh BUILD_BIN_DIR
set -euo pipefail
bin=$1
source "$(dirname "$0")/common.sh"

# x.npy: 8 examples of 2 values in [0.5, 2], but example 5 has a 0.
python3 - "$work/data" <<'PY'
import array, os, sys
os.makedirs(sys.argv[1])
values = [0.5 + 0.25 * (i % 7) for i in range(16)]
values[10] = 0.0  # example 5, k = 0
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (8, 2), }"
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(os.path.join(sys.argv[1], "x.npy"), "wb") as out:
    out.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little"))
    out.write(header.encode())
    out.write(array.array("f", values).tobytes())
PY

model=$here/models/sqrt_of_data.mlir
"$bin/tessel" compile "$model" -o "$work/one.spmd"
"$bin/tessel" compile "$model" --mesh "data:2" --rules "batch:data" -o "$work/two.spmd"
opts=(--steps 12 --lr 0.01 --seed 3 --no-evaluate --log-every 1 --data "$work/data")

# 2 first: the skipping run tells which steps have a NaN gradient.
status=0
timeout 60 "$work/one.spmd" "${opts[@]}" --skip-nonfinite --metrics "$work/skip.jsonl" \
  > "$work/skip.out" 2>&1 || { status=1; tail -5 "$work/skip.out"; }
python3 - "$work/skip.jsonl" "$work/first_skipped" <<'PY' || status=1
import json, math, sys
lines = [json.loads(line) for line in open(sys.argv[1])]
steps = [line for line in lines if "step" in line and "loss" in line and "split" not in line]
skipped = [line["step"] for line in steps if line.get("skipped")]
trained = [line for line in steps if not line.get("skipped")]
summary = [line for line in lines if "trained_steps" in line]
problems = []
if len(steps) != 12:
    problems.append(f"{len(steps)} step lines, not 12")
if not skipped or len(skipped) == len(steps):
    problems.append(f"skipped steps {skipped}: expected some, not all")
for line in steps:
    if line["loss"] is None or not math.isfinite(line["loss"]):
        problems.append(f"step {line['step']}: loss {line['loss']}")
for line in steps:
    if line.get("skipped") and line.get("gradient_norm", 0) is not None:
        problems.append(f"step {line['step']} skipped with gradient norm {line.get('gradient_norm')}")
for line in trained:
    norm = line.get("gradient_norm")
    if norm is None or not math.isfinite(norm) or norm <= 0:
        problems.append(f"step {line['step']} trained with gradient norm {norm}")
# A step after a skipped one trains again: the skipped update left w finite.
if skipped and not any(line["step"] > skipped[0] for line in trained):
    problems.append("no step trained after the first skipped one")
if not summary or summary[0].get("skipped_steps") != len(skipped):
    problems.append(f"summary {summary} does not count {len(skipped)} skipped steps")
print(f"skipped steps {skipped} of 12")
for problem in problems:
    print("  " + problem)
open(sys.argv[2], "w").write(str(skipped[0]) if skipped else "0")
sys.exit(1 if problems else 0)
PY
grep -q "tessel: step $(cat "$work/first_skipped"): the gradient norm is nan; step skipped" "$work/skip.out" ||
  { status=1; grep "step skipped" "$work/skip.out" | head -3; }
result "--skip-nonfinite skips exactly the steps whose gradient norm is NaN" $status
first=$(cat "$work/first_skipped")

# 1: stopped at that step, on 1 rank and on 2.
for ranks in 1 2; do
  status=0
  program=$work/one.spmd
  launch=(timeout 60)
  if [ "$ranks" -eq 2 ]; then
    program=$work/two.spmd
    launch=(timeout 60 mpirun -n 2 --oversubscribe --bind-to none)
  fi
  code=0
  "${launch[@]}" "$program" "${opts[@]}" > "$work/stop$ranks.out" 2>&1 || code=$?
  [ "$code" -eq 1 ] || { echo "exit status $code, not 1"; status=1; }
  expected="tessel: step $first: the gradient norm is nan; stopping (the weights are those after step $((first - 1))"
  grep -qF "$expected" "$work/stop$ranks.out" || { echo "no '$expected'"; status=1; }
  ! grep -q "step $((first + 1))/12" "$work/stop$ranks.out" || { echo "trained past step $first"; status=1; }
  [ $status -eq 0 ] || tail -5 "$work/stop$ranks.out"
  result "a NaN gradient norm stops training at step $first on $ranks rank(s)" $status
done

# 3. Pipelined (stage:2, micro-batches of 2): the NaN is in the second
#    stage's gradient (v's) alone, and reaches the first stage's apply only
#    through the norm over both stages (tessel-sum-gradient-norm-over-
#    stages), so both stages drop the step together. With
#    --skip-nonfinite the steps one rank skips are skipped, and the others
#    have one rank's losses and gradient norms; without it both ranks stop
#    at that step.
cat > "$work/stages.yaml" <<'YAML'
mesh: {stage: 2}
layout: {}
pipeline: {axis: stage, microbatches: 2, stages: [[scale], [root]]}
YAML
"$bin/tessel" compile "$model" --layout "$work/stages.yaml" -o "$work/stages.spmd"
pipelined=(timeout 60 mpirun -n 2 --oversubscribe --bind-to none "$work/stages.spmd" "${opts[@]}")
status=0
"${pipelined[@]}" --skip-nonfinite --metrics "$work/stages-skip.jsonl" \
  > "$work/stages-skip.out" 2>&1 || { status=1; tail -5 "$work/stages-skip.out"; }
python3 - "$work/skip.jsonl" "$work/stages-skip.jsonl" <<'PY' || status=1
import json, sys
def steps(path):
    lines = [json.loads(line) for line in open(path)]
    return [line for line in lines if "step" in line and "loss" in line and "split" not in line]
one, staged = steps(sys.argv[1]), steps(sys.argv[2])
skipped = lambda lines: [line["step"] for line in lines if line.get("skipped")]
problems = []
if skipped(one) != skipped(staged):
    problems.append(f"skipped {skipped(staged)}, one rank {skipped(one)}")
close = lambda a, b: a is not None and b is not None and abs(a - b) <= 1e-5 * abs(b)
for a, b in zip(one, staged):
    if not a.get("skipped") and not (close(b["loss"], a["loss"]) and
                                     close(b.get("gradient_norm"), a["gradient_norm"])):
        problems.append(f"step {a['step']}: loss {b['loss']} and gradient norm "
                        f"{b.get('gradient_norm')}, one rank {a['loss']} and {a['gradient_norm']}")
print(f"pipelined: skipped steps {skipped(staged)} of {len(staged)}")
for problem in problems:
    print("  " + problem)
sys.exit(1 if problems or len(staged) != len(one) else 0)
PY
result "stage:2 --skip-nonfinite skips one rank's steps, the others with its losses and gradient norms" $status
status=0
code=0
"${pipelined[@]}" > "$work/stop-stages.out" 2>&1 || code=$?
[ "$code" -eq 1 ] || { echo "exit status $code, not 1"; status=1; }
grep -qF "tessel: step $first: the gradient norm is nan; stopping" "$work/stop-stages.out" ||
  { echo "no stop at step $first"; status=1; }
! grep -q "step $((first + 1))/12" "$work/stop-stages.out" || { echo "trained past step $first"; status=1; }
[ $status -eq 0 ] || tail -5 "$work/stop-stages.out"
result "a NaN gradient norm stops a pipelined job at step $first" $status

finish nonfinite
