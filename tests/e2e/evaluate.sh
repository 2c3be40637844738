#!/usr/bin/env bash
# End to end: evaluation on held-out data, after training and every
# --eval-every steps (docs/training.md, "Evaluation").
#
# A bigram language model with an `evaluate` function (models/bigram_lm.mlir)
# trains on a text corpus whose last tenth uses bytes the rest never does:
# - it evaluates on that tail (not on Fashion-MNIST), with the accuracy per
#   position (not per sequence) and the perplexity exp(loss), and the
#   numbers are those computed here from its checkpoint over the tail's
#   windows;
# - it never trains on the tail: the table rows of the tail's bytes keep
#   their initial values (the same under two learning rates), while
#   --eval-data trains on the whole corpus and evaluates on the named file;
# - validation every 10 steps writes `"split": "validation"` records, the
#   same on two ranks (batch split) as on one;
# - an evaluate that takes `dropout_step` gets 0 (dropout off);
# - --eval-every on a program without evaluate, or without held-out data,
#   is a clear error.
# The MLP validates on Fashion-MNIST's test split and on the test/ arrays
# of a .npy dataset (--eval-batches limits the batches).
#
# usage: evaluate.sh BUILD_BIN_DIR EXAMPLES_DIR
set -euo pipefail
bin=$1
examples=$2
source "$(dirname "$0")/common.sh"

# 21600 bytes over "abcdefgh \n", then 2400 over "XYZ": the default
# --holdout 0.1 holds out exactly the second part.
python3 - "$work" <<'PY'
import sys
state = 12345
def draw(alphabet, n):
    global state
    out = []
    for _ in range(n):
        state = (state * 1103515245 + 12345) % 2**31
        out.append(alphabet[(state >> 16) % len(alphabet)])
    return "".join(out)
head, tail = draw("abcdefgh \n", 21600), draw("XYZ", 2400)
open(f"{sys.argv[1]}/corpus.txt", "w").write(head + tail)
open(f"{sys.argv[1]}/tail.txt", "w").write(tail)
open(f"{sys.argv[1]}/short.txt", "w").write("XYZ")
PY

lm=$here/models/bigram_lm.mlir
opts=(--steps 20 --seed 3 --log-every 1000)
"$bin/tessel" compile "$lm" --optimizer adam -o "$work/lm.spmd"
"$bin/tessel" compile "$lm" --optimizer adam --mesh data:2 --rules batch:data \
  -o "$work/lm2.spmd"
run_lm() { # name, program, ranks, options...
  local name=$1 program=$2 ranks=$3
  shift 3
  mpirun -n "$ranks" --oversubscribe "$work/$program" "${opts[@]}" \
    --metrics "$work/$name.jsonl" --checkpoint-dir "$work/$name.ckpt" "$@" \
    > "$work/$name.out" 2>&1 || { tail -5 "$work/$name.out"; return 1; }
}

status=0
run_lm tail lm.spmd 1 --data "$work/corpus.txt" --lr 0.05 --eval-every 10 &&
  run_lm tail_fast lm.spmd 1 --data "$work/corpus.txt" --lr 0.1 &&
  run_lm evaldata lm.spmd 1 --data "$work/corpus.txt" --lr 0.05 \
    --eval-data "$work/tail.txt" || status=1
result "the language model trains and evaluates on text" $status

# The checkpoint's table against the driver's numbers, and the rows of the
# tail's bytes against training.
status=0
python3 - "$work" <<'PY' || status=1
import array, json, math, struct, sys
work = sys.argv[1]

def table_of(run):
    # A sharded checkpoint: the index names the shard holding the table.
    checkpoint = f"{work}/{run}.ckpt/step-00000020"
    index = json.load(open(f"{checkpoint}/model.safetensors.index.json"))
    blob = open(f"{checkpoint}/{index['weight_map']['table']}", "rb").read()
    size = struct.unpack("<Q", blob[:8])[0]
    header = json.loads(blob[8:8 + size])
    start, end = header["table"]["data_offsets"]
    values = array.array("f", blob[8 + size + start:8 + size + end])
    return [values[row * 256:(row + 1) * 256] for row in range(256)]

