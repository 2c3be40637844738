#!/usr/bin/env bash
# End to end: the CNN of examples/cnn trained to at least 89% test accuracy
# on Fashion-MNIST under its spatial layout (spatial.yaml: image rows split
# over 2 ranks with halo exchanges, times data parallelism over 2), on 4
# ranks. Adam, batch 64, a cosine schedule, 2800 steps (about 3 epochs);
# the accuracy is the one the driver's evaluation reports on the whole test
# split. examples/cnn/README.md has the measured accuracy and time.
#
# usage: train_cnn.sh BUILD_BIN_DIR EXAMPLES_DIR
set -euo pipefail
bin=$1
examples=$2
source "$(dirname "$0")/common.sh"
require_fashion_mnist
# Four ranks share two cores in CI: ranks that wait in MPI yield the core
# instead of spinning (without it a step takes three times as long), and the
# kernels run on one thread each.
export OMPI_MCA_mpi_yield_when_idle=1 OMP_NUM_THREADS=1
threshold=0.89

"$bin/tessel" compile "$examples/cnn/cnn.mlir" --layout "$examples/cnn/spatial.yaml" \
  --optimizer adam --batch 64 -o "$work/cnn.spmd"
start=$(date +%s)
mpirun -n 4 --oversubscribe "$work/cnn.spmd" --data "$data" --steps 2800 --lr 0.008 \
  --schedule cosine --warmup-steps 50 --seed 0 --log-every 400 \
  --metrics "$work/cnn.jsonl" | tee "$work/cnn.out"
echo "trained and evaluated in $(($(date +%s) - start)) s"

# The whole test split, less the last partial batch.
python3 "$here/check_accuracy.py" "$work/cnn.jsonl" "$threshold" \
  "spatial.yaml on 4 ranks" $((10000 - 64))
