#!/usr/bin/env bash
# End to end: forward-only programs (tessel compile --mode infer). The MLP is
# trained on 4 ranks (hidden split over model) with Adam and a checkpoint;
# the forward-only program, under another layout and rank count, reads it
# (ignoring the optimizer state) and
#   - evaluate gives the training run's final test accuracy, to the example;
#   - predict writes logits.npy and classes.npy that equal the 1-rank
#     program's (logits to 1e-5 of their largest magnitude, classes exactly)
#     under a hybrid and a padded layout, classes being each row's argmax;
#   - the same test arrays as .npy files give the same accuracy;
# a language model's loss function runs on a text corpus under a split
# layout with the 1-rank loss; and no checkpoint, a checkpoint without a
# parameter or with another shape, an unknown function and tensor results
# without --out are clear errors.
#
# usage: infer.sh BUILD_BIN_DIR EXAMPLES_DIR
set -euo pipefail
bin=$1
examples=$2
source "$(dirname "$0")/common.sh"
require_fashion_mnist --gz
mpi=(mpirun --oversubscribe --bind-to none)
model=$examples/mlp/mlp.mlir

# The "(N of M examples)" of a line that reports an accuracy.
accuracy_of() { grep -o 'accuracy [0-9.]*% ([0-9]* of [0-9]* examples)' "$1"; }

# Training: 4 ranks, the hidden layer split.
"$bin/tessel" compile "$model" --layout "$examples/mlp/model.yaml" --optimizer adam -o "$work/train.spmd"
"${mpi[@]}" -n 4 "$work/train.spmd" --data "$data" --steps 100 --lr 0.003 --seed 3 \
  --log-every 1000 --checkpoint-dir "$work/ckpt" | tee "$work/train.out"
trained=$(accuracy_of "$work/train.out")
echo "trained: $trained"

# Forward-only programs: 1 rank, 2 x 2 (batch and hidden split), and 3 ranks
# whose batch blocks are padded (64 = 22 + 22 + 20).
"$bin/tessel" compile "$model" --mode infer -o "$work/one.spmd"
"$bin/tessel" compile "$model" --mode infer --layout "$examples/mlp/hybrid.yaml" -o "$work/hybrid.spmd"
"$bin/tessel" compile "$model" --mode infer --mesh "data:3" --rules "batch:data" --pad-uneven -o "$work/padded.spmd"

status=0
"${mpi[@]}" -n 4 "$work/hybrid.spmd" --checkpoint "$work/ckpt" --data "$data" \
  --metrics "$work/hybrid.jsonl" > "$work/evaluate.out" 2>&1 || status=$?
cat "$work/evaluate.out"
{ [ $status -eq 0 ] && [ -n "$trained" ] && [ "$(accuracy_of "$work/evaluate.out")" = "$trained" ] &&
  grep -q '"function":"evaluate"' "$work/hybrid.jsonl" &&
  grep -q '"checkpoint_step":100' "$work/hybrid.jsonl"; } || status=1
result "evaluate on 2 x 2 ranks: the training run's test accuracy ($trained)" $status

predict() { # name, ranks, program
  "${mpi[@]}" -n "$2" "$work/$3.spmd" --checkpoint "$work/ckpt" --data "$data" \
    --function predict --out "$work/$1" > "$work/$1.out" 2>&1
}
status=0
{ predict one 1 one && predict hybrid 4 hybrid && predict padded 3 padded; } || status=$?
cat "$work/one.out"
result "predict on 1, 4 and 3 (padded) ranks" $status
for layout in hybrid padded; do
  status=0
  python3 "$here/compare_npy.py" "$work/$layout" "$work/one" logits:1e-5 classes || status=$?
  result "predict under $layout: the 1-rank logits and classes" $status
done
status=0
python3 "$here/compare_npy.py" --argmax logits classes "$work/one" || status=$?
result "classes.npy: the largest logit of each row" $status
status=0
grep -q 'wrote .*/logits.npy: 9984 rows of \[examples, classes\] f32' "$work/one.out" || status=1
result "logits.npy: a row per test example" $status