def records(run):
    return [json.loads(line) for line in open(f"{work}/{run}.jsonl")]

def expected(table, text):
    """Loss, correct and positions of the held-out windows of 8 bytes that
    do not overlap, in whole batches of 4, as evaluate computes them."""
    windows = (len(text) - 1) // 8 // 4 * 4
    losses, correct = [], 0
    for w in range(windows):
        for i in range(8):
            row = table[text[w * 8 + i]]
            target = text[w * 8 + i + 1]
            top = max(row)
            losses.append(math.log(sum(math.exp(v - top) for v in row)) + top - row[target])
            correct += row[target] >= top
    return sum(losses) / len(losses), correct, windows * 8, windows

failures = []
def check(condition, message):
    if not condition:
        failures.append(message)

tail = open(f"{work}/tail.txt", "rb").read()
for run in ("tail", "evaldata"):
    test = [r for r in records(run) if r.get("split") == "test"]
    check(len(test) == 1, f"{run}: one test record, not {len(test)}")
    if not test:
        continue
    test = test[0]
    loss, correct, positions, windows = expected(table_of(run), tail)
    check(test["examples"] == windows, f"{run}: {test['examples']} sequences, not {windows}")
    check(test["predictions"] == positions,
          f"{run}: {test['predictions']} predictions, not {positions} positions")
    check(abs(test["accuracy"] - correct / positions) < 1e-9,
          f"{run}: accuracy {test['accuracy']}, not {correct}/{positions} per position")
    check(abs(test["loss"] - loss) < 1e-4 * loss, f"{run}: loss {test['loss']}, not {loss}")
    check(abs(test["perplexity"] - math.exp(test["loss"])) < 1e-9 * test["perplexity"],
          f"{run}: perplexity is not exp(loss)")
    print(f"{run}: test accuracy {test['accuracy']:.4f} ({correct} of {positions} positions), "
          f"loss {test['loss']:.4f} (recomputed {loss:.4f})")

validation = [r for r in records("tail") if r.get("split") == "validation"]
check([r["after_step"] for r in validation] == [10, 20],
      f"validation after steps {[r.get('after_step') for r in validation]}, not [10, 20]")
check(all("step" not in r for r in validation), "a validation record has a training 'step'")
check(all(0 <= r["accuracy"] <= 1 and r["perplexity"] > 1 for r in validation),
      "validation accuracy or perplexity out of range")

slow, fast, whole = table_of("tail"), table_of("tail_fast"), table_of("evaldata")
held_out = [ord(c) for c in "XYZ"]
check(all(slow[b] == fast[b] for b in held_out),
      "the held-out bytes' rows changed in training: the tail was trained on")
check(slow[ord("a")] != fast[ord("a")], "the training bytes' rows did not train")
check(all(whole[b] != slow[b] for b in held_out),
      "with --eval-data the tail of the corpus was not trained on")
for failure in failures:
    print("FAIL:", failure)
sys.exit(1 if failures else 0)
PY
result "held-out tail: evaluated per position, never trained on; --eval-data" $status

status=0
grep -q "| *validation loss [0-9.]*  accuracy [0-9.]*%  perplexity [0-9.]*" "$work/tail.out" &&
  grep -q "test accuracy [0-9.]*% ([0-9]* of [0-9]* positions in [0-9]* sequences)" "$work/tail.out" ||
  { status=1; cat "$work/tail.out"; }
result "the progress line shows validation; the test line counts positions" $status

status=0
run_lm two_ranks lm2.spmd 2 --data "$work/corpus.txt" --lr 0.05 --eval-every 10 &&
  python3 - "$work/tail.jsonl" "$work/two_ranks.jsonl" <<'PY' || status=1
import json, sys
def evaluations(path):
    return [r for r in map(json.loads, open(path)) if "split" in r]
