#!/usr/bin/env python3
"""Checks the library boundaries on what the compiler really included.

    check_includes.py BUILD_DIR SOURCE_DIR [NINJA]

Reads the header dependencies Ninja recorded for every object it built
(`ninja -t deps`) and fails, naming the object and the header, when
  - an object of the runtime (runtime/) or of the reference kernels
    (reference/) included an MLIR or LLVM header, or a header of the
    compiler's MLIR side (evaluator/, dialect/, passes/, codegen/,
    analysis/, frontend/, or one TableGen generated);
  - an object of reference/ included a header of runtime/ (the runtime
    depends on the reference kernels, not the other way round).
The whole build puts LLVM's include directory on every target's path, so a
stray include would compile there and break only the runtime's standalone
build (runtime/README.md); this catches it in the suite. Exits 77 (skipped)
when the build is not a Ninja build."""
import os
import re
import subprocess
import sys

build, source = (os.path.realpath(p) for p in sys.argv[1:3])
ninja = sys.argv[3] if len(sys.argv) > 3 else "ninja"
if not os.path.exists(os.path.join(build, "build.ninja")):
    print(f"{build} is not a Ninja build: nothing to read the includes from")
    sys.exit(77)

deps = subprocess.run([ninja, "-C", build, "-t", "deps"], check=True,
                      capture_output=True, text=True).stdout

# object -> the files it included; the first is its source file.
objects = {}
current = None
for line in deps.splitlines():
    if line and not line.startswith(" "):
        current = line.split(":", 1)[0]
        objects[current] = []
    elif line.strip() and current is not None:
        objects[current].append(os.path.realpath(line.strip()))

mlir_side = [os.path.join(source, d) + os.sep for d in
             ("evaluator", "dialect", "passes", "codegen", "analysis",
              "frontend", "include/tessel/frontend")]
llvm = re.compile(r"/(mlir|llvm|llvm-c)/|/llvm-\d+/")


def forbidden(header, library):
    if llvm.search(header):
        return "an MLIR or LLVM header"
    if header.startswith(build + os.sep) and header.endswith(".inc"):
        return "a TableGen-generated header"
    if any(header.startswith(d) for d in mlir_side):
        return "a header of the compiler's MLIR side"
    if library == "reference" and header.startswith(
            os.path.join(source, "runtime") + os.sep):
        return "a runtime header"
    return None


checked = {"runtime": 0, "reference": 0}
failures = []
for obj, files in sorted(objects.items()):
    if not files:
        continue
    library = None
    for name in checked:
        if files[0].startswith(os.path.join(source, name) + os.sep):
            library = name
    if library is None:
        continue
    checked[library] += 1
    for header in files[1:]:
        why = forbidden(header, library)
        if why:
            failures.append(f"{os.path.relpath(files[0], source)} includes "
                            f"{why}: {header}")

for library, count in checked.items():
    print(f"{library}/: {count} objects checked")
    if count == 0:
        failures.append(f"no object of {library}/ in the build's records; "
                        "build the project first")
for failure in failures:
    print(failure)
sys.exit(1 if failures else 0)
