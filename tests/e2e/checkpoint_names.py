#!/usr/bin/env python3
"""Checks that two checkpoints hold the same tensors, each once.

usage: checkpoint_names.py CHECKPOINT OTHER_CHECKPOINT [NAME ...]

Each argument is a checkpoint directory (one .safetensors file, or several
with model.safetensors.index.json). Both must list the same tensor names,
and the names given after them must be among them. Prints the count; exits
1 otherwise.
"""
import json
import pathlib
import sys


def names(directory):
    path = pathlib.Path(directory)
    index = path / "model.safetensors.index.json"
    if index.exists():
        return sorted(json.loads(index.read_text())["weight_map"])
    [single] = path.glob("*.safetensors")
    header = single.read_bytes()
    size = int.from_bytes(header[:8], "little")
    return sorted(k for k in json.loads(header[8:8 + size]) if k != "__metadata__")


def main():
    first, second = names(sys.argv[1]), names(sys.argv[2])
    if first != second:
        print(f"{sys.argv[1]} holds {sorted(set(first) ^ set(second))} where "
              f"{sys.argv[2]} does not, or the other way round")
        return 1
    missing = [name for name in sys.argv[3:] if name not in first]
    if missing:
        print(f"no {missing} in {sys.argv[1]}: {first}")
        return 1
    print(f"{len(first)} tensors, as the other checkpoint's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
