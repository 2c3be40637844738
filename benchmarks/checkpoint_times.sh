#!/usr/bin/env bash
# Checkpoint write and resume times of two tessel builds (before/after a
# change to the checkpoints): the MLP widened to hidden 65536 (momentum SGD,
# 417 MB of state), 2 ranks, under data:2 and model:2. For each build and
# layout: two steps without checkpoints, two steps with one after each, and
# a resume that reads the last checkpoint and trains no step. Wall times of
# whole jobs; the difference of the first two is the checkpoints' cost.
#
#   benchmarks/checkpoint_times.sh OLD_TESSEL NEW_TESSEL [WORK_DIR]
#
# Needs Fashion-MNIST in /usr/share/datasets/fashion-mnist and about 4 GB
# of disk in WORK_DIR (default: a temporary directory, removed after).
set -euo pipefail
old=$1
new=$2
work=${3:-$(mktemp -d)}
[ -n "${3:-}" ] || trap 'rm -rf "$work"' EXIT
here=$(cd "$(dirname "$0")/.." && pwd)
export OMPI_MCA_btl=self,vader OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
data=/usr/share/datasets/fashion-mnist
model=$here/examples/mlp/mlp.mlir
cd "$work"
for layout in "data|--mesh=data:2|--rules=batch:data" "model|--mesh=model:2|--rules=hidden:model"; do
  IFS='|' read -r name a b <<< "$layout"
  "$old" compile "$model" "$a" "$b" --optimizer momentum --dim-size hidden=65536 -o "old-$name.spmd"
  "$new" compile "$model" "$a" "$b" --optimizer momentum --dim-size hidden=65536 -o "new-$name.spmd"
done
seconds() { # wall time of a command, which must succeed
  local start
  start=$(date +%s.%N)
  "$@" > /dev/null 2>&1
  awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'
}
for name in data model; do
  for which in old new; do
    program=./$which-$name.spmd
    opts=(--data "$data" --steps 2 --no-evaluate --log-every 1000)
    rm -rf "ck-$which-$name"
    plain=$(seconds mpirun -n 2 --oversubscribe "$program" "${opts[@]}")
    written=$(seconds mpirun -n 2 --oversubscribe "$program" "${opts[@]}" \
      --checkpoint-dir "ck-$which-$name" --checkpoint-every 1)
    resumed=$(seconds mpirun -n 2 --oversubscribe "$program" "${opts[@]}" \
      --checkpoint-dir "ck-$which-$name" --resume)
    echo "$name $which: 2 steps ${plain}s; with 2 checkpoints ${written}s;" \
         "resume (read only) ${resumed}s; $(du -sb "ck-$which-$name" | cut -f1) bytes"
  done
done
