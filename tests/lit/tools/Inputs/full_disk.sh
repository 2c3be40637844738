#!/bin/sh
# Runs tessel compile into a 16 KiB tmpfs at DIR (mounted here, unmounted on
# exit) over outputs that were there before, and prints what is left:
# usage: full_disk.sh DIR MODEL LAYOUT
set -u
dir=$1 model=$2 layout=$3
mkdir -p "$dir"
mount -t tmpfs -o size=16k tmpfs "$dir" || exit 2
trap 'umount "$dir"' EXIT
for emit in mlir llvm obj exe; do
  echo "good $emit" > "$dir/out.$emit"
  tessel compile "$model" --layout "$layout" --emit=$emit -o "$dir/out.$emit"
  echo "exit $?"
  cat "$dir/out.$emit"
done
echo "files: $(ls -A "$dir" | tr '\n' ' ')"
