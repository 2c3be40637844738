#!/usr/bin/env bash
# Installs every Debian package tessel needs and builds it into build/.
# Both steps are idempotent: a second run installs nothing and rebuilds only
# what changed, so scripts/run.sh and scripts/test.sh can both call this.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  cmake ninja-build g++ ccache
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  libopenmpi-dev openmpi-bin
  libdnnl-dev ocl-icd-opencl-dev libsleef-dev pkg-config
  libboost-dev libfmt-dev libgtest-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev
  zlib1g-dev python3 python3-dev python3-venv python3-pip python3-setuptools python3-wheel
  python3-pytest pybind11-dev
  # Matplotlib, for tessel plot (python/tessel/plot.py) and examples/papers' plots.
  python3-matplotlib
  # NumPy, for the pipeline sweep's arrays (tests/differential/pipeline_sweep.py).
  python3-numpy
  # PyTorch, for the test that imports its weights (tests/python).
  python3-torch
  dataset-fashion-mnist
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

# TESSEL_SANITIZE=1 builds with AddressSanitizer and UBSan, in its own
# directory so that the normal build stays as it is.
SANITIZE=OFF
DEFAULT_BUILD_DIR=build
if [ "${TESSEL_SANITIZE:-0}" = 1 ]; then
  SANITIZE=ON
  DEFAULT_BUILD_DIR=build-sanitize
fi
BUILD_DIR=${TESSEL_BUILD_DIR:-$DEFAULT_BUILD_DIR}
# The GPU runtime builds when CMake finds a CUDA toolkit (docs/gpu.md); it
# is not a Debian package here, so its absence only leaves that part out.
if [ ! -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc > /dev/null; then
  echo "setup: no CUDA toolkit (/usr/local/cuda/bin/nvcc): building without the GPU runtime"
fi
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja \
    -DTESSEL_SANITIZE=$SANITIZE \
    -DCMAKE_BUILD_TYPE=${TESSEL_BUILD_TYPE:-Release} \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
cmake --build "$BUILD_DIR" -j "${TESSEL_JOBS:-$(nproc)}"

# The Python package, pip-installed into a virtual environment (Debian's
# python3 is externally managed). --system-site-packages lends it Debian's
# pytest and setuptools, so nothing is downloaded; the package's bindings
# use the front-end library in $BUILD_DIR/lib.
VENV="$BUILD_DIR/venv"
if [ ! -x "$VENV/bin/python" ]; then
  /usr/bin/python3 -m venv --system-site-packages "$VENV"
fi
STAMP="$VENV/.tessel-installed"
if [ ! -f "$STAMP" ] ||
   [ -n "$(find "$BUILD_DIR/python/tessel" "$BUILD_DIR/python/pyproject.toml" -newer "$STAMP" -print -quit)" ]; then
  "$VENV/bin/pip" install --quiet --no-build-isolation --no-deps --force-reinstall \
    "$BUILD_DIR/python"
  touch "$STAMP"
fi
