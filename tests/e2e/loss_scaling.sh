#!/usr/bin/env bash
# Dynamic loss scaling (docs/training.md, "Mixed precision").
#
# 1. A loss too small for f16's gradients (models/tiny_loss.mlir): in f16
#    without loss scaling every gradient is 0 and the loss never moves;
#    with it (the default for --precision f16) the gradient norms follow
#    the f32 run's to 1%, and the metrics report the scale.
# 2. Initial scales of 131072 and 65536 overflow f16 (its largest value is
#    65504): those steps are skipped, not fatal, and the scale halves; it
#    then stays at 32768, the largest scale finite in f16, however many
#    finite steps follow. The skipped steps are counted in the summary.
#    From 8192, --loss-scale-growth-interval 2 finite steps double it, up
#    to 32768.
# 3. The scale and its count survive a checkpoint: a growing run stopped
#    after step 3 (its count at 1) and resumed gives the uninterrupted
#    run's steps 4 to 8. A checkpoint with the scale does not resume a
#    program without, nor the other way round: the error says to compile
#    with --loss-scale as the checkpoint's program was.
# 4. On 2 ranks (batch split over data, and w's contraction split over
#    model) the scales, skipped steps and gradient norms are the 1-rank
#    run's.
# 6. The same two runs pipelined over two stages give one rank's scales,
#    skipped steps and losses, and stop at the same step.
# 5. With loss scaling on an f32 step whose gradients are NaN
#    (models/sqrt_of_data.mlir), those steps are dropped as
#    --skip-nonfinite drops them and the scale halves at each; a scale that
#    falls below 2^-24 stops training, naming the step.
#
# usage: loss_scaling.sh BUILD_BIN_DIR
set -euo pipefail
bin=$1
source "$(dirname "$0")/common.sh"

# x.npy: 8 examples of 2 values in [0.5, 2]; nan/x.npy has a 0 in example 5.
python3 - "$work" <<'PY'
import array, os, sys
def write(directory, values):
    os.makedirs(directory)
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (8, 2), }"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(os.path.join(directory, "x.npy"), "wb") as out:
        out.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little"))
        out.write(header.encode())
        out.write(array.array("f", values).tobytes())
values = [0.5 + 0.25 * (i % 7) for i in range(16)]
write(os.path.join(sys.argv[1], "data"), values)
values[10] = 0.0
write(os.path.join(sys.argv[1], "nan"), values)
PY

# A check written in Python (on stdin) over the files given.
check() { python3 - "$@"; }

tiny=$here/models/tiny_loss.mlir
# The loss is 2^-24 times an ordinary one: a learning rate of 2^24 times
# 0.05 trains it.
opts=(--lr 838860.8 --seed 3 --no-evaluate --log-every 100 --data "$work/data")

# 1. Gradients that underflow f16 without scaling.
"$bin/tessel" compile "$tiny" -o "$work/f32.spmd"
"$bin/tessel" compile "$tiny" --precision f16 -o "$work/f16.spmd"
"$bin/tessel" compile "$tiny" --precision f16 --loss-scale off -o "$work/f16-unscaled.spmd"
for run in f32 f16 f16-unscaled; do
  "$work/$run.spmd" "${opts[@]}" --steps 8 --metrics "$work/$run.jsonl" > "$work/$run.out" 2>&1 ||
    { tail -5 "$work/$run.out"; exit 1; }
done
status=0
check "$work/f32.jsonl" "$work/f16.jsonl" "$work/f16-unscaled.jsonl" <<'PY' || status=1
import json, sys
def steps(path):
    return [json.loads(l) for l in open(path) if '"step"' in l]
f32, scaled, unscaled = (steps(p) for p in sys.argv[1:])
problems = []
if any(s["gradient_norm"] != 0 for s in unscaled):
    problems.append("f16 without scaling: a gradient survived")
for a, b in zip(f32, scaled):
    if abs(a["gradient_norm"] - b["gradient_norm"]) > 0.01 * a["gradient_norm"]:
        problems.append(f"step {a['step']}: gradient norm {b['gradient_norm']} in f16, {a['gradient_norm']} in f32")
    if b.get("loss_scale") != 32768 or b.get("skipped"):
        problems.append(f"step {b['step']}: loss scale {b.get('loss_scale')}, skipped {b.get('skipped')}")
if not f32[-1]["gradient_norm"] < 0.2 * f32[0]["gradient_norm"]:
    problems.append("f32 did not train")
