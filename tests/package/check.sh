#!/usr/bin/env bash
# The installed package, as a user gets it: installs the build into a fresh
# prefix (cmake --install), checks what is there, then configures and
# builds tests/package against that prefix with find_package(Tessel) alone
# and runs what it built: its own opt tool with tessel's dialect, passes
# and pipeline, the MLP compiled by the installed tessel and linked with the
# installed runtime, and a model built with the installed C++ front end.
#
# usage: check.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source=$2
examples=$source/examples
data=/usr/share/datasets/fashion-mnist
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

passed=0
failed=0
result() {
  if [ "$2" -eq 0 ]; then echo "PASS: $1"; passed=$((passed + 1));
  else echo "FAIL: $1"; failed=$((failed + 1)); fi
}

cmake --install "$build" --prefix "$prefix" > "$work/install.log"

status=0
for file in bin/tessel bin/tessel-opt bin/tessel-eval \
    lib/libtessel_runtime.so lib/libTesselFrontend.so lib/tessel-link.rsp \
    lib/libTesselDialect.a lib/libTesselPasses.a lib/libTesselLayouts.a \
    lib/libTesselRefKernels.a lib/libTesselNpy.a lib/libTesselEvaluator.a \
    lib/libTesselCodegen.a include/tessel/reference/Tensor.h \
    include/tessel/reference/npy/NpyArray.h \
    include/tessel/dialect/TesselDialect.h include/tessel/dialect/TesselModelOps.h.inc \
    include/tessel/dialect/TesselModelOps.td include/tessel/passes/Passes.td \
    include/tessel/frontend/Model.h include/tessel/runtime/program.h \
    include/tessel/Version.h lib/cmake/Tessel/TesselConfig.cmake \
    lib/cmake/Tessel/TesselConfigVersion.cmake lib/cmake/Tessel/TesselTargets.cmake; do
  [ -e "$prefix/$file" ] || { echo "missing from the install: $file"; status=1; }
done
# Nothing installed points back into the build or source tree.
if grep -rIl -e "$(cd "$build" && pwd)" -e "$(cd "$source" && pwd)" "$prefix" > "$work/leaks"; then
  echo "these installed files name the build or source tree:"; cat "$work/leaks"; status=1
fi
result "the prefix has the tools, libraries, headers, ODS files and the CMake package" $status

status=0
cmake -S "$source/tests/package" -B "$work/project" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" -DTESSEL_MODEL="$examples/mlp/mlp.mlir" \
    > "$work/configure.log" 2>&1 &&
  cmake --build "$work/project" > "$work/build.log" 2>&1 ||
  { status=1; tail -n 30 "$work/configure.log" "$work/build.log"; }
result "a project builds against the prefix with find_package(Tessel)" $status
[ $status -eq 0 ] || { echo "$passed passed, $failed failed"; exit 1; }

# Its opt tool: tessel's passes on the MLP (the data layout's all_reduce of
# the loss), and the registered pipeline down to the training step.
status=0
"$work/project/package-opt" "$examples/mlp/mlp.mlir" \
    --tessel-apply-layout="layout-file=$examples/mlp/data.yaml" --tessel-partition \
    > "$work/partitioned.mlir" &&
  grep -q 'tessel.all_reduce sum .* over \["data"\]' "$work/partitioned.mlir" &&
  "$work/project/package-opt" "$examples/mlp/mlp.mlir" \
    --pass-pipeline='builtin.module(tessel-compile{mesh=data:2 rules=batch:data optimizer=adam lower=false})' \
    > "$work/compiled.mlir" &&
  grep -q 'func.func @train_step' "$work/compiled.mlir" &&
  grep -q 'tessel.mesh = #tessel.mesh<\[data:2\]>' "$work/compiled.mlir" ||
  { status=1; head -20 "$work/partitioned.mlir" "$work/compiled.mlir"; }
result "its own opt tool runs tessel's passes and the tessel-compile pipeline" $status

# The program linked with the installed runtime: it uses that runtime and
# trains.
status=0
ldd "$work/project/mlp-program" | grep -q "libtessel_runtime.so => $prefix/lib/" ||
  { status=1; ldd "$work/project/mlp-program"; }
if [ -f "$data/train-images-idx3-ubyte.gz" ] || [ -f "$data/train-images-idx3-ubyte" ]; then
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader \
    "$work/project/mlp-program" --steps 3 --data "$data" --log-every 1 --no-evaluate \
    > "$work/train.log" 2>&1 &&
    grep -q "trained steps 1-3 on 1 rank" "$work/train.log" ||
    { status=1; tail -5 "$work/train.log"; }
else
  echo "(Fashion-MNIST is not installed: the program is linked but not run)"
fi
result "a program compiled by the installed tessel links with the installed runtime and trains" $status

# The front end finds the installed tessel beside itself and explains a
# model it built: the mean loss over 8 examples split over 2 ranks is one
# all_reduce of 4 bytes, 2 x 1/2 x 4 B sent per rank.
status=0
"$work/project/frontend-explain" > "$work/frontend.out" 2>&1 &&
  grep -q "^tool: $prefix/bin/tessel\$" "$work/frontend.out" &&
  grep -q '"comm_bytes_per_rank": 4,' "$work/frontend.out" ||
  { status=1; head -5 "$work/frontend.out"; grep comm_bytes "$work/frontend.out"; }
result "a model built with the installed C++ front end is explained by the installed tessel" $status

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
