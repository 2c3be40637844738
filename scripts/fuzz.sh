#!/usr/bin/env bash
# Builds tessel's libFuzzer targets (tests/fuzz) in build-fuzz/ with clang,
# AddressSanitizer and UBSan, and runs each for SECONDS (default 60) from its
# seed corpus in tests/fuzz/corpus/<target>/. Prints, per target, the time,
# the executions and any crash file; exits non-zero if a target crashed.
#
#   scripts/fuzz.sh [SECONDS]             # every target
#   FUZZ_TARGETS="ModelFuzzer" scripts/fuzz.sh 30
#   TESSEL_JOBS=1 scripts/fuzz.sh         # build on one core
#
# New inputs that reach new code go to build-fuzz/corpus/<target>/, crash
# inputs to build-fuzz/crashes/<target>/; the seeds in the tree are only
# read. Replay one input with build-fuzz/bin/<target> FILE.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET=${1:-60}
BUILD_DIR=${TESSEL_FUZZ_BUILD_DIR:-build-fuzz}
TARGETS=(${FUZZ_TARGETS:-LayoutFileFuzzer MeshStringFuzzer ModelFuzzer CheckpointFuzzer MetadataFuzzer MachineProfileFuzzer WeightMapFuzzer ShardIndexFuzzer NpyFuzzer IdxFuzzer TextCorpusFuzzer})

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
# The packages tessel itself needs are those of scripts/setup.sh (read from
# there so that the two lists cannot drift apart); setup.sh is not run
# because it also builds build/. The compiler is clang 22, the version of
# the LLVM and MLIR tessel builds against, with its libFuzzer runtime
# (libclang-rt-22-dev): Debian's default `clang` is clang 14, which rejects
# tessel's lambdas that capture structured bindings (C++20, which later
# clangs accept in C++17 as an extension, as GCC does).
eval "$(sed -n '/^PACKAGES=(/,/^)/p' scripts/setup.sh)"
PACKAGES+=(clang-22 libclang-rt-22-dev)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "fuzz: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

# Everything tessel builds gets libFuzzer's coverage instrumentation
# (fuzzer-no-link) on top of TESSEL_SANITIZE's ASan and UBSan; the fuzz
# targets themselves link -fsanitize=fuzzer. -O1 with line tables keeps the
# build quick and the stack traces readable. NDEBUG stays, as in the
# installed LLVM, whose headers must see the same setting.
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  LAUNCHER=()
  command -v ccache >/dev/null &&
    LAUNCHER=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S . -B "$BUILD_DIR" -G Ninja \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
    -DCMAKE_C_FLAGS="-fsanitize=fuzzer-no-link" \
    -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link" \
    -DTESSEL_SANITIZE=ON -DTESSEL_FUZZ=ON \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    "${LAUNCHER[@]}"
fi
cmake --build "$BUILD_DIR" -j "${TESSEL_JOBS:-$(nproc)}" --target "${TARGETS[@]}"

# Leaks are reported (a leak per input would exhaust a long run); a crash
# is any sanitizer report, abort or uncaught signal.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

failed=()
summary=()
for target in "${TARGETS[@]}"; do
  seeds=tests/fuzz/corpus/$target
  corpus=$BUILD_DIR/corpus/$target
  crashes=$BUILD_DIR/crashes/$target
  log=$BUILD_DIR/fuzz-$target.log
  mkdir -p "$corpus" "$crashes"
  # Crash files of earlier runs stay for replaying; only this run's count.
  stamp=$BUILD_DIR/fuzz-$target.started
  touch "$stamp"
  args=(-max_total_time="$SECONDS_PER_TARGET" -timeout=25 -rss_limit_mb=4096
        -print_final_stats=1 -artifact_prefix="$crashes/")
  [ -f tests/fuzz/$target.dict ] && args+=(-dict=tests/fuzz/$target.dict)
  echo "fuzz: $target for ${SECONDS_PER_TARGET}s (log: $log)"
  status=0
  "$BUILD_DIR/bin/$target" "${args[@]}" "$corpus" "$seeds" >"$log" 2>&1 || status=$?
  # libFuzzer prints its final stats after a crash too, but its "Done ...
  # in N second(s)" line only when it ran out its time.
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  time=$( (grep -o 'Done [0-9]* runs in [0-9]* second' "$log" || true) |
          tail -1 | awk '{print $5}')
  found=$(find "$crashes" -type f -newer "$stamp" -printf '%f\n' |
          grep -E '^(crash|leak|timeout|oom)-' || true)
  line="$target: ${time:-?}s, ${execs:-?} executions"
  if [ "$status" -ne 0 ] || [ -n "$found" ]; then
    line+=", FAILED (exit $status)"
    first=$(grep -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|Fuzzer: ' "$log" || true)
    [ -n "$first" ] && line+=$'\n'"    $first"
    for f in $found; do line+=$'\n'"    crash file: $crashes/$f"; done
    failed+=("$target")
  else
    line+=", no crash"
  fi
  summary+=("$line")
done

echo
echo "fuzz summary (${SECONDS_PER_TARGET}s per target):"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: crashes in ${failed[*]}; see $BUILD_DIR/fuzz-<target>.log"
  exit 1
fi
