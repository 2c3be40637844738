#!/usr/bin/env bash
# End to end: the MLP compiled by `tessel compile` and trained under mpirun
# on Fashion-MNIST. Every layout on 1, 2, 4, 8 and 9 (padded) ranks gives the 1-rank
# loss curve; training reaches 85% test accuracy; a (sharded) checkpoint written under
# one layout resumes under another layout and rank count with the same next
# losses; a rank count that does not match the mesh is a clear error.
#
# usage: train_mlp.sh BUILD_BIN_DIR EXAMPLES_DIR
set -euo pipefail
bin=$1
examples=$2
source "$(dirname "$0")/common.sh"
require_fashion_mnist
model=$examples/mlp/mlp.mlir
train=(--optimizer momentum)
steps=100
run_opts=(--data "$data" --lr 0.02 --seed 3 --log-every 1000 --no-evaluate)

ranks_of() { # a compiled program's rank count, from its mesh
  "$bin/tessel" compile "$model" "${@}" "${train[@]}" --emit=mlir -o "$work/probe.mlir"
  python3 -c '
import re, sys
text = open(sys.argv[1]).read()
mesh = re.search(r"#tessel.mesh<\[([^\]]*)\]>", text)
sizes = [int(p.split(":")[1]) for p in mesh.group(1).split(",")] if mesh else []
n = 1
for s in sizes: n *= s
print(n)' "$work/probe.mlir"
}

# The one-rank reference.
"$bin/tessel" compile "$model" "${train[@]}" -o "$work/reference.spmd"
"$work/reference.spmd" --steps $steps --metrics "$work/reference.jsonl" "${run_opts[@]}" > "$work/reference.out"

# Every layout file, and meshes of 2 and 8 ranks.
layouts=(
  "data.yaml|--layout|$examples/mlp/data.yaml"
  "model.yaml|--layout|$examples/mlp/model.yaml"
  "hybrid.yaml|--layout|$examples/mlp/hybrid.yaml"
  "data:2|--mesh=data:2|--rules=batch:data"
  "model:2 (classes)|--mesh=model:2|--rules=classes:model"
  "data:8|--mesh=data:8|--rules=batch:data"
  "data:2 x model:4|--mesh=data:2;model:4|--rules=batch:data;hidden:model"
  "data:3 x model:3, padded|--mesh=data:3;model:3|--rules=batch:data;hidden:model|--pad-uneven"
)
for entry in "${layouts[@]}"; do
  IFS='|' read -r name a b c <<< "$entry"
  file=$(echo "$name" | tr -c "A-Za-z0-9\n" "_")
  n=$(ranks_of "$a" "$b" ${c:+"$c"})
  status=0
  "$bin/tessel" compile "$model" "$a" "$b" ${c:+"$c"} "${train[@]}" -o "$work/$file.spmd" &&
    mpirun -n "$n" --oversubscribe "$work/$file.spmd" --steps $steps \
      --metrics "$work/$file.jsonl" "${run_opts[@]}" > "$work/$file.out" 2>&1 &&
    python3 "$here/compare_losses.py" "$work/reference.jsonl" "$work/$file.jsonl" 1e-4 ||
    { status=1; tail -5 "$work/$file.out"; }
  result "$name on $n ranks: the 1-rank loss curve over $steps steps" $status
done

# A checkpoint written on 4 ranks (hybrid) resumes on 2 ranks (data) and on
# one rank with the losses the uninterrupted run has.
status=0
mpirun -n 4 --oversubscribe "$work/hybrid_yaml.spmd" --steps 60 --checkpoint-dir "$work/ckpt" \
  --checkpoint-every 60 "${run_opts[@]}" > "$work/ckpt.out" 2>&1 &&
  cp -r "$work/ckpt" "$work/ckpt1" &&
  mpirun -n 2 --oversubscribe "$work/data_2.spmd" --steps 80 --checkpoint-dir "$work/ckpt" --resume \
    --metrics "$work/resumed2.jsonl" "${run_opts[@]}" >> "$work/ckpt.out" 2>&1 &&
  python3 "$here/compare_losses.py" "$work/reference.jsonl" "$work/resumed2.jsonl" 1e-5 61 ||
  { status=1; tail -5 "$work/ckpt.out"; }
result "checkpoint of hybrid on 4 ranks resumed as data:2 on 2 ranks" $status
status=0
"$work/reference.spmd" --steps 70 --checkpoint-dir "$work/ckpt1" --resume \
  --metrics "$work/resumed1.jsonl" "${run_opts[@]}" > "$work/ckpt1.out" 2>&1 &&
  python3 "$here/compare_losses.py" "$work/reference.jsonl" "$work/resumed1.jsonl" 1e-5 61 ||
  { status=1; tail -5 "$work/ckpt1.out"; }
result "the same checkpoint resumed on 1 rank" $status

# The checkpoint of the 4-rank job is sharded: an index in Hugging Face's
# format naming a shard file for each tensor, each written by one rank. It
# reads by the format alone (the index, then each shard's header, ranges
# and CRC-32s), and with the safetensors package where it is installed.
status=0
python3 - "$work/ckpt1/step-00000060" <<'PY' || status=1
import json, os, struct, sys, zlib
root = sys.argv[1]
index = json.load(open(os.path.join(root, "model.safetensors.index.json")))
files = sorted(set(index["weight_map"].values()))
assert index["metadata"]["step"] == "60", index["metadata"]
assert len(files) == 4 and all(f == f"model-{k:05d}-of-00004.safetensors"
                               for k, f in enumerate(files, 1)), files