status=0
{ "$work/one.spmd" --checkpoint "$work/ckpt" --data "$data" --function predict \
    --out "$work/two" --max-batches 2 > "$work/two.out" 2>&1 &&
  grep -q 'wrote .*/classes.npy: 128 rows of \[examples\] i32' "$work/two.out"; } || status=1
result "--max-batches 2: 128 rows" $status

# The test split as .npy arrays (written without numpy).
PYTHONPATH=$here python3 - "$data" "$work/npy" <<'PY'
import gzip, os, sys
from write_npy import save
source, target = sys.argv[1], sys.argv[2]
os.makedirs(target)
scale = [b / 255 for b in range(256)]
pixels = gzip.open(f"{source}/t10k-images-idx3-ubyte.gz").read()[16:]
labels = gzip.open(f"{source}/t10k-labels-idx1-ubyte.gz").read()[8:]
save(f"{target}/images.npy", "f", "<f4", (len(labels), 784), map(scale.__getitem__, pixels))
save(f"{target}/labels.npy", "i", "<i4", (len(labels),), list(labels))
PY
status=0
{ "${mpi[@]}" -n 4 "$work/hybrid.spmd" --checkpoint "$work/ckpt" --data "$work/npy" > "$work/npy.out" 2>&1 &&
  [ "$(accuracy_of "$work/npy.out")" = "$trained" ]; } || status=1
result "evaluate on .npy arrays: the same accuracy" $status

# A language model's loss function on text: the corpus in windows, the
# loss of the 1-rank program under a split layout.
lm=$examples/transformer/transformer.mlir
"$bin/tessel" compile "$lm" --optimizer adam -o "$work/lm-train.spmd"
"$work/lm-train.spmd" --steps 5 --lr 0.003 --log-every 1000 --checkpoint-dir "$work/lm-ckpt" > /dev/null
"$bin/tessel" compile "$lm" --mode infer -o "$work/lm-one.spmd"
"$bin/tessel" compile "$lm" --mode infer --layout "$examples/transformer/hybrid.yaml" -o "$work/lm-hybrid.spmd"
status=0
{ "$work/lm-one.spmd" --checkpoint "$work/lm-ckpt" --function forward --max-batches 4 \
    --metrics "$work/lm-one.jsonl" > "$work/lm-one.out" 2>&1 &&
  "${mpi[@]}" -n 4 "$work/lm-hybrid.spmd" --checkpoint "$work/lm-ckpt" --function forward \
    --max-batches 4 --metrics "$work/lm-hybrid.jsonl" > "$work/lm-hybrid.out" 2>&1; } || status=$?
cat "$work/lm-one.out" "$work/lm-hybrid.out"
[ $status -eq 0 ] && python3 - "$work/lm-one.jsonl" "$work/lm-hybrid.jsonl" <<'PY' || status=1
import json, sys
one, split = (json.loads(open(p).read()) for p in sys.argv[1:])
print(f"loss {one['result0']} on one rank, {split['result0']} on 2 x 2")
assert one["examples"] == split["examples"] > 0
assert abs(one["result0"] - split["result0"]) <= 1e-5 * abs(one["result0"])
PY
result "a language model's loss on text on 2 x 2 ranks: the 1-rank loss" $status

# Errors, each naming what is wrong.
expect_error() { # name, pattern, command...
  local name=$1 pattern=$2
  shift 2
  if "$@" > "$work/error.out" 2>&1; then
    echo "  unexpectedly succeeded"; result "$name" 1; return
  fi
  local status=0
  grep -qF -- "$pattern" "$work/error.out" || { cat "$work/error.out"; status=1; }
  result "$name" $status
}
expect_error "no --checkpoint" "--checkpoint is required" "$work/one.spmd" --data "$data"
expect_error "a checkpoint that is not there" "no such file or directory" \
  "$work/one.spmd" --checkpoint "$work/nowhere" --data "$data"
mkdir "$work/empty"
expect_error "a directory without checkpoints" "holds no checkpoint" \
  "$work/one.spmd" --checkpoint "$work/empty" --data "$data"
