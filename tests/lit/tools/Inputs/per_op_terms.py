"""The per-op term of the step-time model (docs/search.md), for lit tests.

usage: per_op_terms.py profile PROFILE.json SECONDS
           writes PROFILE with every job size's per_op_seconds set
       per_op_terms.py pipeline WITHOUT.json WITH.json PROGRAM.ll
           compares two `tessel explain --train --format json` reports of
           one pipelined layout, on a profile without a per-op time and
           on the same profile with one
       per_op_terms.py search SEARCH.json PROGRAM.ll
           checks `tessel search --format json` on a profile whose kernels
           and links cost next to nothing, with PROGRAM.ll its best
           layout's compiled step

The ops counted are those the compiled program runs: the tessel_rt_execute
and tessel_rt_start calls of each function in its LLVM IR (`tessel compile
--emit llvm`), one per op after fusion.
"""

import json
import re
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def runtime_calls(path):
    """The tessel_rt_execute and tessel_rt_start calls of each compiled
    function, by the tessel function's name."""
    calls, function = {}, None
    with open(path) as f:
        for line in f:
            defined = re.match(r"define .*@tessel_fn_(\w+)\(", line)
            if defined:
                function = defined.group(1)
                calls[function] = 0
            elif line.startswith("}"):
                function = None
            elif function and re.search(r"call void @tessel_rt_(execute|start)\(", line):
                calls[function] += 1
    return calls


def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-12)


def profile(path, seconds):
    result = load(path)
    for entry in result["kernels"]:
        entry["per_op_seconds"] = float(seconds)
    json.dump(result, sys.stdout, indent=1)
    print()


def pipeline(without_path, with_path, program):
    without, per_op = load(without_path), load(with_path)
    cost = per_op["step"]["per_op_seconds"]
    assert without["step"]["per_op_seconds"] == 0 and cost > 0
    calls = runtime_calls(program)
    for plain, stage in zip(without["stages"], per_op["stages"]):
        s = stage["stage"]
        for function, ops, seconds in (
                ("forward", "forward_ops_per_microbatch", "forward_seconds_per_microbatch"),
                ("backward", "backward_ops_per_microbatch", "backward_seconds_per_microbatch"),
                ("apply", "apply_ops", "apply_seconds")):
            # The ops counted are the compiled function's calls, and each
            # adds the per-op time to the function's.
            assert stage[ops] == calls[f"stage{s}_{function}"], (s, function, calls)
            assert close(stage[seconds] - plain[seconds], stage[ops] * cost), (s, function)
        # One add per gradient, the driver's, run as an op.
        assert close(stage["gradient_sum_seconds_per_microbatch"] -
                     plain["gradient_sum_seconds_per_microbatch"],
                     stage["parameter_tensors"] * cost), s
        print(f"stage {s}: {stage['forward_ops_per_microbatch']} + "
              f"{stage['backward_ops_per_microbatch']} ops a micro-batch, "
              f"{stage['apply_ops']} in apply, "
              f"{stage['parameter_tensors']} gradient sums: per-op terms ok")
    # The step grows by the busiest stage's m (F + B) ops and (m - 1)
    # gradient sums, the fill and drain's (p - 1) (F + B) and apply's ops,
    # where the busiest, longest and slowest stages are the same ones.
    m, p = per_op["pipeline"]["microbatches"], per_op["pipeline"]["stages"]
    slowest = per_op["stages"][per_op["step"]["slowest_stage"]]
    if per_op["step"]["slowest_stage"] == without["step"]["slowest_stage"]:
        mb_ops = slowest["forward_ops_per_microbatch"] + slowest["backward_ops_per_microbatch"]
        fill_ops = max(st["forward_ops_per_microbatch"] + st["backward_ops_per_microbatch"]
                       for st in per_op["stages"])
        apply_ops = max(st["apply_ops"] for st in per_op["stages"])
        grown = ((p - 1) * fill_ops + m * mb_ops +
                 (m - 1) * slowest["parameter_tensors"] + apply_ops) * cost
        assert close(per_op["step"]["seconds"] - without["step"]["seconds"], grown)
        print(f"step grows by {grown * 1e3:.3f} ms")


def search(path, program):
    result = load(path)
    candidates = result["candidates"]
    cost = None
    for candidate in candidates:
        ops = candidate["runtime_ops"]
        # Each op the compiled step runs costs the per-op time; the kernels
        # and links next to nothing.
        if cost is None:
            cost = candidate["runtime_op_seconds"] / ops
        assert close(candidate["runtime_op_seconds"], ops * cost), candidate
        assert candidate["step_seconds"] - candidate["runtime_op_seconds"] < 1e-3 * cost
    ops = [c["runtime_ops"] for c in candidates]
    assert ops == sorted(ops), ops
    calls = runtime_calls(program)
    assert result["best"]["runtime_ops"] == calls["train_step"], (result["best"], calls)
    print(f"{len(candidates)} ranked by the ops they run, "
          f"{min(ops)} to {max(ops)}; the best's are its compiled step's")


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    {"profile": profile, "pipeline": pipeline, "search": search}[command](*args)
