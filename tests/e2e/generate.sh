#!/usr/bin/env bash
# End to end: text generation with examples/gpt's decode function and its
# key/value caches. The model is trained for 300 steps on 2 ranks (data:2) with a
# checkpoint; forward-only programs (tessel compile --mode infer) under five
# other layouts and rank counts (1 rank; data:2 on a batch of 2 rows per
# rank; heads, d_ff and the vocabulary over model:2; data:2 x model:2; the
# caches' positions over model:2)
# continue five prompts (two batches of four rows) from it: greedy decoding
# gives the same text under every layout, and so does sampling with a seed
# (temperature and top-k); another seed gives other text, and the training
# program generates too.
#
# usage: generate.sh BUILD_BIN_DIR EXAMPLES_DIR
set -euo pipefail
bin=$1
examples=$2
source "$(dirname "$0")/common.sh"
export OMPI_MCA_mpi_yield_when_idle=1
model=$examples/gpt/gpt.mlir

"$bin/tessel" compile "$model" --mesh "data:2" --rules "batch:data" --optimizer adamw \
  -o "$work/train.spmd"
mpirun -n 2 --oversubscribe "$work/train.spmd" --steps 300 --lr 0.003 --log-every 1000 \
  --checkpoint-dir "$work/ckpt" --no-evaluate > "$work/train.out"
printf '%s\n' "The " "Licensed" "GNU General" "you may " "Copyright (C) " \
  > "$work/prompts.txt"

layouts=(
  "one|data:1|batch:data"
  "data|data:2|batch:data"
  "model|model:2|heads:model;d_ff:model;vocab:model"
  "hybrid|data:2;model:2|batch:data;heads:model;d_ff:model"
  "positions|model:2|key:model"
)
generate() { # layout name, mesh, rules, output name, generate options...
  local name=$1 mesh=$2 rules=$3 out=$4
  shift 4
  local ranks
  ranks=$(python3 -c "import math,sys; print(math.prod(int(a.split(':')[1]) \
for a in sys.argv[1].split(';')))" "$mesh")
  [ -f "$work/$name.spmd" ] ||
    "$bin/tessel" compile "$model" --mode infer --mesh "$mesh" --rules "$rules" \
      -o "$work/$name.spmd"
  mpirun -n "$ranks" --oversubscribe "$work/$name.spmd" generate \
    --checkpoint-dir "$work/ckpt" --prompts "$work/prompts.txt" --max-tokens 10 \
    --output "$work/$out.jsonl" "$@" > "$work/$out.out" 2>&1 ||
    { head -3 "$work/$out.out"; return 1; }
}

# The continuations of a run's output (its last line, the totals, holds
# timings).
same_text() { # output name, output name
  cmp <(grep '"prompt"' "$work/$1.jsonl") <(grep '"prompt"' "$work/$2.jsonl")
}

for entry in "${layouts[@]}"; do
  IFS='|' read -r name mesh rules <<< "$entry"
  status=0
  generate "$name" "$mesh" "$rules" "$name.greedy" || status=1
  if [ "$name" != one ] && [ $status -eq 0 ]; then
    same_text one.greedy "$name.greedy" || status=1
  fi
  result "greedy text on $mesh ($rules) is the 1-rank text" $status
  status=0
  generate "$name" "$mesh" "$rules" "$name.sampled" --temperature 0.8 --top-k 40 --seed 7 ||
    status=1
  if [ "$name" != one ] && [ $status -eq 0 ]; then
    same_text one.sampled "$name.sampled" || status=1
  fi
  result "text sampled with seed 7 on $mesh is the 1-rank text" $status
done

# Every prompt is continued by --max-tokens bytes (the longest reaches the
# end of the 16-position context first), and greedy decoding is not
# sampling.
status=0
python3 - "$work" <<'EOF' || status=1
import json, sys
work = sys.argv[1]
*rows, totals = [json.loads(line) for line in open(f"{work}/one.greedy.jsonl")]
prompts = open(f"{work}/prompts.txt").read().splitlines()
assert [row["prompt"] for row in rows] == prompts, rows
for row in rows:
    expected = min(10, 16 + 1 - len(row["prompt"]))
    assert len(row["tokens"]) == expected, row
    assert row["context_full"] == (expected < 10), row
