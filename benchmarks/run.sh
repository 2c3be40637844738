#!/usr/bin/env bash
# Runs every benchmark and prints the table; writes it to
# benchmarks/results/latest.json (docs/benchmarks.md says what each row
# means). Not part of CI: it takes about fifteen minutes on 2 cores and its
# figures depend on the machine and on whatever else runs on it. The peers
# PyTorch 2.x and JAX come from PyPI into a virtual environment of their
# own, made on the first run (benchmarks/peers/venv.sh, several GB).
#
#   benchmarks/run.sh                 # everything, build dir $TESSEL_BUILD_DIR or build
#   benchmarks/run.sh --quick         # fewer steps, sizes and depths (a smoke test)
#   BENCH_PARTS="comm compile" benchmarks/run.sh   # some parts only
set -euo pipefail
cd "$(dirname "$0")/.."

QUICK=0
[ "${1:-}" = --quick ] && QUICK=1
PARTS=${BENCH_PARTS:-"throughput precision compile comm collectives"}
BUILD_DIR=${TESSEL_BUILD_DIR:-build}
BIN=$BUILD_DIR/bin

# What the benchmarks need beyond the build (scripts/setup.sh installs that):
# the Debian PyTorch peer (torch 1.13 with OpenBLAS, run by /usr/bin/python3),
# venv and Python's headers for the peers' own environment (torch.compile's
# kernels include them), PyYAML for reading layout files, GNU time for peak
# memory, upstream mlir-opt for the side-by-side partitioning row.
PACKAGES=(python3-torch libopenblas0-pthread python3-venv python3-dev python3-yaml time mlir-22-tools)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "run.sh: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

# The tools, the runtime and the two benchmark programs; the build's output
# only when it fails.
BUILD_LOG=$(mktemp)
trap 'rm -f "$BUILD_LOG"' EXIT
if ! { TESSEL_BUILD_DIR=$BUILD_DIR scripts/setup.sh &&
  cmake --build "$BUILD_DIR" --target tessel-bench-collectives tessel-bench-gemm; } >"$BUILD_LOG" 2>&1; then
  tail -40 "$BUILD_LOG" >&2
  echo "run.sh: the build failed" >&2
  exit 1
fi

export OMPI_MCA_btl=self,vader OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
PY=/usr/bin/python3
quick() { [ "$QUICK" = 1 ] && echo "$1" || echo "$2"; }
has() { [[ " $PARTS " == *" $1 "* ]]; }

# PyTorch 2.x, JAX and optax (benchmarks/peers/requirements.txt).
VENV=$BUILD_DIR/bench-venv
if has throughput || has compile; then
  benchmarks/peers/venv.sh "$VENV"
fi

# Each part's raw lines stay in results/raw/ beside the table (the last
# run's; report.py reads them, and a part left out keeps its old ones).
# A quick run keeps its figures apart (results/quick.json), so that it never
# replaces a full run's.
OUT=benchmarks/results/$(quick raw-quick raw)
RESULT=benchmarks/results/$(quick quick.json latest.json)
mkdir -p "$OUT"

if has throughput; then
  echo "== training throughput against PyTorch 2 (eager, torch.compile), JAX and Debian's PyTorch" >&2
  "$BIN/tessel-bench-gemm" --size 2048 --repetitions 10 >"$OUT/gemm.jsonl"
  $PY benchmarks/throughput.py --bin "$BIN" --venv "$VENV" $(quick --quick "") |
    tee "$OUT/throughput.jsonl" | cut -c1-200 >&2
fi

if has precision; then
  echo "== mixed precision: the realistic Transformer's bf16 and f16 steps against f32" >&2
  $PY benchmarks/precision.py --bin "$BIN" $(quick --quick "") |
    tee "$OUT/precision.jsonl" | cut -c1-200 >&2
fi

if has compile; then
  echo "== compile time against depth" >&2
  $PY benchmarks/compile_time.py --bin "$BIN" --layers $(quick "12 24" "12 48 96") --jax-python "$VENV/bin/python" |
    tee "$OUT/compile.jsonl" | cut -c1-160 >&2
  $PY benchmarks/megatron_chain.py --bin "$BIN" --layers 96 --repeat 5 | tee "$OUT/chain.jsonl" >&2
fi

if has comm; then
  echo "== communication volume: tessel explain against the analytic figure" >&2
  $PY benchmarks/comm_volume.py --bin "$BIN" --json "$OUT/comm.json"
fi

if has collectives; then
  echo "== runtime collectives against plain MPI" >&2
  for n in 2 4 8; do
    mpirun --oversubscribe -n "$n" "$BIN/tessel-bench-collectives" \
      --min-bytes 4096 --max-bytes $(quick 1048576 16777216) \
      --repetitions $(quick 5 31) >"$OUT/collectives.$n.jsonl"
  done
fi

$PY benchmarks/report.py "$OUT" "$RESULT"
