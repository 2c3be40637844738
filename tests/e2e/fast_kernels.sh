#!/usr/bin/env bash
# End to end: no slow paths. Every model of the zoo (examples/: mlp, cnn,
# transformer, gpt, moe, vit, resnet), compiled with AdamW for one rank and
# under each of its layout files, runs its training step and its evaluation
# on fast kernels (oneDNN or the executor's own loops): over three steps
# and a validation, `--profile` lists no call site on a reference kernel
# ("reference kernels (slow paths): none") and
# TESSEL_REPORT_REFERENCE_KERNELS names none on any rank. The check can
# fail: the low-rank classifier tests/e2e/models/low_rank.mlir, whose
# logits are one einsum of three inputs, is reported compiled with
# --no-decompose-einsum (the einsum and its gradients on the reference
# kernel) and passes as `tessel compile` makes it (pairwise einsums).
#
# usage: fast_kernels.sh BUILD_BIN_DIR EXAMPLES_DIR
set -euo pipefail
bin=$1
examples=$2
source "$(dirname "$0")/common.sh"
export OMPI_MCA_mpi_yield_when_idle=1 OMP_NUM_THREADS=1
export TESSEL_REPORT_REFERENCE_KERNELS=1

# Compiles MODEL (with the compile options after it, up to `--`), runs
# three steps (and a validation batch) on RANKS ranks with the run options
# after `--`, and leaves the output in $work/NAME.out. Fails if either
# fails.
run_model() { # name, ranks, model, compile options... -- run options...
  local name=$1 ranks=$2 model=$3
  shift 3
  local compile=()
  while [ "$1" != "--" ]; do compile+=("$1"); shift; done
  shift
  "$bin/tessel" compile "$model" --optimizer adamw "${compile[@]}" \
    -o "$work/$name.spmd" > "$work/$name.compile.out" 2>&1 || {
    cat "$work/$name.compile.out"; return 1; }
  # A validation after the last step where the model has an evaluate
  # function, not the whole test split.
  local evaluation=(--no-evaluate)
  if grep -q "func.func @evaluate" "$model"; then
    evaluation+=(--eval-every 3 --eval-batches 1)
  fi
  mpirun -n "$ranks" --oversubscribe "$work/$name.spmd" --steps 3 --lr 0.001 \
    --log-every 1000 --profile "${evaluation[@]}" "$@" \
    > "$work/$name.out" 2>&1 || { tail -20 "$work/$name.out"; return 1; }
}

# Whether NAME's run took a reference kernel anywhere: a report on some
# rank, or a profile that lists slow paths.
slow_paths() { # name
  grep -q "runs on a reference kernel" "$work/$1.out" ||
    ! grep -q "reference kernels (slow paths): none" "$work/$1.out"
}

check_model() { # example, run options...
  local example=$1
  shift
  local model=$examples/$example/$example.mlir
  local status=0
  run_model "$example" 1 "$model" -- "$@" || status=1
  if [ $status -eq 0 ] && slow_paths "$example"; then
    grep -E "runs on a reference kernel|reference kernels|  +[0-9.]+ .* at " \
      "$work/$example.out" || true
    status=1
  fi
  result "$example: one rank trains and evaluates on fast kernels only" $status
  for layout in "$examples/$example"/*.yaml; do
    local name ranks
    name=$example.$(basename "$layout" .yaml)
    ranks=$(layout_ranks "$layout")
    status=0
    run_model "$name" "$ranks" "$model" --layout "$layout" -- "$@" || status=1
    if [ $status -eq 0 ] && slow_paths "$name"; then
      grep -E "runs on a reference kernel|reference kernels" "$work/$name.out" || true
      status=1
    fi
    result "$example: $(basename "$layout") on $ranks ranks trains and evaluates on fast kernels only" $status
  done
}

# The check itself: a three-input einsum left to the runtime is reported,
# by rank 0's profile and by TESSEL_REPORT_REFERENCE_KERNELS; split into
# pairwise einsums (tessel compile's default) it is not.
if have_fashion_mnist; then
  status=0
  run_model low_rank.whole 1 "$here/models/low_rank.mlir" --no-decompose-einsum \
    -- --data "$data" || status=1
  grep -q "tessel.einsum at [^ ]*low_rank.mlir:[0-9:]* runs on a reference kernel" \
    "$work/low_rank.whole.out" || status=1
  grep -q "reference kernels (slow paths): [0-9]* calls per step, at:" \
    "$work/low_rank.whole.out" || status=1
  ! grep -q "reference kernels (slow paths): none" "$work/low_rank.whole.out" || status=1
  [ $status -eq 0 ] || cat "$work/low_rank.whole.out"
  result "a three-input einsum on the reference kernel is reported" $status
  status=0
  run_model low_rank 1 "$here/models/low_rank.mlir" -- --data "$data" || status=1
  if [ $status -eq 0 ] && slow_paths low_rank; then
    cat "$work/low_rank.out"
    status=1
  fi
  result "the same einsum split into pairwise einsums runs on fast kernels only" $status
fi

for example in transformer gpt moe; do
  check_model "$example"
done
if have_fashion_mnist; then
  for example in mlp cnn vit resnet; do
    check_model "$example" --data "$data"
  done
else
  echo "SKIP: $no_fashion_mnist: low_rank, mlp, cnn, vit, resnet"
fi

finish
