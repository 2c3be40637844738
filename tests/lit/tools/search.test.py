"""Checks of tessel search's JSON output for search.test."""

import json
import math
import re
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def ranking(path, ranks):
    result = load(path)
    candidates = result["candidates"]
    assert result["ranks"] == ranks and candidates, result
    assert result["ranked"] >= len(candidates)
    for candidate in candidates:
        assert math.prod(candidate["mesh"].values()) == ranks, candidate
        assert candidate["step_seconds"] > 0, candidate
        hidden = candidate["hidden_comm_seconds"]
        assert 0 <= hidden <= candidate["comm_seconds"], candidate
        assert abs(candidate["compute_seconds"] + candidate["comm_seconds"]
                   - hidden - candidate["step_seconds"]) < 1e-12, candidate
    times = [c["step_seconds"] for c in candidates]
    assert times == sorted(times), times
    assert result["best"] == candidates[0]
    dropped = result["dropped"]
    assert len(dropped) == result["illegal"] + result["over_budget"]
    assert result["evaluated"] == result["ranked"] + len(dropped)
    assert all(d["status"] in ("illegal", "over_budget") and d["reason"]
               for d in dropped), dropped
    assert result["best_yaml"].splitlines()[1].startswith("mesh: {")


def none_hidden(path):
    """On a profile whose machine hides nothing (overlap_fraction 0, as the
    built-in profile's shared memory), no candidate hides communication,
    though data parallelism has some to hide."""
    candidates = load(path)["candidates"]
    assert all(c["hidden_comm_seconds"] == 0 for c in candidates), candidates
    assert any(c["comm_seconds"] > 0 for c in candidates), candidates


def hidden(path, ranks):
    """On 2 ranks (the built-in profile's machine has 2 cores) data
    parallelism's gradient all_reduces move while the rest of the backward
    pass computes, all but the last bucket's; on 4 ranks, more than the
    cores, nothing is hidden."""
    candidates = load(path)["candidates"]
    if ranks <= 2:
        data = [c for c in candidates
                if c["mesh"] == {"data": ranks} and not c["zero"]]
        assert data and all(0 < c["hidden_comm_seconds"] < c["comm_seconds"]
                            for c in data), data
    else:
        assert all(c["hidden_comm_seconds"] == 0 for c in candidates), candidates


def mesh_of(path, ranks):
    """The layout file's `mesh: {a: 2, b: 2}` line has `ranks` ranks."""
    with open(path) as f:
        line = next(l for l in f if l.startswith("mesh: {"))
    sizes = [int(size) for size in re.findall(r":\s*(\d+)", line)]
    assert sizes and math.prod(sizes) == ranks, line


def budget(path, limit):
    result = load(path)
    assert result["memory_per_rank"] == limit
    assert result["over_budget"] > 0, "the budget left every layout in"
    for candidate in result["candidates"]:
        assert candidate["memory_bytes_per_rank"] <= limit, candidate
    assert result["best"]["memory_bytes_per_rank"] <= limit


def pads(path, dim):
    """Every layout that splits `dim` pads, since some tensor's `dim` does
    not divide (the CNN's h2 is 14, and 7 after pooling)."""
    result = load(path)
    layouts = result["candidates"] + result["dropped"]
    splitting = [c for c in layouts if dim in c["layout"]]
    assert splitting, f"no layout splits {dim}"
    assert all(c["pad_uneven"] for c in splitting), splitting


def compared(path):
    """Each compared layout file is predicted as the candidate of the same
    mesh and rules (the example files are layouts search tries)."""
    result = load(path)
    assert result["compared"], result
    for entry in result["compared"]:
        same = [c for c in result["candidates"]
                if c["mesh"] == entry["mesh"]
                and abs(c["step_seconds"] - entry["step_seconds"]) < 1e-12
                and c["memory_bytes_per_rank"] == entry["memory_bytes_per_rank"]]
        assert same, entry
        faster = sum(c["step_seconds"] < entry["step_seconds"]
                     for c in result["candidates"])
        assert entry["rank"] == faster + 1, entry


def fewest_bytes(path):
    result = load(path)
    sent = [c["comm_bytes_per_rank"] for c in result["candidates"]]
    assert result["ranked"] == len(sent), "list every candidate"
    assert result["best"]["comm_bytes_per_rank"] == min(sent), sent
    # Bytes cost far more than any kernel here, so they order every layout
    # (the built-in profile orders them otherwise).
    assert sent == sorted(sent), sent


