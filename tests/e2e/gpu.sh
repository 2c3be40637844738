#!/usr/bin/env bash
# The CUDA runtime end to end (docs/gpu.md), in one of three modes:
#
#   link       `tessel compile --target cuda` links the MLP and the CNN with
#              libtessel_runtime_cuda.so (needs only the CUDA toolkit).
#   no-device  without a CUDA device the program ends at start-up on every
#              rank with exit status 1 and "no CUDA device: ...", not a
#              crash; `tessel calibrate --target cuda` says so and writes
#              no profile.
#   train      with a CUDA device: the MLP and the CNN on the GPU give the
#              CPU runtime's loss curve; with two devices, data parallel on
#              2 ranks (NCCL) gives the 1-rank curve; a checkpoint written
#              on the GPU resumes on the CPU; `tessel calibrate --target
#              cuda` writes a profile of the GPU that search reads.
#
# A mode that cannot run here exits 77, which ctest reports as skipped.
#
# usage: gpu.sh BUILD_BIN_DIR EXAMPLES_DIR MODE
set -euo pipefail
bin=$1
examples=$2
mode=$3
source "$(dirname "$0")/common.sh"

[ -f "$bin/../lib/tessel-link-cuda.rsp" ] ||
  skip "the CUDA runtime is not built (the build found no CUDA toolkit)"
mlp=$examples/mlp/mlp.mlir
cnn=$examples/cnn/cnn.mlir
probe=$("$bin/tessel-cuda-probe") && devices=${probe%% *} || devices=0

case $mode in
link)
  for model in "$mlp" "$cnn"; do
    name=$(basename "$model" .mlir)
    "$bin/tessel" compile "$model" --target cuda -o "$work/$name.gpu"
    [ -x "$work/$name.gpu" ] || { echo "FAIL: no executable for $name"; exit 1; }
    if ! readelf -d "$work/$name.gpu" | grep -q 'libtessel_runtime_cuda.so'; then
      echo "FAIL: $name is not linked with libtessel_runtime_cuda.so"; exit 1
    fi
    echo "PASS: $name links with the CUDA runtime"
  done
  # --help needs no device: the program starts and lists its options.
  "$work/mlp.gpu" --help | grep -q -- '--steps' ||
    { echo "FAIL: --help of the CUDA program"; exit 1; }
  echo "PASS: the CUDA program starts without a device for --help"
  ;;
no-device)
  [ "$devices" = 0 ] || skip "this machine has $probe; the no-device error cannot be seen here"
  "$bin/tessel" compile "$mlp" --mesh=data:2 --rules=batch:data --target cuda \
    -o "$work/mlp.gpu"
  status=0
  mpirun -n 2 --oversubscribe "$work/mlp.gpu" --steps 2 > "$work/out" 2>&1 || status=$?
  cat "$work/out"
  # 1, the driver's start-up failure; a signal would be above 128 and
  # mpirun reports those with its own status.
  if [ "$status" -ne 1 ]; then echo "FAIL: exit status $status, not 1"; exit 1; fi
  grep -q 'tessel: no CUDA device: cudaGetDeviceCount' "$work/out" ||
    { echo "FAIL: no 'no CUDA device' message"; exit 1; }
  echo "PASS: without a CUDA device the job ends with status 1 and says why"
  # tessel calibrate --target cuda says so before measuring anything and
  # writes no profile.
  status=0
  "$bin/tessel" calibrate --target cuda -o "$work/gpu.json" > "$work/out" 2>&1 || status=$?
  cat "$work/out"
  if [ "$status" -ne 1 ] || [ -e "$work/gpu.json" ]; then
    echo "FAIL: calibrate --target cuda without a device: status $status"; exit 1
  fi
  grep -q 'tessel calibrate: --target cuda: no CUDA device' "$work/out" ||
    { echo "FAIL: calibrate did not say there is no CUDA device"; exit 1; }
  echo "PASS: calibrate --target cuda without a device says why and writes nothing"
  ;;
