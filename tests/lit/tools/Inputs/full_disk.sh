#!/bin/sh
# Runs tessel compile (every --emit), tessel calibrate and tessel-opt into a
# full tmpfs at DIR (mounted here, unmounted on exit) over outputs that were
# there before, and prints what is left: usage: full_disk.sh DIR MODEL LAYOUT
set -u
dir=$1 model=$2 layout=$3
mkdir -p "$dir"
mount -t tmpfs -o size=32k tmpfs "$dir" || exit 2
trap 'umount "$dir"' EXIT
for output in out.mlir out.llvm out.obj out.exe profile.json opt.mlir; do
  echo "good $output" > "$dir/$output"
done
# The rest of the space, so that every write below runs out of it.
cat /dev/zero > "$dir/filler" 2> /dev/null
for emit in mlir llvm obj exe; do
  tessel compile "$model" --layout "$layout" --emit=$emit -o "$dir/out.$emit"
  echo "exit $?"
  cat "$dir/out.$emit"
done
tessel calibrate --max-ranks 1 --repetitions 1 --min-seconds 0.002 -o "$dir/profile.json" > /dev/null
echo "exit $?"
cat "$dir/profile.json"
tessel-opt "$model" -o "$dir/opt.mlir"
echo "exit $?"
cat "$dir/opt.mlir"
echo "files: $(ls -A "$dir" | tr '\n' ' ')"