one, two = evaluations(sys.argv[1]), evaluations(sys.argv[2])
assert len(one) == len(two) == 3, (len(one), len(two))
for a, b in zip(one, two):
    assert (a["split"], a["after_step"]) == (b["split"], b["after_step"]), (a, b)
    for key in ("loss", "accuracy", "perplexity"):
        assert abs(a[key] - b[key]) <= 1e-5 * abs(a[key]), (key, a, b)
print("2 ranks: the 1-rank validation and test records")
PY
result "validation on 2 ranks (batch split) gives the 1-rank numbers" $status

# --profile times the training steps only: the same calls per step with
# validation after every step as without.
status=0
for every in 0 1; do
  "$work/lm.spmd" --data "$work/corpus.txt" --steps 4 --eval-every $every --eval-batches 3 \
    --no-evaluate --profile > "$work/profile$every.out" 2>&1 || status=1
done
calls() { sed -n 's/.* \([0-9.]*\) calls per step/\1/p' "$1"; }
grep -q "validation loss" "$work/profile1.out" &&
  [ -n "$(calls "$work/profile0.out")" ] &&
  [ "$(calls "$work/profile0.out")" = "$(calls "$work/profile1.out")" ] ||
  { status=1; cat "$work/profile0.out" "$work/profile1.out"; }
result "--profile leaves validation out" $status

# A model with dropout: its evaluate takes `dropout_step` too, which the
# driver sets to 0 (dropout is off outside training), so validation is the
# same whenever it runs.
status=0
rotary=$here/../differential/models/gpt_rotary/gpt_rotary.mlir
"$bin/tessel" compile "$rotary" --optimizer adamw -o "$work/rotary.spmd" &&
  "$work/rotary.spmd" --steps 2 --eval-every 1 --eval-batches 3 --lr 0 \
    --metrics "$work/rotary.jsonl" > "$work/rotary.out" 2>&1 &&
  python3 - "$work/rotary.jsonl" <<'PY' || { status=1; tail -5 "$work/rotary.out"; }
import json, sys
records = [r for r in map(json.loads, open(sys.argv[1])) if "split" in r]
losses = [r["loss"] for r in records if r["split"] == "validation"]
# --lr 0: the weights never change, so neither does the validation.
assert len(losses) == 2 and max(losses) == min(losses), losses
assert [r["split"] for r in records] == ["validation"] * 2 + ["test"], records
PY
result "evaluate with dropout_step (dropout off) validates the same every time" $status

status=0
"$bin/tessel" compile "$examples/transformer/transformer.mlir" -o "$work/noeval.spmd"
if "$work/noeval.spmd" --steps 2 --eval-every 1 > "$work/noeval.out" 2>&1; then status=1; fi
grep -q -- "--eval-every: the program has no evaluate function" "$work/noeval.out" || status=1
if "$work/lm.spmd" --steps 2 --data "$work/corpus.txt" --holdout 0 --eval-every 1 \
  > "$work/noheldout.out" 2>&1; then status=1; fi
grep -q -- "--eval-every: no held-out data (--holdout 0" "$work/noheldout.out" || status=1
if "$work/lm.spmd" --steps 2 --data "$work/corpus.txt" --eval-data "$work/short.txt" \
  > "$work/short.out" 2>&1; then status=1; fi
grep -q "short.txt: 3 bytes of text, too few for one window of 8" "$work/short.out" || status=1
# Held-out data that are the training data ("test accuracy" on what was
# trained on) were taken.
if "$work/lm.spmd" --steps 2 --data "$work/corpus.txt" --eval-data "$work/./corpus.txt" \
  > "$work/same.out" 2>&1; then status=1; fi
grep -q -- "--eval-data $work/./corpus.txt is the training data ($work/corpus.txt)" \
  "$work/same.out" || status=1
# Held-out arrays that evaluate cannot take: an error before the first step.
PYTHONPATH=$here python3 - "$work/lmnpy" <<'PY'
import os, sys
from write_npy import save
os.makedirs(f"{sys.argv[1]}/test")
for name in ("tokens", "targets"):
    save(f"{sys.argv[1]}/{name}.npy", "i", "<i4", (8, 8), [i % 256 for i in range(64)])
