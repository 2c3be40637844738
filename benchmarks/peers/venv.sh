#!/usr/bin/env bash
# Makes the virtual environment of the benchmark's peers (PyTorch 2.x, JAX,
# optax; requirements.txt beside this file) with pip from PyPI, once: a
# second call with the same requirements does nothing. benchmarks/run.sh
# calls it; nothing else needs these packages.
#
#   benchmarks/peers/venv.sh [DIR]   # default $TESSEL_BUILD_DIR/bench-venv or build/bench-venv
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV=${1:-${TESSEL_BUILD_DIR:-build}/bench-venv}
REQUIREMENTS=benchmarks/peers/requirements.txt
STAMP=$VENV/requirements.installed

if [ -x "$VENV/bin/python" ] && cmp -s "$REQUIREMENTS" "$STAMP"; then
  exit 0
fi
# torch's wheel brings CUDA's libraries: about 6 GB once installed, more
# while pip unpacks.
NEEDED_GIB=10
free_gib=$(df -Pk "$(dirname "$VENV")" | awk 'NR == 2 { print int($4 / 1048576) }')
if [ "$free_gib" -lt "$NEEDED_GIB" ]; then
  echo "venv.sh: $VENV needs about $NEEDED_GIB GiB, $(dirname "$VENV") has $free_gib GiB free" >&2
  exit 1
fi
echo "venv.sh: installing the peers into $VENV (PyPI, several GB)" >&2
# Debian's interpreter, as the other benchmark scripts use.
/usr/bin/python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --progress-bar off --upgrade pip
"$VENV/bin/pip" install --quiet --progress-bar off -r "$REQUIREMENTS"
cp "$REQUIREMENTS" "$STAMP"
