#!/usr/bin/env bash
# tessel calibrate measures this machine under mpirun (kernels on 1 and 2
# ranks, collectives on 2, and on 4 collectives alone where there are fewer
# cores; one repetition, to be quick) and the driver's
# memory (two trivial programs trained on one rank), and writes a profile
# whose structure and figures are sane (check_profile.py: positive rates,
# bandwidths within physical bounds; never the timings themselves), which
# tessel search then reads; the profile that ships passes the same checks;
# bad options are clear errors and a failed run writes no profile.
#
# usage: calibrate.sh BUILD_BIN_DIR EXAMPLES_DIR SHIPPED_PROFILE
set -euo pipefail
bin=$1
examples=$2
shipped=$3
source "$(dirname "$0")/common.sh"

expect_error() {
  local expected=$1
  shift
  if "$@" > "$work/out" 2>&1; then
    echo "FAIL: '$*' succeeded"
    exit 1
  fi
  if ! grep -qF "$expected" "$work/out"; then
    echo "FAIL: '$*' said:"
    cat "$work/out"
    exit 1
  fi
}

# The profile that ships has every class, the later ones too.
python3 "$here/check_profile.py" "$shipped" --ranks 1,2 --memory --narrow \
  --class-order

# The memory section needs Fashion-MNIST (the load of its images).
if have_fashion_mnist; then
  memory=(--memory)
  no_memory=()
else
  echo "NOTE: $no_fashion_mnist: calibrating without the memory section"
  memory=()
  no_memory=(--no-memory)
fi
"$bin/tessel" calibrate --max-ranks 2 --repetitions 1 --min-seconds 0.002 \
  --description "tests/e2e/calibrate.sh" "${no_memory[@]}" -o "$work/profile.json"
python3 "$here/check_profile.py" "$work/profile.json" --ranks 1,2 --narrow "${memory[@]}"
if [ ${#memory[@]} -gt 0 ]; then
  # explain reads the driver's memory from it.
  driver=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['memory']['driver_bytes'])" "$work/profile.json")
  "$bin/tessel" explain "$examples/mlp/mlp.mlir" --layout "$examples/mlp/data.yaml" \
    --train --profile "$work/profile.json" --format json > "$work/explain.json"
  python3 -c "import json,sys; m=json.load(open(sys.argv[1]))['memory']; assert m['driver_bytes'] == int(sys.argv[2]), m" \
    "$work/explain.json" "$driver"
fi
"$bin/tessel" search "$examples/mlp/mlp.mlir" -n 2 --profile "$work/profile.json" \
  -o "$work/best.yaml" > "$work/search.txt"
grep -qF "profile: $work/profile.json (tests/e2e/calibrate.sh)" "$work/search.txt"
grep -q "^mesh: {" "$work/best.yaml"

# The probe run by hand, as on a machine without tessel's compiler, and
# its saved output assembled here (--probe-output): the same machine and
# the same kinds of measurement as calibrate's own runs.
saved=$work/probe-output
mkdir "$saved"
probe_options=(--repetitions 1 --min-seconds 0.002)
mpirun -n 1 --bind-to none "$bin/tessel-calibrate-probe" --machine --kernels --per-op \
  "${probe_options[@]}" > "$saved/ranks-1.jsonl"
mpirun -n 2 --oversubscribe --bind-to none "$bin/tessel-calibrate-probe" --kernels --per-op \
  --collectives "${probe_options[@]}" > "$saved/ranks-2.jsonl"
"$bin/tessel" calibrate --probe-output "$saved" -o "$work/saved.json"
python3 "$here/check_profile.py" "$work/saved.json" --narrow --ranks "$( [ "$(nproc)" -ge 2 ] && echo 1,2 || echo 1)"
python3 - "$work/profile.json" "$work/saved.json" <<'PY'
import json, sys
live, saved = (json.load(open(path)) for path in sys.argv[1:])
for key in ("description", "cpu", "cores", "cache_bytes"):
    assert live["machine"].get(key) == saved["machine"].get(key) or key == "description", key
classes = lambda p: [(k["ranks"], sorted(k["classes"]),
                      {t: sorted(c) for t, c in k.get("narrow_classes", {}).items()})
                     for k in p["kernels"]]
collectives = lambda p: sorted((c["collective"], c.get("started", False), c["ranks"], c["group"]) for c in p["collectives"])
assert classes(live) == classes(saved), (classes(live), classes(saved))
assert collectives(live) == collectives(saved), (collectives(live), collectives(saved))
assert "memory" not in saved
PY

# A job of more ranks than cores times its collectives only: its kernels
# come from the jobs of one rank a core (MachineProfile::kernelSeconds).
cores=$(nproc)
if [ "$cores" -lt 4 ]; then
  "$bin/tessel" calibrate --max-ranks 4 --repetitions 1 --min-seconds 0.002 \
    --no-memory -o "$work/four.json"
  kernel_ranks=$( [ "$cores" -ge 2 ] && echo 1,2 || echo 1)
  python3 "$here/check_profile.py" "$work/four.json" --ranks "$kernel_ranks"
  python3 -c "import json,sys; p=json.load(open(sys.argv[1])); assert any(c['ranks'] == 4 for c in p['collectives']), p['collectives']" \
    "$work/four.json"
fi

# The same without -o: the profile on stdout; --no-memory leaves the
# memory section out.
"$bin/tessel" calibrate --max-ranks 1 --repetitions 1 --min-seconds 0.002 \
  --no-memory > "$work/stdout.json"
python3 "$here/check_profile.py" "$work/stdout.json" --ranks 1
if grep -q '"memory"' "$work/stdout.json"; then
  echo "FAIL: --no-memory wrote a memory section"
  exit 1
fi
# Without collectives, search cannot weigh communication: on one rank it
# needs none, on more it refuses the profile.
"$bin/tessel" search "$examples/mlp/mlp.mlir" -n 1 --profile "$work/stdout.json" > /dev/null
expect_error "tessel search: $work/stdout.json times no collectives (calibrate with --max-ranks 2 or more)" \
  "$bin/tessel" search "$examples/mlp/mlp.mlir" -n 2 --profile "$work/stdout.json"

expect_error "tessel calibrate: --max-ranks and --repetitions must be at least 1" \
  "$bin/tessel" calibrate --max-ranks 0 -o "$work/none.json"
expect_error "tessel calibrate: --max-ranks and --repetitions must be at least 1" \
  "$bin/tessel" calibrate --repetitions 0 -o "$work/none.json"
# A profile that cannot be written fails before anything is measured.
expect_error "tessel calibrate: $work/no/such/dir/p.json: No such file or directory" \
  "$bin/tessel" calibrate -o "$work/no/such/dir/p.json"
if grep -q "rank(s)" "$work/out"; then
  echo "FAIL: calibrate measured before finding it cannot write its profile"
  exit 1
fi
test ! -e "$work/none.json"
# Without Fashion-MNIST the memory cannot be measured: an error naming the
# directory, and no profile.
expect_error "tessel calibrate: Fashion-MNIST's training split is not in $work/no-data" \
  "$bin/tessel" calibrate --max-ranks 1 --repetitions 1 --min-seconds 0.002 \
  --data-dir "$work/no-data" -o "$work/none.json"
test ! -e "$work/none.json"
echo "calibrate: OK"
