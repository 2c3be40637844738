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
data=/usr/share/datasets/fashion-mnist
if [ ! -f "$data/train-images-idx3-ubyte.gz" ] && [ ! -f "$data/train-images-idx3-ubyte" ]; then
  echo "SKIP: Fashion-MNIST is not installed in $data (Debian package dataset-fashion-mnist)"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_MCA_btl=self,vader OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
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

python3 - "$work/cnn.jsonl" "$threshold" <<'PY'
import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
threshold = float(sys.argv[2])
evaluation = [r for r in records if "test_accuracy" in r]
if not evaluation:
    print("FAIL: the run reported no test accuracy")
    sys.exit(1)
accuracy, examples = evaluation[-1]["test_accuracy"], evaluation[-1]["test_examples"]
# The whole test split, less the last partial batch.
if examples < 10000 - 64:
    print(f"FAIL: evaluated {examples} test examples, not the whole split")
    sys.exit(1)
if not accuracy >= threshold:
    print(f"FAIL: test accuracy {accuracy:.4f} < {threshold}")
    sys.exit(1)
print(f"PASS: spatial.yaml on 4 ranks: test accuracy {accuracy:.4f} >= {threshold} "
      f"({examples} examples)")
PY
