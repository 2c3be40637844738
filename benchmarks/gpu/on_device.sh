#!/usr/bin/env bash
# Tests and times the CUDA runtime on a machine with a GPU, from the bundle
# benchmarks/gpu/bundle.py packs (docs/gpu.md, "Running on a lent GPU").
# The machine needs a CUDA driver, python3 with numpy and PyTorch (the
# peer), and cuBLAS, cuDNN and NCCL somewhere under /usr or /opt; it needs
# neither MLIR nor MPI.
#
# usage: benchmarks/gpu/on_device.sh BUNDLE.tar.xz OUT_DIR [PART...]
#
# Parts (all by default): tests (the GPU test binaries), train (loss curves
# against the CPU runtime, checkpoints), times (step times), peers (PyTorch
# eager on the GPU, cuBLAS's GEMM rate), profile (`--profile` of the timed
# programs: each op's time on the device, per step), kernels (every CUDA
# kernel's time under Nsight Compute, when the machine has ncu), calibrate
# (the calibrate probe on the GPU runtime, its output in OUT_DIR/calibrate
# for `tessel calibrate --probe-output` on a machine with tessel).
#
# Writes OUT_DIR/log (everything), OUT_DIR/results.json and prints
# OUT_DIR/summary.md last. Each part has its own time limit, so a hang costs
# that part only.
set -uo pipefail
out=$(mkdir -p "$2" && realpath "$2")
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
bundle=$work/bundle
archive=$1
shift 2
parts=" ${*:-tests train times peers profile calibrate} "
wants() { [[ $parts == *" $1 "* ]]; }
mkdir "$bundle" && tar -xJf "$archive" -C "$bundle" || { echo "cannot unpack $1"; exit 1; }
log=$out/log
: > "$log"
results=$out/results.jsonl
: > "$results"
note() { echo "== $*" | tee -a "$log"; }
record() { # key value...: one JSON line of results
  python3 -c 'import json,sys; print(json.dumps({"key": sys.argv[1], "value": " ".join(" ".join(sys.argv[2:]).split())}))' \
    "$@" >> "$results"
}