save(f"{sys.argv[1]}/test/other.npy", "i", "<i4", (8, 8), [0] * 64)
PY
if "$work/lm.spmd" --steps 2 --data "$work/lmnpy" > "$work/misfit.out" 2>&1; then status=1; fi
grep -q "evaluate has no argument named after a held-out array ($work/lmnpy/test)" \
  "$work/misfit.out" || status=1
if "$work/lm.spmd" --steps 2 --data "$work/lmnpy" --eval-data "$work/lmnpy/" \
  > "$work/samenpy.out" 2>&1; then status=1; fi
grep -q -- "--eval-data $work/lmnpy/ is the training data ($work/lmnpy)" \
  "$work/samenpy.out" || status=1
if grep -q "^step \|trained steps" "$work/misfit.out"; then status=1; fi
[ "$status" -eq 0 ] || cat "$work/noeval.out" "$work/noheldout.out" "$work/short.out" \
  "$work/same.out" "$work/misfit.out" "$work/samenpy.out"
result "evaluation without evaluate, held-out data other than the training data, enough text or fitting arrays is a clear error before training" $status

# Image classifiers: Fashion-MNIST's test split, and the test/ arrays of a
# .npy dataset.
if have_fashion_mnist; then
  status=0
  "$bin/tessel" compile "$examples/mlp/mlp.mlir" -o "$work/mlp.spmd" &&
    "$work/mlp.spmd" --steps 40 --lr 0.05 --eval-every 20 --eval-batches 5 \
      --metrics "$work/mlp.jsonl" > "$work/mlp.out" 2>&1 &&
    python3 - "$work/mlp.jsonl" <<'PY' || { status=1; tail -5 "$work/mlp.out"; }
import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
validation = [r for r in records if r.get("split") == "validation"]
test = [r for r in records if r.get("split") == "test"]
assert [r["after_step"] for r in validation] == [20, 40], validation
# Validation on the first 5 batches of 64, the test on all 156 full ones.
assert len(test) == 1, test
for r, examples in [(r, 320) for r in validation] + [(test[0], 9984)]:
    assert r["examples"] == r["predictions"] == examples, r
    assert 0.3 < r["accuracy"] <= 1 and "perplexity" not in r, r
print("MLP:", [(r["after_step"], round(r["accuracy"], 3)) for r in validation])
PY
  result "the MLP validates on 5 batches of Fashion-MNIST's test split, tests on all" $status
else
  echo "SKIP: $no_fashion_mnist"
fi

status=0
PYTHONPATH=$here python3 - "$work/npy" <<'PY'
import os, sys
from write_npy import save
# Class c lights pixel c: an easy task.
for folder, count in ((sys.argv[1], 256), (os.path.join(sys.argv[1], "test"), 128)):
    os.makedirs(folder, exist_ok=True)
    labels = [(i * 7) % 10 for i in range(count)]
    pixels = [1.0 if p == labels[i] else 0.0 for i in range(count) for p in range(784)]
    save(f"{folder}/images.npy", "f", "<f4", (count, 784), pixels)
    save(f"{folder}/labels.npy", "i", "<i4", (count,), labels)
PY
"$bin/tessel" compile "$examples/mlp/mlp.mlir" -o "$work/mlp_npy.spmd" &&
  "$work/mlp_npy.spmd" --data "$work/npy" --steps 4 --lr 0.05 --eval-every 2 \
    --metrics "$work/npy.jsonl" > "$work/npy.out" 2>&1 &&
  python3 - "$work/npy.jsonl" <<'PY' || { status=1; tail -5 "$work/npy.out"; }
import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
evaluations = [(r["split"], r.get("after_step"), r["examples"]) for r in records if "split" in r]
assert evaluations == [("validation", 2, 128), ("validation", 4, 128), ("test", 4, 128)], evaluations
PY
result ".npy data validate on their test/ arrays" $status

finish
