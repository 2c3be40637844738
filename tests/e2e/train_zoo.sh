#!/usr/bin/env bash
# End to end: the front end's zoo (examples/vit, examples/gpt,
# examples/moe, examples/resnet) and the CNN (examples/cnn), compiled from
# their committed MLIR and trained under mpirun: every layout file gives
# the 1-rank loss curve, the Vision Transformer learns Fashion-MNIST (test
# accuracy at least 70% after 800 steps at batch 64 on the hybrid layout),
# the ResNet too (68% after 400 steps at batch 32, data parallel), and the
# ResNet's checkpoint carries its batch norms' running statistics (the
# same evaluation after resuming under another layout).
#
# usage: train_zoo.sh BUILD_BIN_DIR EXAMPLES_DIR
set -euo pipefail
bin=$1
examples=$2
source "$(dirname "$0")/common.sh"
export OMPI_MCA_mpi_yield_when_idle=1

# The loss curve of every layout file against one rank, over 30 steps, to
# relative error CURVE_TOLERANCE (1e-4 unless set).
curves() { # example, data options...
  local example=$1
  shift
  local model=$examples/$example/$example.mlir
  local train=(--optimizer adamw --batch 16)
  local run_opts=(--steps 30 --lr 0.003 --seed 3 --log-every 1000 "$@")
  "$bin/tessel" compile "$model" "${train[@]}" -o "$work/$example.reference.spmd"
  "$work/$example.reference.spmd" --metrics "$work/$example.reference.jsonl" "${run_opts[@]}" \
    > "$work/$example.reference.out"
  for layout in "$examples/$example"/*.yaml; do
    local name
    name=$(basename "$layout" .yaml)
    local ranks
    ranks=$(layout_ranks "$layout")
    local status=0
    "$bin/tessel" compile "$model" --layout "$layout" "${train[@]}" -o "$work/$example.$name.spmd" &&
      mpirun -n "$ranks" --oversubscribe "$work/$example.$name.spmd" \
        --metrics "$work/$example.$name.jsonl" "${run_opts[@]}" > "$work/$example.$name.out" 2>&1 &&
      python3 "$here/compare_losses.py" "$work/$example.reference.jsonl" \
        "$work/$example.$name.jsonl" "${CURVE_TOLERANCE:-1e-4}" ||
      { status=1; tail -5 "$work/$example.$name.out"; }
    result "$example: $name.yaml on $ranks ranks gives the 1-rank loss curve" $status
  done
}

curves gpt
curves moe
if have_fashion_mnist; then
  curves vit --data "$data"
  # The CNN's channel, data and spatial layouts: the spatial ones run the
  # halo exchanges, started and waited for, and the convolutions split
  # around them (tessel-split-halo-convolutions).
  curves cnn --data "$data"

  status=0
  "$bin/tessel" compile "$examples/vit/vit.mlir" --layout "$examples/vit/hybrid.yaml" \
    --optimizer adamw --batch 64 -o "$work/vit.spmd"
  mpirun -n 4 --oversubscribe "$work/vit.spmd" --data "$data" --steps 800 --lr 0.003 \
    --schedule cosine --seed 0 --log-every 200 --metrics "$work/vit.jsonl" | tee "$work/vit.out"
  python3 "$here/check_accuracy.py" "$work/vit.jsonl" 0.70 "vit on 4 ranks" || status=1
  result "vit: 70% test accuracy on Fashion-MNIST after 800 steps" $status

  # The ResNet (batch norm with running statistics): every layout's loss
  # curve, the test accuracy after 400 steps on 4 ranks, and its
  # checkpoint: resumed under another layout with nothing left to train,
  # the evaluation (which normalises with the running statistics the
  # checkpoint saved) gives the same accuracy and loss.
  # f32 rounding of the split sums (1e-7 in the first steps) grows through
  # batch norm and AdamW to about 1e-4 by step 20 and 3e-4 by step 30
  # (measured under data.yaml; spatial.yaml grows a little faster), hence
  # 2e-3 here; each single step is checked to 1e-5 by the differential
  # sweep, and statistics of a rank's block instead of the whole batch would
  # change the loss from the first step.
  CURVE_TOLERANCE=2e-3 curves resnet --data "$data"
  # Under spatial.yaml the input gradients' convolutions are split around
  # their halo exchanges too (tessel-split-halo-convolutions): the same sums
  # as the whole convolutions of --no-overlap's program, so the same losses
  # step by step (to 1e-6: the kernels may block the sums differently).
  status=0
  for program in split whole; do
    options=()
    [ "$program" = whole ] && options=(--no-overlap)
    "$bin/tessel" compile "$examples/resnet/resnet.mlir" --layout "$examples/resnet/spatial.yaml" \
      "${options[@]}" -o "$work/resnet.$program.spmd"
    mpirun -n 4 --oversubscribe "$work/resnet.$program.spmd" --data "$data" --steps 8 \
      --no-evaluate --seed 0 --metrics "$work/resnet.$program.jsonl" > /dev/null || status=1
  done
  python3 "$here/compare_losses.py" "$work/resnet.whole.jsonl" "$work/resnet.split.jsonl" 1e-6 ||
    status=1
  result "resnet: spatial.yaml's split input-gradient convolutions give the whole ones' losses" \
    $status
  status=0
  "$bin/tessel" compile "$examples/resnet/resnet.mlir" --layout "$examples/resnet/data.yaml" \
    --optimizer adamw --batch 32 -o "$work/resnet.spmd"
  "$bin/tessel" compile "$examples/resnet/resnet.mlir" --layout "$examples/resnet/spatial.yaml" \
    --optimizer adamw --batch 32 -o "$work/resnet.spatial.spmd"
  mpirun -n 4 --oversubscribe "$work/resnet.spmd" --data "$data" --steps 400 --lr 0.01 \
    --schedule cosine --seed 0 --log-every 100 --metrics "$work/resnet.jsonl" \
    --checkpoint-dir "$work/resnet.ck" | tee "$work/resnet.out"
  python3 "$here/check_accuracy.py" "$work/resnet.jsonl" 0.68 "resnet on 4 ranks" || status=1
  result "resnet: 68% test accuracy on Fashion-MNIST after 400 steps" $status
  status=0
  mpirun -n 4 --oversubscribe "$work/resnet.spatial.spmd" --data "$data" --steps 400 \
    --lr 0.01 --checkpoint-dir "$work/resnet.ck" --resume > "$work/resnet.resumed.out" 2>&1 ||
    status=1
  trained=$(grep -o 'test accuracy [^;]*' "$work/resnet.out" || true)
  resumed=$(grep -o 'test accuracy [^;]*' "$work/resnet.resumed.out" || true)
  echo "trained: $trained; resumed under spatial.yaml: $resumed"
  [ -n "$trained" ] && [ "$trained" = "$resumed" ] || status=1
  grep -q "running_mean" "$work/resnet.ck"/step-*/model.safetensors.index.json || status=1
  result "resnet: the checkpoint's running statistics give the same evaluation after resuming" \
    $status
else
  echo "SKIP: $no_fashion_mnist: vit, resnet"
fi

finish
