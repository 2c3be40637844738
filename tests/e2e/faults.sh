#!/usr/bin/env bash
# Faults during training, under mpirun: the MLP (data:2, momentum SGD) on
# two ranks.
#
# 1. A rank killed with SIGKILL in the middle of training ends the job
#    within BOUND seconds, with a non-zero status and a message that names
#    the rank, instead of leaving the other rank waiting in a collective.
# 2. Restarting with --resume continues from the last checkpoint with the
#    losses of an uninterrupted run.
# 3. Rank 0, the one that writes checkpoints, killed six times while it
#    writes one every step, three of them inside a write: every time, the
#    newest whole checkpoint loads, and the resumed run keeps to the
#    uninterrupted run's losses.
# 4. A rank that hangs without dying (stopped with SIGSTOP): with
#    --step-timeout, the other rank's watchdog ends it and the job ends
#    within BOUND seconds, naming the rank and the step.
# 5. A FIFO named like a newer checkpoint does not block --resume, and
#    programs that would read out of bounds or lose a tensor are refused
#    before training: an evaluate whose parameter has a trained name but
#    another size, and a parameter named __metadata__; a test split
#    smaller than one batch is an error too, and a forward-only run's
#    --out the --data directory; every rank resumes from the checkpoint
#    rank 0 finds.
#
# Every job runs under `timeout`, so a hang fails the test instead of
# stalling the suite.
#
# usage: faults.sh BUILD_BIN_DIR EXAMPLES_DIR
set -euo pipefail
bin=$1
examples=$2
source "$(dirname "$0")/common.sh"
require_fashion_mnist
jobs_started=()
cleanup() {
  # Only the jobs this script started, by their process ids.
  for pid in "${jobs_started[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
BOUND=${TESSEL_FAULT_BOUND:-30}
# Enough steps that six kill-and-resume segments in part 3 (each runs
# tens of steps before its kill lands on a loaded machine) never reach the
# end of training.
steps=600
# A 1024-wide hidden layer makes each checkpoint about 6.5 MB (weights and
# momentum), so that a write takes long enough for random kills to land in
# it.
program=$work/mlp.spmd
"$bin/tessel" compile "$examples/mlp/mlp.mlir" --mesh data:2 --rules batch:data \
  --dim-size hidden=1024 --optimizer momentum -o "$program"
run_opts=(--data "$data" --lr 0.02 --seed 3 --log-every 1000 --no-evaluate --steps $steps)
mpi=(mpirun -n 2 --oversubscribe --bind-to none)

# The process id of `rank` of the running program, from the rank Open MPI
# puts in each process's environment; empty until it has started.
# Reads /proc rather than using pgrep, which a minimal system may lack.
pid_of_rank() {
  local entry command
  for entry in /proc/[0-9]*; do
    command=$(tr '\0' ' ' < "$entry/cmdline" 2>/dev/null) || continue
    [[ "$command" == "$program "* ]] || continue
    if tr '\0' '\n' < "$entry/environ" 2>/dev/null |
        grep -qx "OMPI_COMM_WORLD_RANK=$1"; then
      echo "${entry#/proc/}"
      return
    fi
  done
}

# The number of steps a metrics file records (its last line may be cut
# short by a kill).
steps_done() {
  [ -f "$1" ] || { echo 0; return; }
  grep -c '"loss"' "$1" || true
}

# Starts a job in the background (its output in $2); sets job_pid.
start_job() { # metrics, output, extra options...
  local metrics=$1 output=$2
  shift 2
  timeout -k 10 300 "${mpi[@]}" "$program" "${run_opts[@]}" --metrics "$metrics" \
    "$@" > "$output" 2>&1 &
  job_pid=$!
  jobs_started+=("$job_pid")
}

# Waits until the metrics file records at least $2 steps (or the job ends).
wait_for_steps() { # metrics, steps, job pid
  local waited=0
  while [ "$(steps_done "$1")" -lt "$2" ] && kill -0 "$3" 2>/dev/null; do
    sleep 0.1
    waited=$((waited + 1))
    [ $waited -lt 1200 ] || return 1
  done
}

# The uninterrupted run.
timeout -k 10 300 "${mpi[@]}" "$program" "${run_opts[@]}" --metrics "$work/reference.jsonl" \
  > "$work/reference.out" 2>&1 || { cat "$work/reference.out"; exit 1; }

# 1. Kill rank 1 after step 30, with checkpoints every 10 steps.
status=0
start_job "$work/killed.jsonl" "$work/killed.out" --checkpoint-dir "$work/ckpt" --checkpoint-every 10
wait_for_steps "$work/killed.jsonl" 30 "$job_pid" || status=1
victim=$(pid_of_rank 1)
if [ -z "$victim" ]; then
  echo "rank 1 not found"; status=1
else
  killed_at=$(date +%s.%N)
  kill -9 "$victim"
  job_status=0
  wait "$job_pid" || job_status=$?
  seconds=$(awk -v a="$killed_at" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  echo "rank 1 killed after step $(steps_done "$work/killed.jsonl"); the job ended" \
       "$seconds s later with status $job_status"
  [ "$job_status" -ne 0 ] || { echo "the job exited 0"; status=1; }
  # 124: timeout stopped it; the job must have ended well before that.
  [ "$job_status" -ne 124 ] || { echo "the job hung"; status=1; }
  awk -v s="$seconds" -v b="$BOUND" 'BEGIN { exit !(s < b) }' || { echo "not within ${BOUND}s"; status=1; }
  grep -E "process rank 1 .*(signal 9|Killed)" "$work/killed.out" ||
    { echo "no message naming rank 1:"; cat "$work/killed.out"; status=1; }
fi
result "rank 1 killed: the job ends within ${BOUND}s naming rank 1" $status

# 2. Resume from the last checkpoint the killed job wrote.
status=0
last=$(ls "$work/ckpt" | grep -E '^step-[0-9]+$' | sort | tail -1)
timeout -k 10 300 "${mpi[@]}" "$program" "${run_opts[@]}" --checkpoint-dir "$work/ckpt" \
  --resume --metrics "$work/resumed.jsonl" > "$work/resumed.out" 2>&1 || status=1
grep "resumed from .*$last" "$work/resumed.out" || status=1
python3 "$here/compare_losses.py" "$work/reference.jsonl" "$work/resumed.jsonl" 1e-6 || status=1
[ "$(steps_done "$work/resumed.jsonl")" -gt 0 ] || status=1
[ $status -eq 0 ] || tail -5 "$work/resumed.out"
result "resumed after the kill from $last: the uninterrupted run's losses to step $steps" $status

# 3. Kill rank 0 while it writes a checkpoint every step: three times at
# a random moment (which rarely falls inside a write: a write is a few
# milliseconds of a step), three times the moment its temporary file
# appears, which is inside a write. After each, the next job must resume
# from the newest whole checkpoint and keep to the reference's losses.
status=0
rm -rf "$work/ckpt"
mkdir -p "$work/ckpt"
kills=0
inside_writes=0
RANDOM=7
expected_resume=""
for attempt in 1 2 3 4 5 6; do
  metrics=$work/segment$attempt.jsonl
  start_job "$metrics" "$work/segment$attempt.out" --checkpoint-dir "$work/ckpt" \
    --checkpoint-every 1 --resume
  wait_for_steps "$metrics" 3 "$job_pid" || status=1
  victim=$(pid_of_rank 0)
  [ -n "$victim" ] || { echo "rank 0 not found"; status=1; break; }
  if [ $attempt -le 3 ]; then
    sleep "0.$((RANDOM % 50))"
    kill -9 "$victim"
  else
    # Polls every 0.2 ms for the writer's temporary file, then kills.
    python3 - "$work/ckpt" "$victim" <<'PY' || status=1
import os, signal, sys, time
directory, pid = sys.argv[1], int(sys.argv[2])
deadline = time.time() + 60
while time.time() < deadline:
    if any(name.endswith(".tmp") for name in os.listdir(directory)):
        os.kill(pid, signal.SIGKILL)
        sys.exit(0)
    time.sleep(0.0002)
sys.exit("no checkpoint write seen in 60 s")
PY
  fi
  job_status=0
  wait "$job_pid" || job_status=$?
  [ "$job_status" -ne 0 ] && [ "$job_status" -ne 124 ] ||
    { echo "kill $attempt: job status $job_status"; status=1; }
  kills=$((kills + 1))
  # Checked at the start of the next job: it resumed from this checkpoint.
  if [ -n "$expected_resume" ]; then
    grep -q "resumed from .*/$expected_resume after" "$work/segment$attempt.out" ||
      { echo "job $attempt did not resume from $expected_resume"; status=1; }
  fi
  newest=$(ls "$work/ckpt" | grep -E '^step-[0-9]+$' | sort | tail -1)
  temporary=$(ls -a "$work/ckpt" | grep '\.tmp$' || true)
  if [ -n "$temporary" ]; then
    inside_writes=$((inside_writes + 1))
    echo "kill $attempt landed inside the write of $temporary; newest whole checkpoint: $newest"
  else
    echo "kill $attempt landed between writes; newest checkpoint: $newest"
  fi
  expected_resume=$newest
  # What this job trained before the kill has the reference's losses.
  python3 "$here/compare_losses.py" "$work/reference.jsonl" "$metrics" 1e-6 ||
    { status=1; tail -5 "$work/segment$attempt.out"; }
done
echo "$kills kills of rank 0, $inside_writes inside a checkpoint write"
[ $inside_writes -gt 0 ] || status=1
# The latest checkpoint loads and the run finishes with the reference's
# losses.
timeout -k 10 300 "${mpi[@]}" "$program" "${run_opts[@]}" --checkpoint-dir "$work/ckpt" \
  --resume --metrics "$work/final.jsonl" > "$work/final.out" 2>&1 || status=1
grep "resumed from .*/$expected_resume after" "$work/final.out" || status=1
python3 "$here/compare_losses.py" "$work/reference.jsonl" "$work/final.jsonl" 1e-6 || status=1
[ $status -eq 0 ] || tail -5 "$work/final.out"
result "rank 0 killed $kills times while writing checkpoints: each time the last checkpoint resumes with the reference's losses" $status

# 4. Stop rank 1 (it stays alive but never reaches the next collective).
status=0
start_job "$work/hung.jsonl" "$work/hung.out" --step-timeout 3
wait_for_steps "$work/hung.jsonl" 30 "$job_pid" || status=1
victim=$(pid_of_rank 1)
if [ -z "$victim" ]; then
  echo "rank 1 not found"
  status=1
else
  kill -STOP "$victim"
  stopped_at=$(date +%s.%N)
  job_status=0
  wait "$job_pid" || job_status=$?
  seconds=$(awk -v a="$stopped_at" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  # The stopped rank, if mpirun left it, goes now.
  kill -CONT "$victim" 2>/dev/null || true
  kill -9 "$victim" 2>/dev/null || true
  echo "rank 1 stopped after step $(steps_done "$work/hung.jsonl"); the job ended" \
    "$seconds s later with status $job_status"
  [ "$job_status" -ne 0 ] && [ "$job_status" -ne 124 ] || status=1
  awk -v s="$seconds" -v b="$BOUND" 'BEGIN { exit !(s < b) }' || status=1
  grep -E "rank 0: error: step [0-9]+ has not finished after [0-9.]+ s \(--step-timeout 3\)" \
    "$work/hung.out" || { echo "no message naming the step:"; tail -5 "$work/hung.out"; status=1; }
fi
result "rank 1 stopped: the watchdog ends the job within ${BOUND}s naming the step" $status

# 5. A FIFO among the checkpoints: --resume takes the newest whole one.
status=0
mkdir -p "$work/fifo"
timeout 120 "${mpi[@]}" "$program" --data "$data" --steps 3 --no-evaluate \
  --checkpoint-dir "$work/fifo" > "$work/fifo.out" 2>&1 || status=1
mkfifo "$work/fifo/step-00000099.safetensors" "$work/fifo/step-00000098"
# A sharded checkpoint whose index is a FIFO is not one either.
mkdir "$work/fifo/step-00000097" && mkfifo "$work/fifo/step-00000097/model.safetensors.index.json"
timeout 60 "${mpi[@]}" "$program" --data "$data" --steps 5 --no-evaluate \
  --checkpoint-dir "$work/fifo" --resume >> "$work/fifo.out" 2>&1 || status=1
grep -q "resumed from $work/fifo/step-00000003 after step 3" "$work/fifo.out" ||
  { tail -5 "$work/fifo.out"; status=1; }
result "FIFOs named like newer checkpoints: --resume takes the newest whole one" $status

# An evaluate whose 'b2' is the trained 'b1' (and the other way round):
# same names, other sizes.
status=0
python3 - "$examples/mlp/mlp.mlir" "$work/swapped.mlir" "$work/reserved.mlir" <<'PY'
import sys
source = open(sys.argv[1]).read()
start, end = source.index("func.func @evaluate("), source.index("func.func @predict(")
evaluate = (source[start:end].replace('parameter "b2"', 'parameter "B"')
            .replace('parameter "b1"', 'parameter "b2"').replace('parameter "B"', 'parameter "b1"'))
open(sys.argv[2], "w").write(source[:start] + evaluate + source[end:])
open(sys.argv[3], "w").write(source.replace('"w1"', '"__metadata__"'))
PY
"$bin/tessel" compile "$work/swapped.mlir" --mesh data:1 --rules batch:data -o "$work/swapped.spmd"
job_status=0
timeout 120 mpirun -n 1 "$work/swapped.spmd" --data "$data" --steps 2 > "$work/swapped.out" 2>&1 || job_status=$?
[ "$job_status" -eq 1 ] || status=1
grep -F "tessel: evaluate's 'b2' is [hidden:256] f32 (on this rank [hidden:256] f32), but the trained 'b2' is [classes:10] f32" \
  "$work/swapped.out" || { tail -5 "$work/swapped.out"; status=1; }
grep -q "^step" "$work/swapped.out" && { echo "it trained"; status=1; }
result "an evaluate parameter of the trained name but another size is refused before training" $status

status=0
"$bin/tessel" compile "$work/reserved.mlir" --mesh data:1 --rules batch:data -o "$work/reserved.spmd"
job_status=0
timeout 120 mpirun -n 1 "$work/reserved.spmd" --data "$data" --steps 2 --checkpoint-dir "$work/reserved" \
  > "$work/reserved.out" 2>&1 || job_status=$?
[ "$job_status" -eq 1 ] || status=1
grep -F "tessel: the model has a tensor named '__metadata__', the name safetensors checkpoints reserve" \
  "$work/reserved.out" || { tail -5 "$work/reserved.out"; status=1; }
result "a parameter named __metadata__ is refused before training" $status

# A test split smaller than one batch: an error before training, not an
# evaluation skipped without a word.
status=0
mkdir -p "$work/small"
for f in "$data"/train-*; do ln -s "$f" "$work/small/"; done
python3 - "$work/small" <<'PY'
import struct, sys
with open(f"{sys.argv[1]}/t10k-images-idx3-ubyte", "wb") as f:
    f.write(struct.pack(">BBBBIII", 0, 0, 8, 3, 10, 28, 28) + bytes(10 * 784))
with open(f"{sys.argv[1]}/t10k-labels-idx1-ubyte", "wb") as f:
    f.write(struct.pack(">BBBBI", 0, 0, 8, 1, 10) + bytes(10))
PY
job_status=0
timeout 120 "${mpi[@]}" "$program" --data "$work/small" --steps 2 > "$work/small.out" 2>&1 || job_status=$?
[ "$job_status" -eq 1 ] || status=1
grep -F "the held-out data hold 10 examples, fewer than one batch of 64" "$work/small.out" ||
  { tail -5 "$work/small.out"; status=1; }
result "a test split smaller than one batch is an error before training" $status

# A forward-only run never writes its results among its data: --out the
# --data directory would replace labels.npy or add arrays to the data.
status=0
"$bin/tessel" compile "$examples/mlp/mlp.mlir" --mode infer --dim-size hidden=1024 \
  --mesh data:1 --rules batch:data -o "$work/infer.spmd"
mkdir -p "$work/npydata"
python3 - "$work/npydata" <<'PY'
import struct, sys
def save(name, descr, shape, payload):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(f"{sys.argv[1]}/{name}", "wb") as out:
        out.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + payload)
save("images.npy", "<f4", "(64, 784)", bytes(64 * 784 * 4))
save("labels.npy", "<i4", "(64,)", b"".join(struct.pack("<i", i % 10) for i in range(64)))
PY
cp -r "$work/npydata" "$work/npydata.orig"
job_status=0
timeout 120 mpirun -n 1 "$work/infer.spmd" --checkpoint "$work/fifo/step-00000003" \
  --function predict --data "$work/npydata" --out "$work/npydata" > "$work/infer.out" 2>&1 || job_status=$?
[ "$job_status" -eq 1 ] || status=1
grep -F "tessel: --out $work/npydata is the --data directory; write the results elsewhere" "$work/infer.out" ||
  { tail -5 "$work/infer.out"; status=1; }
diff -r "$work/npydata" "$work/npydata.orig" || status=1
result "a forward-only run refuses --out the --data directory, which stays as it was" $status

# Every rank resumes from the checkpoint rank 0 finds: here rank 1 is
# pointed at an empty directory (standing in for a node whose view of the
# checkpoint directory lags behind) and still resumes step 5 with rank 0,
# instead of starting from step 0 and waiting in other collectives.
status=0
mkdir -p "$work/lagging"
timeout 120 mpirun --oversubscribe --bind-to none \
  -n 1 "$program" --data "$data" --steps 7 --no-evaluate --checkpoint-dir "$work/fifo" --resume : \
  -n 1 "$program" --data "$data" --steps 7 --no-evaluate --checkpoint-dir "$work/lagging" --resume \
  > "$work/agreed.out" 2>&1 || status=1
grep -q "resumed from $work/fifo/step-00000005 after step 5" "$work/agreed.out" ||
  { tail -5 "$work/agreed.out"; status=1; }
# Both ranks wrote their shards into rank 0's directory.
[ -f "$work/fifo/step-00000007/model-00002-of-00002.safetensors" ] || status=1
[ -z "$(ls -A "$work/lagging")" ] || status=1
grep -q "trained steps 6-7" "$work/agreed.out" || status=1
result "every rank resumes from the checkpoint rank 0 finds" $status

finish
