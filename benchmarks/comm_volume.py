#!/usr/bin/env python3
"""Bytes per rank per training step: `tessel explain` against a figure
worked out here from the model's shapes and the layout alone.

    benchmarks/comm_volume.py --bin build/bin [--json out.json]

For every example, layout file and optimizer (SGD and AdamW) it
differentiates the model (tessel-opt --tessel-autodiff), asks `tessel
explain --function train_step --format json` for the bytes each rank sends
per step, and compares them with the textbook volume of the same
parallelism, which does not depend on the optimizer (its state is split
like its parameter and updated where it lies), counted
with the ring costs explain also uses (docs/layouts.md): all_reduce
2 (g-1)/g x size, all_gather (g-1) x local size, reduce_scatter
(g-1)/g x size. The textbook figures:

- the mean loss over a split batch: one all_reduce of the f32 scalar;
- the gradient norm the training step returns (the L2 norm of all
  gradients): each rank sums the squares of its blocks of the gradients
  split over the same axes, and one all_reduce of that f32 scalar over
  those axes completes them (one per set of axes that splits a parameter);
- data parallelism: each parameter's gradient all_reduced over the batch
  axes the parameter is not split over;
- a parameter split over a batch axis (ZeRO): gathered once per step over
  that axis, its gradient reduce-scattered over it (all_gather +
  reduce_scatter = all_reduce: ZeRO sends what data parallelism sends);
- Megatron-style model parallelism: the MLP's logits all_reduced once; in
  each Transformer block one all_reduce of the activations after attention
  and one after the MLP, and their conjugates in the backward pass (one
  each); a vocabulary-split cross-entropy costs three all_reduces of a
  [batch, seq] f32 (max, sum of exponentials, label logit) and, backward,
  one all_reduce of the activations that feed the unembedding.

It also counts the collectives of the per-rank training step that
`tessel compile --emit mlir` writes (`compiled_bytes`), the program that
really runs, to tell a miscount by explain from a compiler that sends
more than it should.

Layouts with no textbook model here (the CNN's channel and spatial splits)
get no analytic figure and no ratio. The ratio is analytic / explain: 1.0
when tessel sends exactly the textbook volume, below 1 when it sends more.
"""

import argparse
import json
import math
import pathlib
import re
import subprocess
import sys
import tempfile

import yaml

REPO = pathlib.Path(__file__).resolve().parent.parent
F32 = 4
# The optimizers measured: plain SGD, and AdamW, whose update uses each
# gradient twice (m and v).
OPTIMIZERS = ("sgd", "adamw")


def all_reduce(size, g):
    return 2 * (g - 1) / g * size


def all_gather(local, g):
    return (g - 1) * local


def reduce_scatter(size, g):
    return (g - 1) / g * size


class Model:
    """The parameters and dimension sizes of a model file."""

    def __init__(self, path):
        text = pathlib.Path(path).read_text()
        # Comments may mention shapes; only code counts.
        text = "\n".join(line.split("//")[0] for line in text.splitlines())
        aliases = dict(re.findall(r"^(![\w.]+)\s*=\s*(!tessel\.tensor<\[[^\]]*\][^>]*>)", text, re.M))
        self.sizes = {}
        for name, size in re.findall(r"(\w+):(\d+)", text):
            self.sizes.setdefault(name, int(size))
        self.parameters = {}
        for name, type_ in re.findall(r'tessel\.parameter\s+"([^"]+)"[^:]*:\s*(![\w.]+(?:<\[[^\]]*\][^>]*>)?)', text):
            type_ = aliases.get(type_, type_)
            # A dimension's size may differ between tensors (the CNN's h2
            # is 14 in activations and 7 in its dense weight), so each
            # parameter keeps its own.
            dims = [(d, int(n)) for d, n in re.findall(r"(\w+):(\d+)", type_)]
            self.parameters.setdefault(name, dims)


