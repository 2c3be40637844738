#!/usr/bin/env bash
# Sets tessel up (packages, build) and runs the main job on its built-in
# default: the MLP example's forward pass and loss through the reference
# evaluator on valid random inputs, then the same model under the hybrid
# 2 x 2 layout: what it costs per rank, and the partitioned program run for
# all 4 ranks, checked against the one-rank result. Extra arguments go to
# the first tessel-eval run (e.g. --input images=x.npy --input labels=y.npy).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
BUILD_DIR=${TESSEL_BUILD_DIR:-build}
bin="$BUILD_DIR/bin"
out="$BUILD_DIR/run/mlp"
mkdir -p "$out"

if [ $# -eq 0 ]; then
  set -- --random-inputs --seed 0
fi
echo "== one rank: MLP forward + loss (tessel-eval)"
"$bin/tessel-eval" examples/mlp/mlp.mlir --output-dir "$out/reference" "$@"

echo
echo "== hybrid layout (examples/mlp/hybrid.yaml): cost per rank (tessel explain)"
"$bin/tessel" explain examples/mlp/mlp.mlir --layout examples/mlp/hybrid.yaml

echo
echo "== hybrid layout: partitioned program, all 4 ranks, checked against one rank"
"$bin/tessel-opt" examples/mlp/mlp.mlir \
  --tessel-apply-layout=layout-file=examples/mlp/hybrid.yaml \
  --tessel-partition --tessel-optimize-comm -o "$out/mlp.hybrid.mlir"
"$bin/tessel-eval" "$out/mlp.hybrid.mlir" --check-against "$out/reference" "$@"
echo "the per-rank program is in $out/mlp.hybrid.mlir"
