#!/usr/bin/env python3
"""Layout and partitioning time per op: tessel against upstream MLIR's
`sharding-propagation` + `shard-partition` on the same Megatron-style chain.

    benchmarks/megatron_chain.py --bin build/bin --layers 96

The chain is `layers` blocks of x + W2 sigmoid(x W1), x [batch, d_model],
W1 [d_model, d_ff] split by columns and W2 [d_ff, d_model] by rows over a
2-rank axis: Megatron's MLP, one all_reduce per block. tessel gets it as a
model with named dimensions and a layout file (d_ff over `model`) and runs
tessel-apply-layout and tessel-partition; upstream gets linalg.matmul and
tosa ops on tensors with the weights annotated by shard.shard and runs
sharding-propagation and shard-partition with mlir-opt-22. Both report
MLIR's own pass timing (--mlir-timing, JSON), best of `--repeat` runs; the
time per op divides the passes' time by the ops of the function they
start from (each side's own spelling of the chain: tessel's parameters and
einsums, upstream's tensor.empty / linalg.fill / matmul and sharding
annotations).
"""

import argparse
import json
import pathlib
import subprocess
import tempfile

UPSTREAM_OPT = "/usr/lib/llvm-22/bin/mlir-opt"


def tessel_chain(layers, batch, d_model, d_ff):
    act = f"!tessel.tensor<[batch:{batch}, d_model:{d_model}], f32>"
    hid = f"!tessel.tensor<[batch:{batch}, d_ff:{d_ff}], f32>"
    w1 = f"!tessel.tensor<[d_model:{d_model}, d_ff:{d_ff}], f32>"
    w2 = f"!tessel.tensor<[d_ff:{d_ff}, d_model:{d_model}], f32>"
    lines = [f'func.func @forward(%x0: {act} {{tessel.name = "x"}}) -> {act} {{']
    for i in range(layers):
        lines += [
            f'  %w1_{i} = tessel.parameter "w1_{i}" normal scale 0.02 seed {2 * i + 1} : {w1}',
            f'  %w2_{i} = tessel.parameter "w2_{i}" normal scale 0.02 seed {2 * i + 2} : {w2}',
            f"  %h{i} = tessel.einsum %x{i}, %w1_{i} : ({act}, {w1}) -> {hid}",
            f"  %a{i} = tessel.sigmoid %h{i} : {hid}",
            f"  %y{i} = tessel.einsum %a{i}, %w2_{i} : ({hid}, {w2}) -> {act}",
            f"  %x{i + 1} = tessel.add %x{i}, %y{i} : {act}, {act} -> {act}",
        ]
    lines += [f"  return %x{layers} : {act}", "}"]
    return "\n".join(lines) + "\n", 6 * layers + 1


def upstream_chain(layers, batch, d_model, d_ff):
    act = f"tensor<{batch}x{d_model}xf32>"
    hid = f"tensor<{batch}x{d_ff}xf32>"
    w1 = f"tensor<{d_model}x{d_ff}xf32>"
    w2 = f"tensor<{d_ff}x{d_model}xf32>"
    args = ", ".join([f"%x0: {act}"] + [f"%w1_{i}: {w1}, %w2_{i}: {w2}" for i in range(layers)])
    lines = [
        "shard.grid @grid(shape = 2)",
        f"func.func @forward({args}) -> {act} {{",
        "  %zero = arith.constant 0.0 : f32",
        "  %cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding",
        "  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding",
    ]
    for i in range(layers):
        lines += [
            f"  %w1s_{i} = shard.shard %w1_{i} to %cols annotate_for_users : {w1}",
            f"  %w2s_{i} = shard.shard %w2_{i} to %rows annotate_for_users : {w2}",
            f"  %e1_{i} = tensor.empty() : {hid}",
            f"  %f1_{i} = linalg.fill ins(%zero : f32) outs(%e1_{i} : {hid}) -> {hid}",
            f"  %h{i} = linalg.matmul ins(%x{i}, %w1s_{i} : {act}, {w1}) outs(%f1_{i} : {hid}) -> {hid}",
            f"  %a{i} = tosa.sigmoid %h{i} : ({hid}) -> {hid}",
            f"  %e2_{i} = tensor.empty() : {act}",
            f"  %f2_{i} = linalg.fill ins(%zero : f32) outs(%e2_{i} : {act}) -> {act}",
            f"  %y{i} = linalg.matmul ins(%a{i}, %w2s_{i} : {hid}, {w2}) outs(%f2_{i} : {act}) -> {act}",
            f"  %x{i + 1} = tosa.add %x{i}, %y{i} : ({act}, {act}) -> {act}",
        ]
    lines += [f"  return %x{layers} : {act}", "}"]
    return "\n".join(lines) + "\n", 10 * layers + 4


def pass_seconds(command, passes, repeat):
    """Runs `command` with MLIR's JSON pass timing `repeat` times and returns
    the smallest total of the named passes' wall times."""
    best = None
    for _ in range(repeat):
        out = subprocess.run(
            command + ["--mlir-timing", "--mlir-timing-display=list",
                       "--mlir-output-format=json", "-o", "/dev/null"],
            check=True, capture_output=True, text=True).stderr
        timings = {t["name"]: t["wall"]["duration"] for t in json.loads(out[out.index("["):])}
        seconds = sum(timings[p] for p in passes)
        best = seconds if best is None else min(best, seconds)
    return best


def count_collectives(command, kind):
    out = subprocess.run(command + ["-o", "-"], check=True, capture_output=True, text=True).stdout
    return out.count(kind)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--layers", type=int, default=96)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--d-model", type=int, default=128)
    parser.add_argument("--d-ff", type=int, default=512)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    shape = (args.layers, args.batch, args.d_model, args.d_ff)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        tessel_text, tessel_ops = tessel_chain(*shape)
        (tmp / "chain.mlir").write_text(tessel_text)
        (tmp / "layout.yaml").write_text("mesh: {model: 2}\nlayout:\n  d_ff: model\n")
        upstream_text, upstream_ops = upstream_chain(*shape)
        (tmp / "upstream.mlir").write_text(upstream_text)

        tessel_cmd = [str(pathlib.Path(args.bin) / "tessel-opt"), str(tmp / "chain.mlir"),
                      f"--tessel-apply-layout=layout-file={tmp / 'layout.yaml'}",
                      "--tessel-partition"]
        upstream_cmd = [UPSTREAM_OPT, str(tmp / "upstream.mlir"),
                        "--pass-pipeline=builtin.module(func.func(sharding-propagation,shard-partition))"]
        tessel_s = pass_seconds(tessel_cmd, ["TesselApplyLayout", "TesselPartition"], args.repeat)
        upstream_s = pass_seconds(upstream_cmd, ["ShardingPropagation", "Partition"], args.repeat)
        row = {
            "layers": args.layers,
            "tessel_ops": tessel_ops,
            "upstream_ops": upstream_ops,
            "tessel_s": tessel_s,
            "upstream_s": upstream_s,
            "tessel_us_per_op": tessel_s / tessel_ops * 1e6,
            "upstream_us_per_op": upstream_s / upstream_ops * 1e6,
            # Both must find Megatron's one all_reduce per block.
            "tessel_all_reduces": count_collectives(tessel_cmd, "tessel.all_reduce"),
            "upstream_all_reduces": count_collectives(upstream_cmd, "shard.all_reduce"),
        }
    print(json.dumps(row))


if __name__ == "__main__":
    main()