if len(scaled) != 8 or any("loss_scale" in s for s in f32 + unscaled):
    problems.append("loss_scale reported where it should not be")
print(f"gradient norms: f32 {f32[0]['gradient_norm']:.4g} -> {f32[-1]['gradient_norm']:.4g}, "
      f"f16 scaled {scaled[0]['gradient_norm']:.4g} -> {scaled[-1]['gradient_norm']:.4g}, unscaled 0")
for problem in problems:
    print("  " + problem)
sys.exit(1 if problems else 0)
PY
result "f16: gradients lost without loss scaling, the f32 run's with it" $status

# 2. Overflow, halving and growth, up to f16's largest scale.
"$bin/tessel" compile "$tiny" --precision f16 --loss-scale 131072 \
  --loss-scale-growth-interval 2 -o "$work/overflow.spmd"
"$bin/tessel" compile "$tiny" --precision f16 --loss-scale 8192 \
  --loss-scale-growth-interval 2 -o "$work/growth.spmd"
status=0
"$work/overflow.spmd" "${opts[@]}" --steps 6 --metrics "$work/overflow.jsonl" \
  > "$work/overflow.out" 2>&1 || { status=1; tail -5 "$work/overflow.out"; }
"$work/growth.spmd" "${opts[@]}" --steps 8 --metrics "$work/growth.jsonl" \
  > "$work/growth.out" 2>&1 || { status=1; tail -5 "$work/growth.out"; }
check "$work/overflow.jsonl" "$work/growth.jsonl" <<'PY' || status=1
import json, math, sys
problems = []
for path, expected_scales, expected_skipped in (
        (sys.argv[1], [131072, 65536, 32768, 32768, 32768, 32768], [1, 2]),
        (sys.argv[2], [8192, 8192, 16384, 16384, 32768, 32768, 32768, 32768], [])):
    lines = [json.loads(l) for l in open(path)]
    steps = [l for l in lines if "step" in l]
    scales = [s["loss_scale"] for s in steps]
    skipped = [s["step"] for s in steps if s.get("skipped")]
    summary = [l for l in lines if "trained_steps" in l][0]
    if scales != expected_scales:
        problems.append(f"scales {scales}, not {expected_scales}")
    if skipped != expected_skipped:
        problems.append(f"skipped steps {skipped}, not {expected_skipped}")
    if summary.get("skipped_steps", 0) != len(expected_skipped):
        problems.append(f"summary {summary}")
    for s in steps:
        if not s.get("skipped") and not (s["gradient_norm"] and math.isfinite(s["gradient_norm"])):
            problems.append(f"step {s['step']}: gradient norm {s['gradient_norm']}")
    print(f"scales {scales}, skipped {skipped}")
for problem in problems:
    print("  " + problem)
sys.exit(1 if problems else 0)
PY
grep -qF "tessel: step 2: the gradient norm is nan at loss scale 65536; step skipped, loss scale now 32768" \
  "$work/overflow.out" || { status=1; grep "step" "$work/overflow.out" | head -3; }
result "an overflowing step is skipped and halves the scale; 2 finite steps double it, up to 32768" $status

# Same steps, same metrics (but for the time each took).
same_steps() { # reference, other, first step, tolerance
  check "$@" <<'PY'
import json, sys
def steps(path):
    return {s["step"]: s for s in (json.loads(l) for l in open(path)) if "step" in s}
reference, other = steps(sys.argv[1]), steps(sys.argv[2])
first, tolerance = int(sys.argv[3]), float(sys.argv[4])
problems = []
for step in sorted(reference):
    if step < first:
        continue
    a, b = reference[step], other.get(step)
    if b is None:
        problems.append(f"no step {step}")
        continue
    for key in ("loss_scale", "skipped"):
        if a.get(key) != b.get(key):
            problems.append(f"step {step}: {key} {b.get(key)}, not {a.get(key)}")
    for key in ("gradient_norm", "loss"):
        x, y = a.get(key), b.get(key)
        if (x is None) != (y is None) or (x is not None and abs(x - y) > tolerance * max(abs(x), 1e-30)):
            problems.append(f"step {step}: {key} {y}, not {x}")
for problem in problems:
    print("  " + problem)
sys.exit(1 if problems else 0)
PY
}

