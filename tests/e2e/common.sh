# shellcheck shell=bash disable=SC2034 # its variables are the sourcing script's
# The set-up every end-to-end script shares; each sources it right after
# `set -euo pipefail` and reading its arguments:
#
#   source "$(dirname "$0")/common.sh"
#
# It gives the script
#   here   this folder, where the checkers (compare_losses.py, ...) and the
#          test models (models/) are;
#   work   a fresh temporary folder, removed when the script exits (a script
#          with more to clean up sets its own EXIT trap, which removes
#          $work too);
#   data   where Debian's dataset-fashion-mnist installs Fashion-MNIST;
# Open MPI's environment for ranks on this machine, and the functions below.

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Open MPI refuses to run as root without these, and shared memory is all
# that ranks on one machine need (a run across hosts sets its own btl).
export OMPI_MCA_btl=self,vader OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

data=/usr/share/datasets/fashion-mnist
no_fashion_mnist="Fashion-MNIST is not installed in $data (Debian package dataset-fashion-mnist)"

# Fashion-MNIST's training images, compressed or not, are installed.
have_fashion_mnist() {
  [ -f "$data/train-images-idx3-ubyte.gz" ] || [ -f "$data/train-images-idx3-ubyte" ]
}

# Ends the script (exit 0: ctest registers these scripts without a skip
# code) where Fashion-MNIST is not installed; with --gz, where its
# compressed files are not, for a script that reads them itself.
require_fashion_mnist() {
  if [ "${1:-}" = --gz ]; then
    [ -f "$data/train-images-idx3-ubyte.gz" ] && return 0
  else
    have_fashion_mnist && return 0
  fi
  echo "SKIP: $no_fashion_mnist"
  exit 0
}

# Ends the script as skipped (exit 77, which ctest reports as a skip for
# the tests registered with SKIP_RETURN_CODE 77), saying why.
skip() { echo "SKIP: $*"; exit 77; }

# A check's outcome: result NAME STATUS prints PASS or FAIL and counts it;
# finish [PREFIX], the script's last command, prints the counts and fails
# if any check did.
passed=0
failed=0
result() {
  if [ "$2" -eq 0 ]; then echo "PASS: $1"; passed=$((passed + 1));
  else echo "FAIL: $1"; failed=$((failed + 1)); fi
}
finish() {
  echo "${1:+$1: }$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# The number of ranks a layout file's mesh needs: the product of its axes'
# sizes (`mesh: {data: 2, model: 2}` needs 4).
layout_ranks() {
  python3 -c "import math, re, sys; m = re.search(r'mesh: \{(.*)\}', open(sys.argv[1]).read()); \
print(math.prod(int(v.split(':')[1]) for v in m.group(1).split(',')))" "$1"
}
