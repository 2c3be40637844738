#!/usr/bin/env python3
"""Compares the .npy files that forward-only programs wrote, without numpy.

    compare_npy.py DIR_A DIR_B NAME[:TOLERANCE] ...

Each NAME.npy of DIR_A must have the shape and dtype of DIR_B's; with a
tolerance the elements may differ by that much relative to the largest
magnitude of B's (floats), without one they must be equal. `--argmax
LOGITS CLASSES DIR` checks instead that CLASSES.npy holds the index of the
largest element of each row of LOGITS.npy. Exits 1 and says where on a
difference."""
import array
import ast
import sys

TYPECODES = {"<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q", "|b1": "b"}


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        sys.exit(f"{path}: not a .npy file")
    length = int.from_bytes(data[8:10], "little")
    header = ast.literal_eval(data[10:10 + length].decode())
    values = array.array(TYPECODES[header["descr"]])
    values.frombytes(data[10 + length:])
    shape = tuple(header["shape"])
    count = 1
    for n in shape:
        count *= n
    if len(values) != count:
        sys.exit(f"{path}: {len(values)} elements for shape {shape}")
    return header["descr"], shape, values


def compare(a_dir, b_dir, spec):
    name, _, tolerance = spec.partition(":")
    a_type, a_shape, a = load(f"{a_dir}/{name}.npy")
    b_type, b_shape, b = load(f"{b_dir}/{name}.npy")
    if (a_type, a_shape) != (b_type, b_shape):
        sys.exit(f"{name}: {a_type} {a_shape} in {a_dir}, {b_type} {b_shape} in {b_dir}")
    scale = max((abs(x) for x in b), default=0.0) or 1.0
    worst = max((abs(x - y) for x, y in zip(a, b)), default=0.0)
    allowed = float(tolerance) * scale if tolerance else 0.0
    print(f"{name}: {a_shape} {a_type}, largest difference {worst:.3g} "
          f"(allowed {allowed:.3g})")
    if worst > allowed:
        first = next(i for i, (x, y) in enumerate(zip(a, b)) if abs(x - y) > allowed)
        sys.exit(f"{name}: element {first} is {a[first]} in {a_dir} but {b[first]} in {b_dir}")


def check_argmax(logits_name, classes_name, directory):
    _, shape, logits = load(f"{directory}/{logits_name}.npy")
    _, classes_shape, classes = load(f"{directory}/{classes_name}.npy")
    rows, width = shape
    if classes_shape != (rows,):
        sys.exit(f"{classes_name}: shape {classes_shape}, expected ({rows},)")
    for r in range(rows):
        row = logits[r * width:(r + 1) * width]
        if classes[r] != max(range(width), key=lambda i: (row[i], -i)):
            sys.exit(f"row {r}: class {classes[r]} is not the largest logit of {list(row)}")
    print(f"{classes_name}: the largest logit of each of {rows} rows")


if __name__ == "__main__":
    if sys.argv[1] == "--argmax":
        check_argmax(*sys.argv[2:5])
    else:
        for spec in sys.argv[3:]:
            compare(sys.argv[1], sys.argv[2], spec)