# 3. Checkpoint and resume.
status=0
"$work/growth.spmd" "${opts[@]}" --steps 3 --checkpoint-dir "$work/ckpt" \
  --metrics "$work/resumed.jsonl" > "$work/first.out" 2>&1 &&
  "$work/growth.spmd" "${opts[@]}" --steps 8 --checkpoint-dir "$work/ckpt" --resume \
    --metrics "$work/resumed.jsonl" > "$work/resumed.out" 2>&1 ||
  { status=1; tail -5 "$work/first.out" "$work/resumed.out"; }
same_steps "$work/growth.jsonl" "$work/resumed.jsonl" 4 0 || status=1
result "the scale and its count survive --resume" $status

# A checkpoint written with loss scaling and a program without, or the
# other way round: an error naming the checkpoint, the tensor and
# --loss-scale.
status=0
"$work/f16-unscaled.spmd" "${opts[@]}" --steps 1 --checkpoint-dir "$work/unscaled-ckpt" \
  > "$work/unscaled-ckpt.out" 2>&1 || { status=1; tail -5 "$work/unscaled-ckpt.out"; }
for resume in "f16 unscaled-ckpt/step-00000001 2" "f16-unscaled ckpt/step-00000008 9"; do
  read -r program checkpoint steps <<< "$resume"
  code=0
  "$work/$program.spmd" "${opts[@]}" --steps "$steps" --checkpoint-dir "$work/${checkpoint%/*}" \
    --resume > "$work/mismatch.out" 2>&1 || code=$?
  if [ "$program" = f16 ]; then
    expected="checkpoint $work/$checkpoint: it has no tensor 'loss_scale', which the program needs: the program scales its loss and the checkpoint's does not; compile with --loss-scale as the checkpoint's program was"
  else
    expected="checkpoint $work/$checkpoint: it has tensor 'loss_scale', which the program does not have: the checkpoint's program scales its loss and this one does not; compile with --loss-scale as the checkpoint's program was"
  fi
  [ "$code" -eq 1 ] && grep -qF "$expected" "$work/mismatch.out" ||
    { status=1; echo "$program from $checkpoint: exit status $code"; tail -3 "$work/mismatch.out"; }
done
result "resuming across --loss-scale names the checkpoint, the tensor and the option" $status

