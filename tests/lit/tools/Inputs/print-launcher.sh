#!/bin/sh
# Stands in for mpirun or srun in tests/lit/tools/run_launcher.test: prints
# its name and its arguments, one a line, and starts nothing.
echo "launcher: $(basename "$0")"
for arg in "$@"; do
  echo "arg: $arg"
done