assert totals["generated_tokens"] == sum(len(row["tokens"]) for row in rows), totals
assert totals["prompts"] == len(rows) and totals["tokens_per_s"] > 0, totals
sampled = [json.loads(line) for line in open(f"{work}/one.sampled.jsonl")][:-1]
assert [r["tokens"] for r in sampled] != [r["tokens"] for r in rows]
EOF
result "every prompt gets its tokens, up to the context's end, and the totals count them" $status

# Each prompt draws from its own generator (the seed and its place among the
# prompts), so a program compiled for batches of 2 rows (three batches
# here) samples the same text.
status=0
"$bin/tessel" compile "$model" --mode infer --batch 2 -o "$work/batch2.spmd"
"$work/batch2.spmd" generate --checkpoint-dir "$work/ckpt" --prompts "$work/prompts.txt" \
  --max-tokens 10 --temperature 0.8 --top-k 40 --seed 7 --output "$work/batch2.sampled.jsonl" \
  > "$work/batch2.out" 2>&1 && same_text one.sampled batch2.sampled || status=1
grep -q "decode calls of batch 2" "$work/batch2.out" || status=1
result "batches of 2 rows sample the text of batches of 4" $status

status=0
generate one "data:1" "batch:data" one.seed8 --temperature 0.8 --top-k 40 --seed 8 &&
  ! same_text one.sampled one.seed8 > /dev/null || status=1
result "another seed samples other text" $status

# The training program (its decode takes the parameters too) generates the
# same text from the checkpoint.
status=0
mpirun -n 2 --oversubscribe "$work/train.spmd" generate --checkpoint-dir "$work/ckpt" \
  --prompts "$work/prompts.txt" --max-tokens 10 --output "$work/train.greedy.jsonl" \
  > "$work/train.generate.out" 2>&1 &&
  same_text one.greedy train.greedy || status=1
result "the training program generates the same text" $status

# Rank 0 reads the prompts and shares them: a pipe that mpirun gives rank 0
# alone (--prompts /dev/stdin) continues them as the file does.
status=0
mpirun -n 2 --oversubscribe "$work/data.spmd" generate --checkpoint-dir "$work/ckpt" \
  --prompts /dev/stdin --max-tokens 10 --output "$work/stdin.greedy.jsonl" \
  < "$work/prompts.txt" > "$work/stdin.out" 2>&1 && same_text one.greedy stdin.greedy ||
  { head -3 "$work/stdin.out"; status=1; }
result "prompts read from a pipe on 2 ranks: the text of the prompts file" $status

# Bad requests: errors that say what is wrong, from every layout alike.
status=0
expect_error() { # message, generate options...
  local message=$1
  shift
  if mpirun -n 2 --oversubscribe "$work/data.spmd" generate "$@" > "$work/error.out" 2>&1; then
    echo "succeeded: $*"; return 1
  fi
  grep -qF -- "$message" "$work/error.out" || { head -3 "$work/error.out"; return 1; }
}
expect_error "prompt 1 is empty" --checkpoint-dir "$work/ckpt" --prompt "" || status=1
expect_error "prompt 2 has 16 bytes; the model's context holds 16 positions, so a prompt may \
have at most 15" --checkpoint-dir "$work/ckpt" --prompt a --prompt 0123456789abcdef || status=1
expect_error "--checkpoint $work: the directory holds no checkpoint" --checkpoint-dir "$work" \
  --prompt a || status=1
expect_error "File name too long" --checkpoint-dir "$work/$(printf '%05000d' 0)" --prompt a ||
  status=1
expect_error "cannot read the prompts in $work/none.txt" --checkpoint-dir "$work/ckpt" \
  --prompts "$work/none.txt" || status=1
expect_error "no prompt: give --prompt TEXT or --prompts FILE" --checkpoint-dir "$work/ckpt" ||
  status=1
# --output is never written over an input (the prompts here), and a failed
# write is an error.
cp "$work/prompts.txt" "$work/prompts.kept"
expect_error "is not a metrics file (JSON lines); refusing" --checkpoint-dir "$work/ckpt" \
  --prompts "$work/prompts.txt" --output "$work/prompts.txt" || status=1
