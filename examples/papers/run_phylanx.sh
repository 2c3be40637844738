#!/usr/bin/env bash
# The Phylanx paper's forward-pass scaling experiment with tessel: the
# 4-layer CNN of har_cnn.mlir at a mini-batch of 8000, the batch split over
# 1, 2, 4 and 8 ranks (data parallel), timing the forward passes of the
# model's `evaluate`. The paper ran on Human Activity Recognition windows;
# the timing does not depend on the values, so this feeds random windows of
# the same shape (9 channels x 128 steps) as .npy arrays.
#
# usage: examples/papers/run_phylanx.sh      (TESSEL_BUILD_DIR, default build;
#        RANKS="1 2 4 8", BATCH=8000, PASSES=3 forward passes per run)
# writes examples/papers/phylanx.md (the table) and phylanx.svg (the plot).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$root/${TESSEL_BUILD_DIR:-build}/bin
ranks_list=${RANKS:-1 2 4 8}
batch=${BATCH:-8000}
passes=${PASSES:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_MCA_btl=self,vader OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# Random windows: one batch for training (the driver needs a training
# split), `passes` batches for the timed test split.
python3 - "$work/data" "$batch" "$passes" <<'PY'
import array, os, random, sys
target, batch, passes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def save(path, typecode, descr, shape, payload):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join(f"{n}, " for n in shape))
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as out:
        out.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little"))
        out.write(header.encode())
        out.write(payload)

random.seed(8000)
signals = array.array("f", (random.gauss(0, 1) for _ in range(batch * 9 * 128))).tobytes()
labels = array.array("i", (random.randrange(6) for _ in range(batch))).tobytes()
os.makedirs(f"{target}/test", exist_ok=True)
save(f"{target}/signals.npy", "f", "<f4", (batch, 9, 128, 1), signals)
save(f"{target}/labels.npy", "i", "<i4", (batch,), labels)
save(f"{target}/test/signals.npy", "f", "<f4", (batch * passes, 9, 128, 1), signals * passes)
save(f"{target}/test/labels.npy", "i", "<i4", (batch * passes,), labels * passes)
PY

echo "ranks seconds_per_pass examples_per_s" > "$work/results.txt"
for ranks in $ranks_list; do
  "$bin/tessel" compile "$here/har_cnn.mlir" --batch "$batch" \
    --mesh "data:$ranks" --rules "batch:data" -o "$work/har$ranks.spmd"
  mpirun -n "$ranks" --oversubscribe --bind-to none "$work/har$ranks.spmd" \
    --steps 1 --data "$work/data" --log-every 1000 > "$work/run$ranks.out" 2>&1 ||
    { cat "$work/run$ranks.out"; exit 1; }
  seconds=$(sed -n 's/.*forward passes \([0-9.]*\)s.*/\1/p' "$work/run$ranks.out")
  python3 -c "import sys; s=float(sys.argv[1])/int(sys.argv[2]); print(sys.argv[3], f'{s:.4f}', f'{int(sys.argv[4])/s:.0f}')" \
    "$seconds" "$passes" "$ranks" "$batch" >> "$work/results.txt"
  tail -1 "$work/results.txt"
done

# Debian's python3 has matplotlib (python3-matplotlib) for the plot.
plot_python=/usr/bin/python3
[ -x "$plot_python" ] || plot_python=python3
"$plot_python" - "$work/results.txt" "$here" "$batch" "$(nproc)" <<'PY'
import datetime, os, sys
rows = [line.split() for line in open(sys.argv[1]).read().splitlines()[1:]]
here, batch, cores = sys.argv[2], sys.argv[3], sys.argv[4]
base = float(rows[0][1])
lines = [
    "# Forward-pass scaling of the Phylanx paper's 4-layer CNN, with tessel",
    "",
    f"Mini-batch {batch}, split over the ranks (`--mesh data:N --rules batch:data`);",
    "seconds per forward pass of `evaluate` (the model's forward pass with its",
    "loss and accuracy), the mean of the timed passes. Written by",
    f"`examples/papers/run_phylanx.sh` on {datetime.date.today()}, on a machine with {cores} cores",
    "(ranks beyond the core count share cores, so the speed-up stops there).",
    "",
    "| ranks | s / pass | examples/s | speed-up |",
    "| --- | --- | --- | --- |",
]
for ranks, seconds, rate in rows:
    lines.append(f"| {ranks} | {float(seconds):.3f} | {rate} | {base / float(seconds):.2f} |")
open(os.path.join(here, "phylanx.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("no matplotlib (python3-matplotlib): no plot")
    sys.exit(0)
fig, ax = plt.subplots(figsize=(5, 3.5))
ax.plot([int(r[0]) for r in rows], [float(r[1]) for r in rows], marker="o")
ax.set_xscale("log", base=2)
ax.set_xlabel("ranks")
ax.set_ylabel("seconds per forward pass")
ax.set_title(f"4-layer CNN forward, batch {batch}")
fig.tight_layout()
fig.savefig(os.path.join(here, "phylanx.svg"))
print("wrote", os.path.join(here, "phylanx.svg"))
PY
