"""Writes .npy arrays without numpy, for the end-to-end scripts' data sets.

The format (version 1.0) is a magic string, a header length, a Python
dict literal padded so that the data start at a multiple of 64 bytes, and
the elements in C order.
"""

import array


def save(path, typecode, descr, shape, values):
    """Writes `values` (an iterable of numbers) to `path` as an array of
    `shape` whose elements are `descr` ("<f4", "<i4"), packed with the
    `array` module's `typecode` ("f", "i") of the same size."""
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join(f"{n}, " for n in shape))
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as out:
        out.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little"))
        out.write(header.encode())
        out.write(array.array(typecode, values).tobytes())