# Open MPI from the bundle's Debian packages, in a directory of its own:
# OPAL_PREFIX relocates its launcher, plugins and help files there.
mpi=$work/openmpi
for deb in "$bundle"/debs/*.deb; do dpkg -x "$deb" "$mpi"; done
export OPAL_PREFIX=$mpi/usr
mpi_libs=$mpi/usr/lib/x86_64-linux-gnu
export PATH=$mpi/usr/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
# Shared memory only: no UCX or fabric probing, no cross-memory attach
# (which a virtual machine may refuse).
export OMPI_MCA_pml=ob1 OMPI_MCA_osc=^ucx OMPI_MCA_btl_vader_single_copy_mechanism=none
# PMIx finds the machine's own plugins of another version: quiet about it.
export PMIX_MCA_pcompress_base_silence_warning=1 PMIX_MCA_mca_base_component_show_load_errors=0
# cuBLAS, cuDNN and NCCL of the machine (the CUDA toolkit's, or the
# nvidia-* Python packages PyTorch brings).
cuda_dirs=""
for lib in libcublas.so.13 libcublasLt.so.13 libcudnn.so.9 libnccl.so.2; do
  found=$(find /usr/local /opt /usr/lib -name "$lib" 2>/dev/null | head -1)
  if [ -z "$found" ]; then note "missing on this machine: $lib"; continue; fi
  cuda_dirs=$cuda_dirs:$(dirname "$found")
done
# Only tessel's programs get these libraries: python3 keeps the machine's.
tessel_env=(env "LD_LIBRARY_PATH=$bundle/lib:$mpi_libs:$mpi_libs/openmpi/lib$cuda_dirs")
limited() { # seconds, command...: the command with a time limit, output to the log
  local seconds=$1; shift
  timeout --kill-after=10 "$seconds" "$@" >> "$log" 2>&1
}
bin=$bundle/bin
data=$bundle/data/fashion-mnist
text=$bundle/data/text

note "machine"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv >> "$log" 2>&1
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
record gpu "$gpu"
record date "$(date -u +%Y-%m-%d)"
record cpu "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) x $(nproc)"
"${tessel_env[@]}" "$bin/tessel-cuda-probe" >> "$log" 2>&1
record probe "$("${tessel_env[@]}" "$bin/tessel-cuda-probe" 2>&1)"

gtest_summary() { # the gtest summary lines the log has gained since line $1
  tail -n "+$1" "$log" | grep -E '^\[  (PASSED|FAILED|SKIPPED) +\]' | sort -u | tr '\n' ' '
}
if wants tests; then
note "index plans (host)"
since=$(wc -l < "$log")
limited 120 "${tessel_env[@]}" "$bin/tessel-runtime-gpu-plan-tests"
record plan_tests "status $? $(gtest_summary "$since")"

note "every kernel and mesh op on the GPU against the host (1 rank)"
since=$(wc -l < "$log")
limited 240 "${tessel_env[@]}" "$bin/tessel-runtime-gpu-tests"
status=$?
record gpu_tests "status $status $(gtest_summary "$since")"
tail -n "+$since" "$log" | grep -E '^\[  FAILED  \]' | sort -u > "$out/failed_tests.txt"

# The fused element-wise kernel on its own line: its per-element program
# against the CPU's fused kernel on the host, then the kernel on the GPU.
note "the fused kernel: its program on the host, then on the GPU"
since=$(wc -l < "$log")
limited 120 "${tessel_env[@]}" "$bin/tessel-runtime-gpu-plan-tests" --gtest_filter='GpuFused*'
record fused_program_tests "status $? $(gtest_summary "$since")"
since=$(wc -l < "$log")
limited 240 "${tessel_env[@]}" "$bin/tessel-runtime-gpu-tests" --gtest_filter='Gpu.Fused*'
record fused_gpu_tests "status $? $(gtest_summary "$since")"
fi

# tests/e2e/gpu.sh's train mode with the bundle's programs: the CPU
# runtime's loss curve, and a GPU checkpoint resumed on the CPU.
opts=(--data "$data" --lr 0.02 --seed 3 --log-every 1000 --no-evaluate)
for name in mlp cnn; do
  wants train || break
  note "$name: 40 steps on the GPU against the CPU runtime"
  limited 120 "${tessel_env[@]}" "$bin/$name.cpu" --steps 40 --metrics "$work/$name.cpu.jsonl" "${opts[@]}"
  TESSEL_GPU_REPORT_HOST_OPS=1 limited 120 "${tessel_env[@]}" "$bin/$name.gpu" --steps 40 \
    --metrics "$work/$name.gpu.jsonl" "${opts[@]}" \
    --checkpoint-dir "$work/$name.ckpt" --checkpoint-every 20
  python3 "$repo/tests/e2e/compare_losses.py" "$work/$name.cpu.jsonl" "$work/$name.gpu.jsonl" 1e-3 \
    >> "$log" 2>&1
  record "${name}_losses_gpu_vs_cpu" "status $? $(tail -1 "$log")"
  rm -rf "$work/$name.ckpt/step-00000040"
  limited 120 "${tessel_env[@]}" "$bin/$name.cpu" --steps 40 --checkpoint-dir "$work/$name.ckpt" --resume \
    --metrics "$work/$name.resumed.jsonl" "${opts[@]}"
  python3 "$repo/tests/e2e/compare_losses.py" "$work/$name.gpu.jsonl" "$work/$name.resumed.jsonl" \
    1e-3 21 >> "$log" 2>&1
  record "${name}_gpu_checkpoint_resumes_on_cpu" "status $? $(tail -1 "$log")"

done

# --gpu-fusion: the MLP with its chains in the fused kernel gives the CPU
# runtime's curve (which fuses them too), and the Transformer, f32 and
# bf16, the unfused GPU program's.
if wants train; then
  note "mlp --gpu-fusion: 40 steps on the GPU against the CPU runtime"
  TESSEL_GPU_REPORT_HOST_OPS=1 limited 120 "${tessel_env[@]}" "$bin/mlp_fused.gpu" --steps 40 \
    --metrics "$work/mlp_fused.gpu.jsonl" "${opts[@]}"
  python3 "$repo/tests/e2e/compare_losses.py" "$work/mlp.cpu.jsonl" "$work/mlp_fused.gpu.jsonl" 1e-3 \
    >> "$log" 2>&1
  record mlp_fused_losses_gpu_vs_cpu "status $? $(tail -1 "$log")"
  for name in transformer transformer_bf16; do
    note "$name --gpu-fusion: 20 steps against the unfused GPU program"
    for program in "$name" "${name}_fused"; do
      TESSEL_GPU_REPORT_HOST_OPS=1 limited 180 "${tessel_env[@]}" "$bin/$program.gpu" --steps 20 \
        --data "$text" --lr 0.003 --seed 3 --log-every 1000 --no-evaluate \
        --metrics "$work/$program.losses.jsonl"
    done
    python3 "$repo/tests/e2e/compare_losses.py" "$work/$name.losses.jsonl" \
      "$work/${name}_fused.losses.jsonl" 1e-3 >> "$log" 2>&1
    record "${name}_fused_losses_vs_unfused" "status $? $(tail -1 "$log")"
  done
fi

# Step times (median after the warm-up, batch preparation included, as
# benchmarks/throughput.py takes them) of tessel on the GPU and on this
# machine's CPU, and of PyTorch eager on the GPU.
median_step() { # metrics file, warm-up steps
  python3 - "$1" "$2" <<'EOF'
import json, statistics, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
steps = [l["step_ms"] for l in lines if "step" in l][int(sys.argv[2]):]
print(f"{statistics.median(steps):.3f}" if steps else "none")
EOF
}
timed() { # program, steps, data options...
  local program=$1 steps=$2; shift 2
  rm -f "$work/t.jsonl"
  TESSEL_GPU_REPORT_HOST_OPS=1 limited 180 "${tessel_env[@]}" "$bin/$program" --steps "$steps" \
    --no-evaluate --log-every 1000 --metrics "$work/t.jsonl" "$@"
  [ -s "$work/t.jsonl" ] && median_step "$work/t.jsonl" 10 || echo failed
}
if wants times; then
note "step times"
record mlp_1024_gpu_ms "$(timed mlp_1024.gpu 60 --data "$data" --lr 0.1)"
record mlp_1024_cpu_ms "$(timed mlp_1024.cpu 30 --data "$data" --lr 0.1)"
record cnn_gpu_ms "$(timed cnn.gpu 60 --data "$data" --lr 0.02)"
record cnn_cpu_ms "$(timed cnn.cpu 30 --data "$data" --lr 0.02)"
record transformer_gpu_ms "$(timed transformer.gpu 60 --data "$text" --lr 0.003)"
record transformer_bf16_gpu_ms "$(timed transformer_bf16.gpu 60 --data "$text" --lr 0.003)"
record mlp_1024_fused_gpu_ms "$(timed mlp_1024_fused.gpu 60 --data "$data" --lr 0.1)"
record transformer_fused_gpu_ms "$(timed transformer_fused.gpu 60 --data "$text" --lr 0.003)"
record transformer_bf16_fused_gpu_ms "$(timed transformer_bf16_fused.gpu 60 --data "$text" --lr 0.003)"
record transformer_cpu_ms "$(timed transformer.cpu 30 --data "$text" --lr 0.003)"
fi

if wants peers; then
note "PyTorch eager on the GPU"
peers=$repo/benchmarks/peers
peer() { # script, arguments...
  (cd "$peers" && timeout 180 python3 "$@" --device cuda --steps 60 --warmup 10 2>> "$log" | tail -1)
}
record torch_mlp_1024 "$(peer mlp.py --data "$data")"
record torch_transformer "$(peer transformer.py --layers 4 --d-model 256 --heads 8 --d-ff 1024 \
  --seq 128 --batch 8 --data "$text")"
record torch_versions "$(python3 -c 'import torch; print(torch.__version__, torch.version.cuda, torch.backends.cudnn.version(), torch.cuda.nccl.version() if torch.cuda.is_available() else None)' 2>&1)"

note "cuBLAS's large-GEMM rate through PyTorch (TF32 off), for the ratios"
record cublas_gemm "$(timeout 120 python3 - <<'EOF' 2>> "$log"
import torch
torch.backends.cuda.matmul.allow_tf32 = False
rates = []
for dtype, n in ((torch.float32, 8192), (torch.bfloat16, 8192)):
    a = torch.randn(n, n, device="cuda", dtype=dtype)
    b = torch.randn(n, n, device="cuda", dtype=dtype)
    for _ in range(3):
        a @ b
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(10):
        a @ b
    end.record()
    torch.cuda.synchronize()
    seconds = start.elapsed_time(end) / 1e3 / 10
    rates.append(f"{str(dtype).split('.')[1]} {n}^3 {2 * n**3 / seconds / 1e12:.1f} TFLOP/s")
print("; ".join(rates))
EOF
)"
fi

# Each op's time on the device (the profile waits for the device around
# every op), to the log and to OUT_DIR/profile-NAME.txt.
if wants profile; then
  for run in "mlp_1024 --data $data --lr 0.1" "transformer --data $text --lr 0.003" \
             "transformer_fused --data $text --lr 0.003" "cnn --data $data --lr 0.02"; do
    set -- $run
    name=$1; shift
    note "profile of $name on the GPU"
    timeout 120 "${tessel_env[@]}" "$bin/$name.gpu" --steps 30 --no-evaluate --log-every 1000 \
      --profile "$@" > "$out/profile-$name.txt" 2>&1
    grep -v -i pmix "$out/profile-$name.txt" >> "$log"
  done
fi

# Every kernel's device time (Nsight Compute's summary per kernel name) in
# two steps of the MLP and the CNN, to OUT_DIR/kernels.txt.
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
if wants kernels && [ -n "$ncu" ]; then
  : > "$out/kernels.txt"
  for run in "mlp_1024 --data $data --lr 0.1" "cnn --data $data --lr 0.02"; do
    set -- $run
    name=$1; shift
    note "kernels of $name (ncu)"
    echo "### $name" >> "$out/kernels.txt"
    timeout 180 "${tessel_env[@]}" "$ncu" --metrics gpu__time_duration.sum --print-summary per-kernel \
      "$bin/$name.gpu" --steps 2 --no-evaluate --log-every 1000 "$@" 2>&1 |
      grep -v -i pmix >> "$out/kernels.txt"
  done
fi

# What `tessel calibrate --target cuda` runs, with the probe's output saved
# for `tessel calibrate --probe-output OUT_DIR/calibrate` where tessel is
# (docs/gpu.md, "Calibrating the GPU"): the machine and the kernels on one
# rank, then 2, 4, ... ranks up to the devices (NCCL takes one device a
# rank) with their kernels and collectives.
if wants calibrate; then
  note "the calibrate probe on the GPU runtime"
  mkdir -p "$out/calibrate"
  devices=$("${tessel_env[@]}" "$bin/tessel-cuda-probe" 2>/dev/null | awk '{print $1}')
  [[ $devices =~ ^[0-9]+$ ]] || record calibrate "not run: no CUDA device"
  ranks=1
  while [[ $devices =~ ^[0-9]+$ && $ranks -le $devices ]]; do
    modes=(--kernels --per-op)
    [ "$ranks" -eq 1 ] && modes+=(--machine) || modes+=(--collectives)
    timeout --kill-after=10 300 "${tessel_env[@]}" mpirun -n "$ranks" --bind-to none \
      "$bin/tessel-calibrate-probe-cuda" "${modes[@]}" > "$out/calibrate/ranks-$ranks.jsonl" 2>> "$log"
    record "calibrate_probe_${ranks}_ranks" "status $? $(wc -l < "$out/calibrate/ranks-$ranks.jsonl") lines"
    ranks=$((ranks * 2))
  done
fi

python3 - "$results" "$out/summary.md" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
text = "| what | result |\n| --- | --- |\n" + "".join(f"| {r['key']} | {r['value']} |\n" for r in rows)
open(sys.argv[2], "w").write(text)
print(text)
EOF
rm -rf "$work"