total = 0
for name in files:
    raw = open(os.path.join(root, name), "rb").read()
    length = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + length])
    meta = header.pop("__metadata__")
    for tensor, entry in header.items():
        assert index["weight_map"][tensor] == name, tensor
        begin, end = entry["data_offsets"]
        assert 8 + length + end <= len(raw), tensor
        assert "%08x" % zlib.crc32(raw[8 + length + begin:8 + length + end]) == meta["crc32." + tensor]
        total += end - begin
assert total == index["metadata"]["total_size"]
try:
    from safetensors.numpy import load_file
except ImportError:
    print("safetensors not installed: read by the format only")
else:
    names = set()
    for name in files:
        names |= set(load_file(os.path.join(root, name)))
    assert names == set(index["weight_map"]), names
    print(f"safetensors read {len(names)} tensors")
print(f"{len(index['weight_map'])} tensors in {len(files)} shards, {total} bytes")
PY
result "the 4-rank checkpoint: an index and 4 shards that read by the format" $status

# The other way: a checkpoint written on 2 ranks (data) resumes on 4
# (hybrid: w1 split by columns, w2 by rows), each rank reading its blocks.
status=0
mpirun -n 2 --oversubscribe "$work/data_2.spmd" --steps 60 --checkpoint-dir "$work/ckpt2" \
  --checkpoint-every 60 "${run_opts[@]}" > "$work/ckpt2.out" 2>&1 &&
  cp -r "$work/ckpt2" "$work/ckpt2.bad" &&
  mpirun -n 4 --oversubscribe "$work/hybrid_yaml.spmd" --steps 80 --checkpoint-dir "$work/ckpt2" \
    --resume --metrics "$work/resumed4.jsonl" "${run_opts[@]}" >> "$work/ckpt2.out" 2>&1 &&
  python3 "$here/compare_losses.py" "$work/reference.jsonl" "$work/resumed4.jsonl" 1e-5 61 ||
  { status=1; tail -5 "$work/ckpt2.out"; }
result "checkpoint of data:2 on 2 ranks resumed as hybrid on 4 ranks" $status

# A shard that is missing or damaged stops every rank with a message naming
# the file and the tensor, and exit 1 (not a hang, not a crash).
status=0
bad=$work/ckpt2.bad/step-00000060
shard=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["weight_map"]["w1"])' \
  "$bad/model.safetensors.index.json")
mv "$bad/$shard" "$work/saved.safetensors"
job_status=0
timeout 120 mpirun -n 4 --oversubscribe "$work/hybrid_yaml.spmd" --steps 61 \
  --checkpoint-dir "$work/ckpt2.bad" --resume "${run_opts[@]}" > "$work/bad.out" 2>&1 || job_status=$?
[ "$job_status" -eq 1 ] || status=1
grep -F "its shard $bad/$shard, which holds tensor '" "$work/bad.out" | grep -q "is missing" ||
  { tail -3 "$work/bad.out"; status=1; }
# One flipped byte in w1's data: the rank whose block holds it says so.
python3 - "$work/saved.safetensors" "$bad/$shard" <<'PY'
import json, struct, sys
raw = bytearray(open(sys.argv[1], "rb").read())
length = struct.unpack("<Q", raw[:8])[0]
begin, end = json.loads(raw[8:8 + length])["w1"]["data_offsets"]
raw[8 + length + (begin + end) // 2] ^= 0x40
open(sys.argv[2], "wb").write(raw)
PY
job_status=0
timeout 120 mpirun -n 4 --oversubscribe "$work/hybrid_yaml.spmd" --steps 61 \
  --checkpoint-dir "$work/ckpt2.bad" --resume "${run_opts[@]}" > "$work/bad.out" 2>&1 || job_status=$?
[ "$job_status" -eq 1 ] || status=1
grep -F "checkpoint $bad/$shard: tensor 'w1' fails its CRC-32 check" "$work/bad.out" ||
  { tail -3 "$work/bad.out"; status=1; }
result "a missing or damaged shard: an error naming the file and the tensor, exit 1" $status

# A program for 4 ranks started on 2 says so and fails.
status=0
if mpirun -n 2 --oversubscribe "$work/hybrid_yaml.spmd" --steps 1 "${run_opts[@]}" > "$work/mismatch.out" 2>&1; then
  status=1
fi
grep -q "needs 4 ranks, but mpirun started 2" "$work/mismatch.out" || status=1
[ $status -eq 0 ] || cat "$work/mismatch.out"
result "mesh data:2 x model:2 on 2 ranks is an error" $status

# Training to 85% test accuracy (one rank, 3000 steps of momentum SGD,
# about three epochs).
status=0
"$work/reference.spmd" --data "$data" --lr 0.02 --seed 3 --steps 3000 --log-every 1000 \
  > "$work/accuracy.out" 2>&1 || status=1
cat "$work/accuracy.out"
python3 - "$work/accuracy.out" <<'PY' || status=1
import re, sys
match = re.search(r"test accuracy ([0-9.]+)%", open(sys.argv[1]).read())
accuracy = float(match.group(1)) if match else 0.0
print(f"test accuracy {accuracy}% (at least 85% needed)")
sys.exit(0 if accuracy >= 85.0 else 1)
PY
result "the MLP reaches 85% test accuracy" $status

finish
