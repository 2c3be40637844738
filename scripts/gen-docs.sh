#!/usr/bin/env bash
# Regenerates docs/dialect/ from the dialect's ODS files.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${TESSEL_BUILD_DIR:-build}
cmake --build "$BUILD_DIR" --target tessel-docs
mkdir -p docs/dialect
cp "$BUILD_DIR"/docs/*.md docs/dialect/
echo "docs/dialect/ regenerated"
