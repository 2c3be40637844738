#!/usr/bin/env bash
# End to end: the MLP trained from .npy arrays instead of idx files. The
# arrays hold Fashion-MNIST exactly as the idx reader presents it (pixels /
# 255 as float32, labels as int32), so the loss curve must be the idx run's,
# on one rank and on four (hybrid layout, where each rank reads only its
# block); the test arrays give the same accuracy; arrays that do not fit the
# model and a --batch the program was not compiled for are clear errors.
#
# usage: train_npy.sh BUILD_BIN_DIR EXAMPLES_DIR
set -euo pipefail
bin=$1
examples=$2
source "$(dirname "$0")/common.sh"
require_fashion_mnist --gz
model=$examples/mlp/mlp.mlir

# The arrays, written without numpy (the format is a short text header).
PYTHONPATH=$here python3 - "$data" "$work/npy" <<'PY'
import gzip, os, sys
from write_npy import save
source, target = sys.argv[1], sys.argv[2]
scale = [b / 255 for b in range(256)]
for split, folder in (("train", target), ("t10k", os.path.join(target, "test"))):
    os.makedirs(folder, exist_ok=True)
    pixels = gzip.open(f"{source}/{split}-images-idx3-ubyte.gz").read()[16:]
    labels = gzip.open(f"{source}/{split}-labels-idx1-ubyte.gz").read()[8:]
    count = len(labels)
    save(f"{folder}/images.npy", "f", "<f4", (count, 784), map(scale.__getitem__, pixels))
    save(f"{folder}/labels.npy", "i", "<i4", (count,), list(labels))
# A dataset whose images have the wrong size.
os.makedirs(f"{target}-bad", exist_ok=True)
save(f"{target}-bad/images.npy", "f", "<f4", (4, 28, 28), [0.0] * (4 * 784))
save(f"{target}-bad/labels.npy", "i", "<i4", (4,), [0, 1, 2, 3])
PY

opts=(--lr 0.05 --seed 5 --log-every 1000)
steps=60

"$bin/tessel" compile "$model" -o "$work/one.spmd"
"$bin/tessel" compile "$model" --layout "$examples/mlp/hybrid.yaml" -o "$work/hybrid.spmd"
"$work/one.spmd" --steps $steps --data "$data" --metrics "$work/idx.jsonl" "${opts[@]}" > "$work/idx.out"

status=0
"$work/one.spmd" --steps $steps --data "$work/npy" --metrics "$work/npy1.jsonl" "${opts[@]}" \
  > "$work/npy1.out" 2>&1 &&
  python3 "$here/compare_losses.py" "$work/idx.jsonl" "$work/npy1.jsonl" 1e-6 || status=1
idx_accuracy=$(grep -o "test accuracy [0-9.]*%" "$work/idx.out" || true)
npy_accuracy=$(grep -o "test accuracy [0-9.]*%" "$work/npy1.out" || true)
echo "idx: $idx_accuracy; npy: $npy_accuracy"
[ -n "$idx_accuracy" ] && [ "$idx_accuracy" = "$npy_accuracy" ] || status=1
[ $status -eq 0 ] || tail -5 "$work/npy1.out"
result "1 rank from .npy: the idx run's losses and test accuracy" $status

status=0
mpirun -n 4 --oversubscribe "$work/hybrid.spmd" --steps $steps --data "$work/npy" --no-evaluate \
  --metrics "$work/npy4.jsonl" "${opts[@]}" > "$work/npy4.out" 2>&1 &&
  python3 "$here/compare_losses.py" "$work/idx.jsonl" "$work/npy4.jsonl" 1e-4 ||
  { status=1; tail -5 "$work/npy4.out"; }
result "hybrid on 4 ranks from .npy: the idx run's losses" $status

status=0
if "$work/one.spmd" --steps 1 --data "$work/npy-bad" > "$work/bad.out" 2>&1; then status=1; fi
grep -q "npy-bad/images.npy: each example is \[28, 28\] but the model's 'images'" "$work/bad.out" || status=1
[ $status -eq 0 ] || cat "$work/bad.out"
result "an array that does not fit the model names the file and both shapes" $status

status=0
if "$work/one.spmd" --steps 1 --batch 256 --data "$work/npy" > "$work/batch.out" 2>&1; then status=1; fi
grep -q "this program was compiled for a batch of 64; compile the model with \`tessel compile --batch 256\`" \
  "$work/batch.out" || status=1
[ $status -eq 0 ] || cat "$work/batch.out"
result "--batch other than the compiled batch says how to compile for it" $status

finish
