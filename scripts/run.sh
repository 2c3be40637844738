#!/usr/bin/env bash
# Sets tessel up (packages, build) and runs the main job on its built-in
# default: the MLP example's forward pass and loss through the reference
# evaluator, on a batch of valid random inputs. Extra arguments go to
# tessel-eval (e.g. --input images=batch.npy --input labels=labels.npy).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
BUILD_DIR=${TESSEL_BUILD_DIR:-build}

echo "== tessel-opt: verify and print examples/mlp/mlp.mlir"
"$BUILD_DIR/bin/tessel-opt" examples/mlp/mlp.mlir > /dev/null
echo "ok"
echo "== tessel-eval: MLP forward + loss on random inputs (seed 0)"
if [ $# -eq 0 ]; then
  set -- --random-inputs --seed 0
fi
"$BUILD_DIR/bin/tessel-eval" examples/mlp/mlp.mlir --output-dir "$BUILD_DIR/run/mlp" "$@"
echo "outputs written to $BUILD_DIR/run/mlp/"
