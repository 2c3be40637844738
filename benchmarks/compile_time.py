#!/usr/bin/env python3
"""Compile time and peak memory of the Transformer training step against
depth.

    benchmarks/compile_time.py --bin build/bin --layers 12 48 96

For each depth it writes the model with examples/transformer/generate.py and
measures, under the hybrid layout (examples/transformer/hybrid.yaml):

- `tessel compile` to an executable: wall time and peak resident memory
  (/usr/bin/time, best of --repeat runs), and the same up to each stage
  (--emit mlir, llvm, obj),
  so that the MLIR passes, the translation to LLVM IR, the object code and
  the link each get their share;
- every pass of the pipeline, run by tessel-opt with MLIR's pass timing
  (--mlir-timing, JSON): wall time per pass, and the peak memory of the
  pipeline cut after that pass (so a pass's figure includes those before
  it, and the growth from one to the next is that pass's own).

The pass list is `tessel compile`'s (codegen/Pipeline.cpp) with its default
SGD step.

With --jax-python (the benchmark environment's interpreter,
benchmarks/peers/venv.sh), every depth is also compiled by JAX: the same
Transformer's SGD step under the same hybrid layout on 4 host devices
(NamedSharding, GSPMD), jit + lower + XLA compile timed by
benchmarks/peers/jax_peer.py --compile-only, one run in a fresh process;
the row's `jax` holds it (blocks unrolled, as in tessel's model), and the
deepest row's `jax_scan` the same with the blocks in one lax.scan. A JAX
compile that passes --jax-limit-gib of memory or --jax-timeout seconds is
stopped and recorded as failed.
"""

import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
LAYOUT = REPO / "examples" / "transformer" / "hybrid.yaml"


def pipeline():
    """Pairs of (MLIR timing name, tessel-opt flag) in pipeline order."""
    return [
        ("TesselAutodiff", "--tessel-autodiff"),
        ("TesselApplyLayout", f"--tessel-apply-layout=layout-file={LAYOUT}"),
        ("TesselPartition", "--tessel-partition"),
        ("TesselOptimizeComm", "--tessel-optimize-comm"),
        ("CSE", "--cse"),
        ("TesselBucketAllReduces", "--tessel-bucket-all-reduces"),
        ("TesselFuseElementwise", "--tessel-fuse-elementwise"),
        ("TesselLowerToRuntime", "--tessel-lower-to-runtime"),
    ]


def timed(command):
    """Runs `command` under /usr/bin/time; returns (seconds, peak MiB, stderr)."""
    done = subprocess.run(["/usr/bin/time", "-f", "TIME %e %M"] + command,
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{done.stderr}")
    seconds, kib = re.findall(r"^TIME ([\d.]+) (\d+)$", done.stderr, re.M)[-1]
    return float(seconds), int(kib) / 1024, done.stderr


def measure(bin_dir, layers, tmp, repeat):
    model = tmp / f"transformer{layers}.mlir"
    subprocess.run([sys.executable, str(REPO / "examples/transformer/generate.py"),
                    "--layers", str(layers), "-o", str(model)], check=True)
    row = {"layers": layers, "ops_in_model": model.read_text().count(" = tessel.")}
    compile_cmd = [str(bin_dir / "tessel"), "compile", str(model), "--layout", str(LAYOUT)]
    stages = {}
    for emit in ("mlir", "llvm", "obj", "exe"):
        # The best of `repeat` runs: other work on the machine only ever
        # adds time.
        runs = [timed(compile_cmd + ["--emit", emit, "-o", str(tmp / f"out.{emit}")])
                for _ in range(repeat)]
        seconds, mib, _ = min(runs)
        stages[emit] = {"wall_s": seconds, "peak_mib": round(mib, 1)}
    row["compile_wall_s"] = stages["exe"]["wall_s"]
    row["compile_peak_mib"] = stages["exe"]["peak_mib"]
    row["stages_cumulative"] = stages

    passes = pipeline()
    opt = [str(bin_dir / "tessel-opt"), str(model)]
    _, _, stderr = timed(opt + [f for _, f in passes] + [
        "--mlir-timing", "--mlir-timing-display=list", "--mlir-output-format=json",
        "-o", "/dev/null"])
    timing = json.loads(stderr[stderr.index("["):stderr.rindex("]") + 1])
    wall = {t["name"]: t["wall"]["duration"] for t in timing}
    row["passes"] = []
    for i, (name, _) in enumerate(passes):
        _, mib, _ = timed(opt + [f for _, f in passes[: i + 1]] + ["-o", "/dev/null"])
        row["passes"].append({"pass": name, "wall_s": wall.get(name, 0.0),
                              "peak_mib_through": round(mib, 1)})
    row["parse_s"] = wall.get("Parser", 0.0)
    row["print_s"] = wall.get("Output", 0.0)
    return row


def jax_compile(python, layers, scan, limit_gib, timeout_s):
    """JAX's compile time of the same step in a fresh process (no
    compilation cache), one run: {"failed": why} where it was stopped for
    using more than `limit_gib` of memory or `timeout_s` seconds (the
    unrolled 96-block step grew past the machine's 24 GiB and was killed)."""
    command = [os.path.abspath(python), str(REPO / "benchmarks/peers/jax_peer.py"), "--compile-only",
               "--layers", str(layers)] + (["--scan"] if scan else [])
    # Absolute, not resolved: it runs in peers/, and the environment's
    # python is a link to the interpreter it was made from.
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             cwd=REPO / "benchmarks/peers")
    peak_gib, why = 0.0, None
    while child.poll() is None:
        rss = resident_gib(child.pid)
        peak_gib = max(peak_gib, rss)
        elapsed = time.perf_counter() - start
        if rss > limit_gib or elapsed > timeout_s:
            why = (f"stopped at {rss:.1f} GiB resident after {elapsed:.0f} s "
                   f"(limits {limit_gib} GiB, {timeout_s} s)")
            child.kill()
        time.sleep(0.5)
    out, err = child.communicate()
    row = {"peer": "jax", "layers": layers, "blocks": "lax.scan" if scan else "unrolled",
           "peak_rss_gib_sampled": round(peak_gib, 2)}
    if why or child.returncode != 0:
        row["failed"] = why or f"exit {child.returncode}: {err.strip()[-300:]}"
        return row
    row.update(json.loads(out.strip().splitlines()[-1]))
    return row


def resident_gib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 2**20
    except FileNotFoundError:
        pass
    return 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=str(REPO / "build" / "bin"))
    parser.add_argument("--layers", type=int, nargs="+", default=[12, 48, 96])
    parser.add_argument("--repeat", type=int, default=2, help="compiles per stage, best kept")
    parser.add_argument("--jax-python", help="compile the models with JAX too, with this interpreter")
    parser.add_argument("--jax-limit-gib", type=float, default=10.0, help="stop JAX's compile above this")
    parser.add_argument("--jax-timeout", type=float, default=300.0, help="stop JAX's compile after this")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for layers in args.layers:
            row = measure(pathlib.Path(args.bin), layers, pathlib.Path(tmp), args.repeat)
            if args.jax_python:
                # Unrolled as tessel's model is, at every depth; the deepest
                # also as a lax.scan, the way JAX users write deep models.
                row["jax"] = jax_compile(args.jax_python, layers, False, args.jax_limit_gib, args.jax_timeout)
                if layers == max(args.layers):
                    row["jax_scan"] = jax_compile(args.jax_python, layers, True, args.jax_limit_gib,
                                                  args.jax_timeout)
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
