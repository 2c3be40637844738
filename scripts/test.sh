#!/usr/bin/env bash
# Sets tessel up where needed (packages, build) and runs the whole test
# suite: GoogleTest unit tests and the lit suite, all through ctest, which
# ends with its summary line. TESSEL_SANITIZE=1 runs it on a build with
# AddressSanitizer and UBSan (in build-sanitize/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
BUILD_DIR=build
[ "${TESSEL_SANITIZE:-0}" = 1 ] && BUILD_DIR=build-sanitize
BUILD_DIR=${TESSEL_BUILD_DIR:-$BUILD_DIR}
if [ "${TESSEL_SANITIZE:-0}" = 1 ]; then
  # allow_user_poisoning=0: LLVM's BumpPtrAllocator, inlined into tessel's
  # instrumented code, poisons slabs that the uninstrumented libMLIR.so
  # fills, so every read of an MLIR type would be a false use-after-poison.
  # detect_leaks=0: Open MPI and its unloaded plugins keep memory until
  # exit that LeakSanitizer cannot attribute; the fuzzers check tessel's
  # parsers for leaks instead (docs/reliability.md).
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allow_user_poisoning=0}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
fi
cd "$BUILD_DIR"
ctest --output-on-failure -j "${TESSEL_JOBS:-$(nproc)}"