train)
  [ "$devices" != 0 ] || skip "$probe"
  have_fashion_mnist || skip "$no_fashion_mnist"
  opts=(--data "$data" --lr 0.02 --seed 3 --log-every 1000 --no-evaluate)
  failed=0
  check() { # name, command...
    local name=$1; shift
    if "$@"; then echo "PASS: $name"; else echo "FAIL: $name"; failed=1; fi
  }
  for model in "$mlp" "$cnn"; do
    name=$(basename "$model" .mlir)
    steps=40
    "$bin/tessel" compile "$model" --optimizer momentum -o "$work/$name.cpu"
    "$bin/tessel" compile "$model" --optimizer momentum --target cuda -o "$work/$name.gpu"
    "$work/$name.cpu" --steps $steps --metrics "$work/$name.cpu.jsonl" "${opts[@]}" > /dev/null
    "$work/$name.gpu" --steps $steps --metrics "$work/$name.gpu.jsonl" "${opts[@]}" \
      --checkpoint-dir "$work/$name.ckpt" --checkpoint-every 20 | tail -2
    # cuBLAS and cuDNN sum in another order than oneDNN and the reference
    # kernels: the curves agree to float rounding, not bit for bit.
    check "$name on the GPU: the CPU runtime's losses over $steps steps" \
      python3 "$here/compare_losses.py" "$work/$name.cpu.jsonl" "$work/$name.gpu.jsonl" 1e-3
    # A checkpoint is global tensors: the CPU runtime resumes the GPU's.
    rm -rf "$work/$name.ckpt/step-00000040"
    "$work/$name.cpu" --steps $steps --checkpoint-dir "$work/$name.ckpt" --resume \
      --metrics "$work/$name.resumed.jsonl" "${opts[@]}" > /dev/null
    check "$name: a GPU checkpoint resumes on the CPU" \
      python3 "$here/compare_losses.py" "$work/$name.gpu.jsonl" "$work/$name.resumed.jsonl" 1e-3 21
  done
  # The GPU's kernels (and NCCL's collectives on two devices) in a profile
  # that search reads: kernels on up to one rank a device.
  max_ranks=$(( devices >= 2 ? 2 : 1 ))
  "$bin/tessel" calibrate --target cuda --max-ranks $max_ranks --repetitions 1 \
    --min-seconds 0.002 -o "$work/gpu.json" > "$work/calibrate.out" 2>&1 ||
    { tail -20 "$work/calibrate.out"; failed=1; }
  check "calibrate --target cuda: kernels on 1 to $max_ranks ranks, every class, positive times" \
    python3 -c "import json,sys; p=json.load(open(sys.argv[1])); n=int(sys.argv[2]); assert [k['ranks'] for k in p['kernels']] == [r for r in (1, 2) if r <= n], p['kernels']; assert all(pt['seconds'] > 0 and pt['cold_seconds'] > 0 for k in p['kernels'] for c in k['classes'].values() for pt in c); assert n < 2 or p['collectives'], p; assert 'CUDA' in p['machine']['description']" \
    "$work/gpu.json" "$max_ranks"
  if [ "$devices" -ge 2 ]; then
    check "search reads the GPU profile" \
      "$bin/tessel" search "$mlp" -n 2 --profile "$work/gpu.json" -o "$work/gpu-best.yaml"
  fi
  if [ "$devices" -ge 2 ]; then
    "$bin/tessel" compile "$mlp" --mesh=data:2 --rules=batch:data --optimizer momentum \
      --target cuda -o "$work/data.gpu"
    mpirun -n 2 --oversubscribe "$work/data.gpu" --steps 40 --metrics "$work/data.jsonl" \
      "${opts[@]}" > "$work/data.out" 2>&1 || { tail -5 "$work/data.out"; failed=1; }
    check "MLP data parallel on 2 GPUs (NCCL): the 1-GPU losses" \
      python3 "$here/compare_losses.py" "$work/mlp.gpu.jsonl" "$work/data.jsonl" 1e-3
  else
    echo "SKIP: data parallel on 2 GPUs: $probe"
  fi
  exit $failed
  ;;
*)
  echo "usage: gpu.sh BUILD_BIN_DIR EXAMPLES_DIR link|no-device|train"; exit 2 ;;
esac
