#!/usr/bin/env bash
# Sets tessel up (packages, build) and runs the main job on its built-in
# default: the MLP example compiled for the hybrid 2 x 2 layout (batch over
# `data`, hidden layer over `model`), what that layout costs per rank
# (tessel explain of the training step), then training under mpirun on 4
# ranks on Fashion-MNIST, with a progress line and the test accuracy at the
# end. Extra arguments go to the training program (e.g. --steps 2000
# --lr 0.05 --metrics metrics.jsonl; --help lists them).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
BUILD_DIR=${TESSEL_BUILD_DIR:-build}
bin="$BUILD_DIR/bin"
out="$BUILD_DIR/run/mlp"
mkdir -p "$out"
# Shared memory between the ranks of one machine; root may run mpirun.
export OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

if [ $# -eq 0 ]; then
  set -- --steps 500 --log-every 50 --data /usr/share/datasets/fashion-mnist
fi

echo "== hybrid layout (examples/mlp/hybrid.yaml): the training step's cost per rank"
"$bin/tessel-opt" examples/mlp/mlp.mlir --tessel-autodiff -o "$out/mlp.step.mlir"
"$bin/tessel" explain "$out/mlp.step.mlir" --layout examples/mlp/hybrid.yaml \
  --function train_step | sed -n '/^collectives:/,$p'

echo
echo "== training the MLP on 4 ranks (tessel run, mpirun underneath)"
"$bin/tessel" run examples/mlp/mlp.mlir --layout examples/mlp/hybrid.yaml -n 4 \
  -o "$out/mlp.spmd" -- "$@"
echo "the compiled program is $out/mlp.spmd (mpirun -n 4 $out/mlp.spmd --help)"