# A checkpoint of a narrower model: w1 has another shape.
"$bin/tessel" compile "$model" --dim-size hidden=128 -o "$work/narrow.spmd"
"$work/narrow.spmd" --data "$data" --steps 1 --no-evaluate --checkpoint-dir "$work/narrow" > /dev/null
expect_error "a parameter of another shape" "tensor 'w1' has shape [784, 128], but the program has it as" \
  "$work/one.spmd" --checkpoint "$work/narrow" --data "$data"
# A checkpoint that lacks b1 (w1 alone, written as tessel writes them).
python3 - "$work/partial.safetensors" <<'PY'
import json, sys
data = bytes(784 * 256 * 4)
header = {"__metadata__": {"format": "tessel", "step": "1", "dims.w1": "pixels,hidden"},
          "w1": {"dtype": "F32", "shape": [784, 256], "data_offsets": [0, len(data)]}}
text = json.dumps(header).encode()
text += b" " * (-len(text) % 8)
open(sys.argv[1], "wb").write(len(text).to_bytes(8, "little") + text + data)
PY
expect_error "a checkpoint without a parameter" "it has no tensor 'b1', which the program needs" \
  "$work/one.spmd" --checkpoint "$work/partial.safetensors" --data "$data"
expect_error "an unknown function" "the program has no function 'classify' (it has forward, evaluate, predict)" \
  "$work/one.spmd" --checkpoint "$work/ckpt" --data "$data" --function classify
expect_error "tensor results without --out" "predict returns tensors ('logits', 'classes'); give --out DIR" \
  "$work/one.spmd" --checkpoint "$work/ckpt" --data "$data" --function predict

# Ranks whose copies of the data differ (one node's truncated) stop with an
# error instead of running different numbers of batches and waiting.
python3 - "$work/npy" "$work/npy-short" <<'PY'
import os, sys
source, target = sys.argv[1], sys.argv[2]
os.makedirs(target)
for name in ("images", "labels"):
    raw = open(f"{source}/{name}.npy", "rb").read()
    start = 10 + int.from_bytes(raw[8:10], "little")
    header = raw[10:start].decode()
    rows = int(header.split("'shape': (")[1].split(",")[0])
    row_bytes = (len(raw) - start) // rows
    short = header.replace(f"'shape': ({rows},", f"'shape': ({rows // 2},")
    short = short[:-1] + " " * (len(header) - len(short)) + "\n"
    open(f"{target}/{name}.npy", "wb").write(
        raw[:10] + short.encode() + raw[start:start + rows // 2 * row_bytes])
PY
expect_error "ranks whose data differ" "hold different numbers of examples (5000 to 10000)" \
  timeout 120 "${mpi[@]}" -n 3 "$work/hybrid.spmd" --checkpoint "$work/ckpt" --data "$work/npy" : \
  -n 1 "$work/hybrid.spmd" --checkpoint "$work/ckpt" --data "$work/npy-short"

# --metrics is never written over an input, and a failed write is an error.
cp "$work/partial.safetensors" "$work/kept.safetensors"
expect_error "--metrics onto a checkpoint" "is not a metrics file (JSON lines); refusing" \
  "$work/one.spmd" --checkpoint "$work/ckpt" --data "$data" --metrics "$work/kept.safetensors"
status=0
cmp -s "$work/partial.safetensors" "$work/kept.safetensors" || status=1
result "the checkpoint given as --metrics is kept" $status
expect_error "--metrics on a full disk" "cannot write metrics to /dev/full" \
  "$work/one.spmd" --checkpoint "$work/ckpt" --data "$data" --metrics /dev/full
# An empty path was read as not given: no metrics, no results written.
expect_error "an empty --metrics" "--metrics: an empty path names nothing" \
  "$work/one.spmd" --checkpoint "$work/ckpt" --data "$data" --metrics ""
expect_error "an empty --out=" "--out: an empty path names nothing" \
  "$work/one.spmd" --checkpoint "$work/ckpt" --data "$data" --out=

finish