def transcendental(path):
    """Every candidate times some transcendental kernels, their own class."""
    result = load(path)
    assert result["candidates"], result
    for candidate in result["candidates"]:
        assert candidate["kernel_seconds"].get("transcendental", 0) > 0, candidate


def reduced_in_f32(path, f32_path):
    """Data parallelism without overrides sends as many bytes in bf16 as in
    f32: its gradients and loss are all-reduced widened to f32, as both
    backends sum 16-bit floats."""
    def data_parallel(result):
        [candidate] = [c for c in result["candidates"]
                       if c["mesh"] == {"data": 4} and c["layout"] == {"batch": "data"}
                       and not c["overrides"]]
        return candidate["comm_bytes_per_rank"]
    bf16, f32 = load(path), load(f32_path)
    assert bf16["precision"] == "bf16" and f32["precision"] == "f32", (bf16["precision"], f32["precision"])
    ratio = data_parallel(bf16) / data_parallel(f32)
    assert ratio == 1.0, ratio
    print(f"data:4 sends {ratio:.2f} of its f32 bytes in bf16")


def slow_bf16_matmuls(path):
    """Prints the profile at `path` with bf16 matmuls measured four times
    slower than its f32 ones, on every job size."""
    profile = load(path)
    for entry in profile["kernels"]:
        entry["narrow_classes"] = {"bf16": {"matmul": [
            dict(point, seconds=4 * point["seconds"])
            for point in entry["classes"]["matmul"]]}}
    json.dump(profile, sys.stdout, indent=2)


def narrow_rates(base_bf16, slow_bf16, base_f32, slow_f32):
    """A bf16 step's einsums are timed by the profile's bf16 matmuls, and an
    f32 step's by its f32 ones alone."""
    def matmul_seconds(path):
        return {json.dumps(c["layout"], sort_keys=True) + str(c["mesh"]) +
                str(c["overrides"]): c["kernel_seconds"]["matmul"]
                for c in load(path)["candidates"]}
    base, slow = matmul_seconds(base_bf16), matmul_seconds(slow_bf16)
    ratios = [slow[key] / base[key] for key in base if key in slow]
    assert ratios and all(abs(r - 4) < 1e-6 for r in ratios), ratios
    assert matmul_seconds(base_f32) == matmul_seconds(slow_f32)
    print(f"bf16 matmuls {min(ratios):.2f}x on {len(ratios)} layouts, f32 ones unchanged")


def edit_profile(path, mistake):
    """Prints the profile at `path` with one mistake made in it (or one
    fact changed)."""
    profile = load(path)
    if mistake == "misspelt-class":
        classes = profile["kernels"][0]["classes"]
        classes["matmull"] = classes["matmul"]
    elif mistake == "group-past-job":
        profile["collectives"][0]["group"] = 64
    elif mistake == "transfers-beside-cores":
        # Not a mistake: a machine whose transfers run beside its cores.
        profile["machine"]["overlap_fraction"] = 1.0
    else:
        sys.exit(f"unknown mistake {mistake}")
    json.dump(profile, sys.stdout, indent=2)


if __name__ == "__main__":
    check, path, *rest = sys.argv[1:]
    if check == "ranking":
        ranking(path, int(rest[0]))
    elif check == "hidden":
        hidden(path, int(rest[0]))
    elif check == "none-hidden":
        none_hidden(path)
    elif check == "mesh-of":
        mesh_of(path, int(rest[0]))
    elif check == "budget":
        budget(path, int(rest[0]))
    elif check == "pads":
        pads(path, rest[0])
    elif check == "compared":
        compared(path)
    elif check == "fewest-bytes":
        fewest_bytes(path)
    elif check == "transcendental":
        transcendental(path)
    elif check == "reduced-in-f32":
        reduced_in_f32(path, rest[0])
    elif check == "slow-bf16-matmuls":
        slow_bf16_matmuls(path)
    elif check == "narrow-rates":
        narrow_rates(path, *rest)
    elif check == "edit-profile":
        edit_profile(path, rest[0])
    else:
        sys.exit(f"unknown check {check}")