# 4. Two ranks.
for rules in "batch:data" "k:model"; do
  status=0
  axis=${rules#*:}
  "$bin/tessel" compile "$tiny" --precision f16 --loss-scale 131072 \
    --loss-scale-growth-interval 2 --mesh "$axis:2" --rules "$rules" -o "$work/two.spmd" &&
    timeout 120 mpirun -n 2 --oversubscribe --bind-to none "$work/two.spmd" "${opts[@]}" \
      --steps 6 --metrics "$work/two.jsonl" > "$work/two.out" 2>&1 ||
    { status=1; tail -5 "$work/two.out"; }
  same_steps "$work/overflow.jsonl" "$work/two.jsonl" 1 0.01 || status=1
  result "2 ranks ($rules): the 1-rank scales, skips and gradient norms" $status
done

# 5. Non-finite gradients in f32 with scaling on, and the scale's floor.
nan_model=$here/models/sqrt_of_data.mlir
nan_opts=(--steps 12 --lr 0.01 --seed 3 --no-evaluate --log-every 100 --data "$work/nan")
"$bin/tessel" compile "$nan_model" -o "$work/nan.spmd"
"$bin/tessel" compile "$nan_model" --loss-scale 1 -o "$work/nan-scaled.spmd"
"$bin/tessel" compile "$nan_model" --loss-scale 2.384185791015625e-07 -o "$work/nan-floor.spmd"
status=0
"$work/nan.spmd" "${nan_opts[@]}" --skip-nonfinite --metrics "$work/nan.jsonl" > "$work/nan.out" 2>&1 &&
  "$work/nan-scaled.spmd" "${nan_opts[@]}" --metrics "$work/nan-scaled.jsonl" > "$work/nan-scaled.out" 2>&1 ||
  { status=1; tail -5 "$work/nan.out" "$work/nan-scaled.out"; }
check "$work/nan.jsonl" "$work/nan-scaled.jsonl" <<'PY' || status=1
import json, sys
def steps(path):
    return [json.loads(l) for l in open(path) if '"step"' in l]
dropped, scaled = steps(sys.argv[1]), steps(sys.argv[2])
problems = []
scale = 1.0
for a, b in zip(dropped, scaled):
    if a["loss"] != b["loss"] or a.get("skipped") != b.get("skipped"):
        problems.append(f"step {a['step']}: loss {b['loss']} skipped {b.get('skipped')}, "
                        f"not {a['loss']} {a.get('skipped')}")
    if b["loss_scale"] != scale:
        problems.append(f"step {b['step']}: scale {b['loss_scale']}, not {scale}")
    if b.get("skipped"):
        scale /= 2
skips = sum(1 for b in scaled if b.get("skipped"))
if len(scaled) != 12 or not 0 < skips < 12:
    problems.append(f"{len(scaled)} steps, {skips} skipped")
print(f"{skips} of 12 steps skipped, scale 1 -> {scale:g}")
for problem in problems:
    print("  " + problem)
open(sys.argv[1] + ".third", "w").write(str([b["step"] for b in scaled if b.get("skipped")][2]))
sys.exit(1 if problems else 0)
PY
result "f32 with scaling: NaN-gradient steps dropped as --skip-nonfinite drops them, the scale halving" $status

# From 2^-22, the third skipped step halves the scale to 2^-25, below
# 2^-24.
status=0
third=$(cat "$work/nan.jsonl.third" 2>/dev/null || echo 0)
code=0
"$work/nan-floor.spmd" "${nan_opts[@]}" > "$work/floor.out" 2>&1 || code=$?
[ "$code" -eq 1 ] || { echo "exit status $code, not 1"; status=1; }
grep -qF "error: step $third: the loss scale fell to 2.98023e-08, below 2^-24" "$work/floor.out" ||
  { status=1; tail -3 "$work/floor.out"; }
result "a scale below 2^-24 stops training at step $third" $status

# 6. Pipelined (stage:2: sqrt_of_data.mlir's two layers, its NaN in the
#    second stage's gradients alone): each stage keeps the scale, and the
#    norm over both stages makes them halve it at the same steps, which
#    are one rank's, with one rank's losses; from 2^-22 the job stops at
#    the same step, naming the scale.
cat > "$work/stages.yaml" <<'YAML'
mesh: {stage: 2}
layout: {}
pipeline: {axis: stage, microbatches: 2, stages: [[scale], [root]]}
YAML
"$bin/tessel" compile "$nan_model" --loss-scale 1 --layout "$work/stages.yaml" \
  -o "$work/nan-scaled-stages.spmd"
"$bin/tessel" compile "$nan_model" --loss-scale 2.384185791015625e-07 \
  --layout "$work/stages.yaml" -o "$work/nan-floor-stages.spmd"
pipelined=(timeout 60 mpirun -n 2 --oversubscribe --bind-to none)
status=0
"${pipelined[@]}" "$work/nan-scaled-stages.spmd" "${nan_opts[@]}" \
  --metrics "$work/nan-scaled-stages.jsonl" > "$work/nan-scaled-stages.out" 2>&1 ||
  { status=1; tail -5 "$work/nan-scaled-stages.out"; }
check "$work/nan-scaled.jsonl" "$work/nan-scaled-stages.jsonl" <<'PY' || status=1
import json, sys
def steps(path):
    return [json.loads(l) for l in open(path) if '"step"' in l]
one, staged = steps(sys.argv[1]), steps(sys.argv[2])
problems = [f"{len(staged)} steps, not {len(one)}"] if len(staged) != len(one) else []
for a, b in zip(one, staged):
    if (a["loss_scale"], a.get("skipped")) != (b["loss_scale"], b.get("skipped")) or \
            abs(a["loss"] - b["loss"]) > 1e-5 * abs(a["loss"]):
        problems.append(f"step {a['step']}: scale {b['loss_scale']} skipped {b.get('skipped')} "
                        f"loss {b['loss']}, one rank {a['loss_scale']} {a.get('skipped')} {a['loss']}")
print(f"pipelined: {sum(1 for b in staged if b.get('skipped'))} steps skipped, scales as one rank's")
for problem in problems:
    print("  " + problem)
sys.exit(1 if problems else 0)
PY
result "stage:2 with scaling: one rank's skipped steps, scales and losses" $status
status=0
code=0
"${pipelined[@]}" "$work/nan-floor-stages.spmd" "${nan_opts[@]}" > "$work/floor-stages.out" 2>&1 ||
  code=$?
[ "$code" -eq 1 ] || { echo "exit status $code, not 1"; status=1; }
grep -qF "error: step $third: the loss scale fell to 2.98023e-08, below 2^-24" \
  "$work/floor-stages.out" || { status=1; tail -3 "$work/floor-stages.out"; }
result "stage:2: a scale below 2^-24 stops training at step $third" $status

finish loss_scaling