class Layout:
    """A layout file: the mesh, the rules and the per-tensor overrides."""

    def __init__(self, path):
        spec = yaml.safe_load(pathlib.Path(path).read_text())
        self.mesh = {k: int(v) for k, v in spec.get("mesh", {}).items()}
        self.rules = {d: self._axes(a) for d, a in (spec.get("layout") or {}).items()}
        self.overrides = {
            t: {d: self._axes(a) for d, a in dims.items()}
            for t, dims in (spec.get("overrides") or {}).items()
        }

    @staticmethod
    def _axes(value):
        return [value] if isinstance(value, str) else list(value or [])

    def axes_of(self, tensor, dim):
        override = self.overrides.get(tensor, {})
        return override[dim] if dim in override else self.rules.get(dim, [])

    def group(self, axes):
        return math.prod(self.mesh[a] for a in axes)

    def local_size(self, tensor, dims):
        return math.prod(n // self.group(self.axes_of(tensor, d)) for d, n in dims)


def analytic(model, layout, family):
    """Returns {kind: bytes per rank} of the textbook algorithm, or None."""
    volume = {"all_reduce": 0.0, "all_gather": 0.0, "reduce_scatter": 0.0}
    sizes = model.sizes
    batch_axes = layout.rules.get("batch", [])
    split_dims = {d for d, a in layout.rules.items() if a and d != "batch"}
    for t in layout.overrides.values():
        split_dims |= {d for d, a in t.items() if a}
    # Model parallelism this script has a textbook figure for.
    if family == "cnn" and split_dims:
        return None
    batch_local = sizes["batch"] // layout.group(batch_axes)

    if batch_axes:
        volume["all_reduce"] += all_reduce(F32, layout.group(batch_axes))
    norm_axes = set()
    for name, dims in model.parameters.items():
        local = layout.local_size(name, dims) * F32
        own = {a for d, _ in dims for a in layout.axes_of(name, d)}
        if own:
            norm_axes.add(frozenset(own))
        sync = [a for a in batch_axes if a not in own]
        sharded = [a for a in batch_axes if a in own]
        if sync:
            volume["all_reduce"] += all_reduce(local, layout.group(sync))
        if sharded:
            g = layout.group(sharded)
            volume["all_gather"] += all_gather(local, g)
            volume["reduce_scatter"] += reduce_scatter(local * g, g)

    for axes in norm_axes:
        volume["all_reduce"] += all_reduce(F32, layout.group(sorted(axes)))

    if family == "mlp":
        hidden_axes = layout.rules.get("hidden", [])
        if hidden_axes:
            logits = batch_local * sizes["classes"] * F32
            volume["all_reduce"] += all_reduce(logits, layout.group(hidden_axes))
    elif family == "transformer":
        blocks = sum(1 for p in model.parameters if p.endswith("attn_wq"))
        act = batch_local * sizes["seq"] * sizes["d_model"] * F32
        for dim in ("heads", "d_ff"):
            axes = layout.rules.get(dim, [])
            if axes:
                # Forward after the sub-block, backward before it.
                volume["all_reduce"] += blocks * 2 * all_reduce(act, layout.group(axes))
        vocab_axes = layout.axes_of("logits", "vocab")
        if vocab_axes:
            g = layout.group(vocab_axes)
            rows = batch_local * sizes["seq"] * F32
            volume["all_reduce"] += 3 * all_reduce(rows, g) + all_reduce(act, g)
    return {k: v for k, v in volume.items() if v}


ELEMENT_BYTES = {"f32": 4, "f64": 8, "bf16": 2, "f16": 2, "i32": 4, "i64": 8, "i1": 1}
COLLECTIVE = re.compile(
    r"tessel\.(all_reduce|all_gather|reduce_scatter|all_to_all|halo_exchange|collective_permute)"
    r"\b(.*?)over (\[[^\]]*\]|\"\w+\")[^:]*:\s*(!tessel\.tensor<[^>]*>)(?:\s*->\s*(!tessel\.tensor<[^>]*>))?")


def tensor_bytes(type_):
    shape = [int(n) for n in re.findall(r":(\d+)", type_)]
    element = re.search(r"\],\s*(\w+)>", type_).group(1)
    return math.prod(shape) * ELEMENT_BYTES[element]


def compiled(bin_dir, source, layout_file, layout, optimizer, tmp):
    """Counts the collectives of the training step that `tessel compile`
    writes for one rank (after optimize-comm and CSE), with explain's ring
    costs: a check of explain's own count against the program that runs."""
    out = pathlib.Path(tmp) / "rank.mlir"
    subprocess.run([str(bin_dir / "tessel"), "compile", str(source), "--layout", str(layout_file),
                    "--optimizer", optimizer, "--emit", "mlir", "-o", str(out)], check=True)
    text = out.read_text()
    body = text[text.index("func.func @train_step"):]
    body = body[: body.index("\n  }\n")]
    kinds = {}
    for kind, _, axes, operand, result in COLLECTIVE.findall(body):
        g = layout.group(re.findall(r'"(\w+)"', axes))
        size = tensor_bytes(operand)
        sent = {
            "all_reduce": lambda: all_reduce(size, g),
            "all_gather": lambda: all_gather(size, g),
            "reduce_scatter": lambda: reduce_scatter(size, g),
            "all_to_all": lambda: reduce_scatter(size, g),
            "halo_exchange": lambda: tensor_bytes(result) - size,
            "collective_permute": lambda: size,
        }[kind]()
        kinds[kind] = kinds.get(kind, 0) + sent
    return round(sum(kinds.values())), {k: round(v) for k, v in kinds.items()}


def explain(bin_dir, step, layout):
    out = subprocess.run(
        [str(bin_dir / "tessel"), "explain", str(step), "--layout", str(layout),
         "--function", "train_step", "--format", "json"],
        check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    kinds = {}
    for c in report["collectives"]:
        kinds[c["kind"]] = kinds.get(c["kind"], 0) + c["bytes_per_rank"]
    return report["totals"]["comm_bytes_per_rank"], kinds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=str(REPO / "build" / "bin"))
    parser.add_argument("--json", help="write the rows to this file")
    args = parser.parse_args()
    bin_dir = pathlib.Path(args.bin)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for family, optimizer in [(f, o) for f in ("mlp", "transformer", "cnn") for o in OPTIMIZERS]:
            source = REPO / "examples" / family / f"{family}.mlir"
            step = pathlib.Path(tmp) / f"{family}.{optimizer}.step.mlir"
            subprocess.run([str(bin_dir / "tessel-opt"), str(source), f"--tessel-autodiff=optimizer={optimizer}",
                            "-o", str(step)], check=True)
            model = Model(source)
            for layout_file in sorted((REPO / "examples" / family).glob("*.yaml")):
                layout = Layout(layout_file)
                measured, kinds = explain(bin_dir, step, layout_file)
                program, program_kinds = compiled(bin_dir, source, layout_file, layout, optimizer, tmp)
                expected = analytic(model, layout, family)
                total = round(sum(expected.values())) if expected is not None else None
                rows.append({
                    "example": family,
                    "layout": layout_file.name,
                    "optimizer": optimizer,
                    "ranks": layout.group(list(layout.mesh)),
                    "explain_bytes": measured,
                    "analytic_bytes": total,
                    "ratio": (total / measured if measured else 1.0) if total is not None else None,
                    "compiled_bytes": program,
                    "explain_by_kind": kinds,
                    "compiled_by_kind": program_kinds,
                    "analytic_by_kind": {k: round(v) for k, v in (expected or {}).items()},
                })
    for r in rows:
        ratio = f"{r['ratio']:.3f}" if r["ratio"] is not None else "-"
        analytic_bytes = r["analytic_bytes"] if r["analytic_bytes"] is not None else "-"
        print(f"{r['example']:12} {r['layout']:15} {r['optimizer']:6} explain {r['explain_bytes']:>9} B  "
              f"compiled {r['compiled_bytes']:>9} B  analytic {analytic_bytes:>9} B  ratio {ratio}",
              file=sys.stderr)
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    else:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