cmp -s "$work/prompts.txt" "$work/prompts.kept" || status=1
expect_error "cannot write metrics to /dev/full" --checkpoint-dir "$work/ckpt" --prompt a \
  --output /dev/full || status=1
expect_error "--temperature: NaN is not a temperature" --checkpoint-dir "$work/ckpt" --prompt a \
  --temperature nan || status=1
# An empty path was read as not given (no --output written), and --seed -1
# wrapped to 2^64 - 1: both refused.
expect_error "--output: an empty path names nothing" --checkpoint-dir "$work/ckpt" --prompt a \
  --output "" || status=1
expect_error "--metrics: an empty path names nothing" --checkpoint-dir "$work/ckpt" --prompt a \
  --metrics= || status=1
expect_error "--seed: Value -1 is not a seed" --checkpoint-dir "$work/ckpt" --prompt a \
  --seed -1 || status=1
# Weights that are all NaN (their checksums made again): the logits pick no
# token, which is an error, not text. The sharded checkpoint's tensors are
# written as one single-file checkpoint (which tessel reads too).
mkdir "$work/nan"
python3 - "$work/ckpt" "$work/nan" <<'PY' || status=1
import glob, json, os, struct, sys, zlib
source = sorted(glob.glob(os.path.join(sys.argv[1], "step-*[0-9]")))[-1]
index = json.load(open(os.path.join(source, "model.safetensors.index.json")))
tensors, metadata = {}, {"format": "tessel", "step": index["metadata"]["step"]}
for shard in sorted(set(index["weight_map"].values())):
    raw = open(os.path.join(source, shard), "rb").read()
    length = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + length])
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        begin, end = entry["data_offsets"]
        data = raw[8 + length + begin:8 + length + end]
        if entry["dtype"] == "F32":
            data = struct.pack("<f", float("nan")) * ((end - begin) // 4)
        tensors[name] = (entry["dtype"], entry["shape"], data)
        metadata["dims." + name] = header["__metadata__"]["dims." + name]
        metadata["crc32." + name] = "%08x" % zlib.crc32(data)
header, offset = {"__metadata__": metadata}, 0
for name, (dtype, shape, data) in tensors.items():
    header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + len(data)]}
    offset += len(data)
text = json.dumps(header).encode()
open(os.path.join(sys.argv[2], os.path.basename(source) + ".safetensors"), "wb").write(
    len(text).to_bytes(8, "little") + text + b"".join(t[2] for t in tensors.values()))
PY
expect_error "decode's logits for prompt 1 at position 0 hold a NaN or +inf" \
  --checkpoint-dir "$work/nan" --prompt a || status=1
"$bin/tessel" compile "$examples/mlp/mlp.mlir" --mode infer -o "$work/mlp.spmd"
"$work/mlp.spmd" generate --checkpoint-dir "$work/ckpt" --prompt a > "$work/mlp.out" 2>&1 &&
  status=1
grep -qF "the program has no 'decode' function" "$work/mlp.out" || status=1
result "empty and too long prompts, no checkpoint, a path too long, no prompt, --output onto the prompts or a full disk, a NaN temperature, an empty path, a negative seed, NaN weights and no decode are errors" $status

# Every rank reads the checkpoint rank 0 finds: here rank 1 is pointed at
# the directory of NaN weights above (standing in for a directory in which
# training wrote a newer checkpoint between the ranks' looks) and still
# decodes with rank 0's weights.
status=0
mpirun --oversubscribe -n 1 "$work/data.spmd" generate --checkpoint-dir "$work/ckpt" \
  --prompts "$work/prompts.txt" --max-tokens 10 --output "$work/agreed.greedy.jsonl" : \
  -n 1 "$work/data.spmd" generate --checkpoint-dir "$work/nan" --prompts "$work/prompts.txt" \
  --max-tokens 10 > "$work/agreed.out" 2>&1 && same_text one.greedy agreed.greedy ||
  { head -3 "$work/agreed.out"; status=1; }
result "every rank reads the checkpoint rank 0 finds" $status

finish
