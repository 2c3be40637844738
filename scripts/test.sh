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
cd "$BUILD_DIR"
ctest --output-on-failure -j "${TESSEL_JOBS:-$(nproc)}"
