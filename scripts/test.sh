#!/usr/bin/env bash
# Sets tessel up where needed (packages, build) and runs the whole test
# suite: GoogleTest unit tests and the lit suite, all through ctest, which
# ends with its summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
BUILD_DIR=${TESSEL_BUILD_DIR:-build}
cd "$BUILD_DIR"
ctest --output-on-failure -j "${TESSEL_JOBS:-$(nproc)}"
