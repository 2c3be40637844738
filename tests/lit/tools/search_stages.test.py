"""Checks of tessel search's pipelined candidates for search_stages.test."""

import itertools
import json
import math
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def pipelined(entries):
    return [e for e in entries if "pipeline" in e]


def budget_needs_stages(path, limit):
    """Every unpipelined layout is over the budget; the best is pipelined,
    fits, and its JSON carries the pipeline's section and costs."""
    result = load(path)
    assert result["memory_per_rank"] == limit
    unpipelined = [d for d in result["dropped"] if "pipeline" not in d]
    assert unpipelined and all(d["status"] == "over_budget"
                               for d in unpipelined), result["dropped"]
    assert all("pipeline" in c for c in result["candidates"])
    best = result["best"]
    assert best["memory_bytes_per_rank"] <= limit, best
    pipeline = best["pipeline"]
    p = best["mesh"]["stage"]
    m = pipeline["microbatches"]
    assert pipeline["axis"] == "stage" and pipeline["schedule"] == "1f1b"
    assert pipeline["remat"] is False, pipeline
    assert pipeline["batch_dim"] == "batch"
    assert len(pipeline["stages"]) == p
    assert m in [p << k for k in range(8)], pipeline
    assert abs(pipeline["bubble"] - (p - 1) / (m + p - 1)) < 1e-12
    assert len(pipeline["stage_seconds_per_microbatch"]) == p
    assert len(pipeline["stage_memory_bytes"]) == p
    # The rank's memory is the largest stage's rank memory: its peak, the
    # driver's own and its call sites'.
    assert best["memory_bytes_per_rank"] == max(pipeline["stage_memory_bytes"])
    assert abs(best["compute_seconds"] + best["comm_seconds"]
               - best["step_seconds"]) < 1e-12
    assert "pipeline:" in result["best_yaml"]


def remat(path, limit):
    """No pipelined layout fits unless its stages recompute their forward:
    each plain pipelined candidate over the budget was tried again with
    remat, and the pick is one of those, within the budget; a remat
    variant is tried only for a candidate over the budget."""
    result = load(path)
    entries = pipelined(result["candidates"] + result["dropped"])
    plain = {json.dumps([e["mesh"], e["layout"], e["pipeline"]["microbatches"],
                         e["pipeline"]["stages"]])
             : e for e in entries if not e["pipeline"]["remat"]}
    recomputed = [e for e in entries if e["pipeline"]["remat"]]
    assert recomputed, "no remat candidate"
    for entry in recomputed:
        key = json.dumps([entry["mesh"], entry["layout"],
                          entry["pipeline"]["microbatches"],
                          entry["pipeline"]["stages"]])
        assert plain[key].get("status") == "over_budget", plain[key]
        assert entry["memory_bytes_per_rank"] < plain[key]["memory_bytes_per_rank"]
    assert all(e.get("status") == "over_budget" for e in plain.values())
    best = result["best"]
    assert best["pipeline"]["remat"] is True, best
    assert best["memory_bytes_per_rank"] <= limit, best
    assert "  remat: true" in result["best_yaml"], result["best_yaml"]


def doubled(path):
    """A layout's micro-batch count is doubled while the most it has tried
    is its fastest: for each layout the fastest count is not the most tried
    unless no doubling is left (a micro-batch of one example per data
    rank), and every count beyond 4p doubles one tried and fastest."""
    result = load(path)
    layouts = {}
    for entry in pipelined(result["candidates"]):
        if entry["zero"] or entry["pipeline"]["remat"]:
            continue
        key = json.dumps([entry["mesh"], entry["layout"],
                          entry["pipeline"]["stages"]])
        layouts.setdefault(key, []).append(entry)
    doublings = 0
    for key, entries in layouts.items():
        by_count = {e["pipeline"]["microbatches"]: e for e in entries}
        most = max(by_count)
        fastest = min(entries, key=lambda e: e["step_seconds"])
        p = entries[0]["mesh"]["stage"]
        d = entries[0]["mesh"].get("data", 1)
        if min(by_count) > 4 * p:
            continue  # a cut next to a layout's best, at its count (cuts)
        for m in by_count:
            if m > 4 * p:
                doublings += 1
                half = by_count[m // 2]
                assert all(half["step_seconds"] <= e["step_seconds"]
                           for e in entries if e["pipeline"]["microbatches"] < m), key
        if fastest["pipeline"]["microbatches"] == most:
            assert 64 % (2 * most * d) != 0, (key, most)
    assert doublings > 0, "no micro-batch count beyond 4p"
    print(f"{doublings} doubled micro-batch counts, "
          f"picked {result['best']['pipeline']['microbatches']}")


def twin_key(entry):
    """What a variant shares with the plain candidate it was made from."""
    return json.dumps([entry["mesh"], entry["layout"],
                       entry["pipeline"]["microbatches"],
                       entry["pipeline"]["stages"]])


def zero_variants(path, yaml_path):
    """Over the budget, a pipelined candidate with a data axis is tried
    with ZeRO's overrides (and with remat, and both); the ZeRO variants
    hold less than their plain twin, which is over the budget, and are
    ranked. Writes the fastest ZeRO variant's layout to `yaml_path`, and
    its entry, as search's best, to `yaml_path`.json."""
    result = load(path)
    entries = pipelined(result["candidates"] + result["dropped"])
    plain = {twin_key(e): e for e in entries
             if not e["zero"] and not e["pipeline"]["remat"]}
    zero = [e for e in pipelined(result["candidates"]) if e["zero"]]
    assert zero, "no ZeRO variant ranked"
    for entry in zero:
        assert "data" in entry["mesh"] and entry["overrides"], entry
        assert all(rule == {next(iter(rule)): "data"}
                   for rule in entry["overrides"].values()), entry
        # Under this budget no plain data x stage layout fits, so each
        # ZeRO variant is a memory lever, at its twin's most micro-batches.
        twin = plain[twin_key(entry)]
        assert twin["status"] == "over_budget", twin
        assert entry["memory_bytes_per_rank"] < twin["memory_bytes_per_rank"]
    # Remat only for layouts over the budget (zero_beside_stages checks the
    # ZeRO variants of layouts that fit).
    for entry in entries:
        if entry["pipeline"]["remat"]:
            assert plain[twin_key(entry)]["status"] == "over_budget", entry
    with open(yaml_path, "w") as f:
        f.write(layout_yaml(zero[0]))
    with open(yaml_path + ".json", "w") as f:
        json.dump({"best": zero[0]}, f)


def layout_key(entry):
    """A pipelined candidate's layout whatever its micro-batch count and
    cut."""
    return json.dumps([entry["mesh"], entry["layout"]])


def zero_beside_stages(path):
    """Without a budget every plain pipelined layout with a data axis is
    also tried with ZeRO's overrides, once, at its fastest micro-batch
    count and cut; it holds less than that, and nothing recomputes."""
    result = load(path)
    assert len(result["candidates"]) == result["ranked"], "raise --top"
    entries = pipelined(result["candidates"])
    assert not result["dropped"], result["dropped"]
    assert not any(e["pipeline"]["remat"] for e in entries)
    fastest = {}
    for entry in entries:
        if not entry["zero"]:
            key = layout_key(entry)
            if key not in fastest or \
                    entry["step_seconds"] < fastest[key]["step_seconds"]:
                fastest[key] = entry
    zero = {}
    for entry in entries:
        if entry["zero"]:
            key = layout_key(entry)
            assert key not in zero, ("two ZeRO variants", key)
            zero[key] = entry
    with_data = [k for k, e in fastest.items() if e["mesh"].get("data", 1) > 1]
    assert with_data, "no pipelined layout with a data axis"
    assert sorted(zero) == sorted(with_data), (sorted(zero), with_data)
    for key, entry in zero.items():
        twin = fastest[key]
        assert entry["pipeline"]["microbatches"] == \
            twin["pipeline"]["microbatches"], (entry, twin)
        assert entry["pipeline"]["stages"] == twin["pipeline"]["stages"]
        assert entry["memory_bytes_per_rank"] < twin["memory_bytes_per_rank"]
    print(f"{len(zero)} ZeRO variants beside stages; fastest ZeRO "
          f"{min(e['step_seconds'] for e in zero.values()) * 1e3:.1f} ms")


def cuts(path):
    """Each plain pipelined layout's fastest cut is a local optimum that
    search checked: at its micro-batch count every cut one boundary away
    (one stage starting a segment earlier or later, none empty) was
    evaluated, and none is faster."""
    result = load(path)
    assert len(result["candidates"]) == result["ranked"], "raise --top"
    segments = [s[0] for s in result["stage_axis"]["segments"]]
    families = {}
    for entry in pipelined(result["candidates"]):
        if entry["zero"] or entry["pipeline"]["remat"]:
            continue
        key = json.dumps([entry["mesh"], entry["layout"]])
        starts = tuple(segments.index(stage[0])
                       for stage in entry["pipeline"]["stages"])
        families.setdefault(key, {})[
            (entry["pipeline"]["microbatches"], starts)] = entry
    climbed = 0
    for key, entries in families.items():
        (m, starts), best = min(entries.items(),
                                key=lambda item: item[1]["step_seconds"])
        for i in range(1, len(starts)):
            for step in (-1, 1):
                moved = list(starts)
                moved[i] += step
                bounds = moved + [len(segments)]
                if any(a >= b for a, b in zip(bounds[:-1], bounds[1:])):
                    continue
                neighbour = entries.get((m, tuple(moved)))
                assert neighbour, (key, m, starts, "not tried:", moved)
                assert neighbour["step_seconds"] >= best["step_seconds"]
                climbed += 1
    assert climbed > 0, "no layout had a cut to move"
    print(f"{climbed} neighbouring cuts tried, none faster")


def balanced(path):
    """Every stage count's first cut minimises the slowest stage over every
    contiguous cut of the segments (by the segments' predicted times);
    the other cuts tried are its neighbours' (`cuts`)."""
    result = load(path)
    space = result["stage_axis"]
    segments, seconds = space["segments"], space["segment_seconds"]
    assert len(segments) == len(seconds) >= 2
    entries = pipelined(result["candidates"] + result["dropped"])
    assert entries, "no pipelined candidate"
    found = {}
    for entry in entries:
        stages = entry["pipeline"]["stages"]
        # The stages are the segments, in order, each whole.
        assert sum(stages, []) == sum(segments, []), stages
        starts, i = [], 0
        for stage in stages:
            starts.append(i)
            taken = 0
            while taken < len(stage):
                taken += len(segments[i])
                i += 1
            assert taken == len(stage), stages

        def slowest(cut):
            bounds = list(cut) + [len(seconds)]
            return max(sum(seconds[a:b]) for a, b in zip(bounds, bounds[1:]))

        best = min(slowest((0,) + c) for c in itertools.combinations(
            range(1, len(seconds)), len(stages) - 1))
        balanced = abs(slowest(starts) - best) <= 1e-12 * best
        found[len(stages)] = found.get(len(stages), False) or balanced
    assert all(found.values()), (found, seconds)


def same_as_explain(search_path, explain_path):
    """tessel explain --train on the written layout predicts the step and
    the stages' peaks that search ranked it by, and the bytes the busiest
    stage's rank sends in a step (messages and collectives) are search's."""
    best = load(search_path)["best"]
    explain = load(explain_path)
    assert abs(explain["step"]["seconds"] - best["step_seconds"]) <= 1e-9 * best["step_seconds"], (explain["step"], best)
    peaks = [stage["memory_bytes_per_rank"] for stage in explain["stages"]]
    assert peaks == best["pipeline"]["stage_memory_bytes"], (peaks, best)
    sent = max(stage["sent_forward_bytes_per_step"] +
               stage["sent_back_bytes_per_step"] +
               stage["collective_bytes_per_step"]
               for stage in explain["stages"])
    assert sent == best["comm_bytes_per_rank"], (sent, best)


def compared(path):
    result = load(path)
    [entry] = result["compared"]
    assert "pipeline" in entry and entry["pipeline"]["axis"] == "stage", entry
    same = [c for c in pipelined(result["candidates"])
            if c["mesh"] == entry["mesh"]
            and abs(c["step_seconds"] - entry["step_seconds"]) < 1e-12
            and c["memory_bytes_per_rank"] == entry["memory_bytes_per_rank"]]
    assert same, entry


def space(path, ranks, batch, most):
    """Stage counts dividing the ranks, a balanced cut each and the cuts
    next to each layout's best, meshes of the rest, micro-batches p, 2p or
    4p that the data axis divides; at most `most` candidates in all."""
    result = load(path)
    assert result["evaluated"] <= most, result["evaluated"]
    stage_counts = result["stage_axis"]["stage_counts"]
    assert stage_counts and all(ranks % p == 0 for p in stage_counts)
    entries = pipelined(result["candidates"] + result["dropped"])
    assert len(entries) == result["pipelined"] > 0
    cuts = {}
    three_d = four_d = 0
    for entry in entries:
        mesh, pipeline = entry["mesh"], entry["pipeline"]
        assert math.prod(mesh.values()) == ranks, mesh
        p, m = mesh["stage"], pipeline["microbatches"]
        d = mesh.get("data", 1)
        assert batch % (m * d) == 0, entry
        usual = [k * p for k in (1, 2, 4) if batch % (k * p * d) == 0]
        fallback = max((k for k in range(2, 4 * p + 1) if batch % (k * d) == 0),
                       default=None)
        # Beyond those, doublings of the most of them (see doubled()).
        most = max(usual) if usual else fallback
        assert (m in usual if usual else m == fallback) or any(
            m == most << k for k in range(1, 8)), entry
        cuts.setdefault(p, set()).add(json.dumps(pipeline["stages"]))
        three_d += len(mesh) == 3
        four_d += len(mesh) == 4
    segments = len(result["stage_axis"]["segments"])
    assert sorted(cuts) == stage_counts, cuts
    assert all(len(c) <= math.comb(segments - 1, p - 1)
               for p, c in cuts.items()), cuts
    assert three_d > 0, "no data x stage x model mesh"
    assert four_d > 0, "no data x stage x model x model2 mesh"
    # Every factorization of the other ranks at most once per micro-batch
    # count (3 of them, and the doublings up to a micro-batch of one) and
    # once per other cut; and the second model axis's refinements of one
    # layout, at its counts and cuts (at most as many again, checked
    # separately).
    assert four_d <= len(entries) - four_d, (four_d, len(entries))
    bound = sum(sum(3 + int(math.log2(batch // d)) +
                    math.comb(segments - 1, p - 1) - 1
                    for d in range(1, ranks // p + 1) if (ranks // p) % d == 0)
                for p in stage_counts)
    assert len(entries) - four_d <= bound, (len(entries) - four_d, bound)


def layout_yaml(candidate):
    """The layout file of a pipelined candidate of search's JSON."""
    pipeline = candidate["pipeline"]
    mesh = ", ".join(f"{a}: {n}" for a, n in candidate["mesh"].items())
    rules = ", ".join(f"{d}: {a}" for d, a in candidate["layout"].items())
    stages = ", ".join("[" + ", ".join(s) + "]" for s in pipeline["stages"])
    overrides = "".join(
        f"  {tensor}: {{{dim}: {axis}}}\n"
        for tensor, rule in candidate.get("overrides", {}).items()
        for dim, axis in rule.items())
    batch_dim = (f"batch_dim: {pipeline['batch_dim']}, "
                 if pipeline.get("batch_dim") else "")
    return (f"mesh: {{{mesh}}}\nlayout: {{{rules}}}\n"
            + (f"overrides:\n{overrides}" if overrides else "")
            + ("pad_uneven: true\n" if candidate.get("pad_uneven") else "") +
            f"pipeline: {{axis: {pipeline['axis']}, microbatches: "
            f"{pipeline['microbatches']}, schedule: {pipeline['schedule']}, "
            f"remat: {str(pipeline['remat']).lower()}, {batch_dim}"
            f"stages: [{stages}]}}\n")


def second_model_axis(path, yaml_path):
    """A second model axis beside the stages: the fastest pipelined
    candidate whose mesh has stage, model and model2 axes keeps a pipelined
    layout's model rules on `model` and splits other dims over `model2`;
    its layout file is written to `yaml_path`."""
    result = load(path)
    four = [c for c in pipelined(result["candidates"])
            if {"stage", "model", "model2"} <= set(c["mesh"])]
    assert four, "no pipelined candidate with a second model axis"
    best = min(four, key=lambda c: c["step_seconds"])
    # Each refinement of the seed is tried at every micro-batch count the
    # seed's layout was tried at, not its fastest one alone.
    def family(mesh, layout, stages):
        return json.dumps([sorted(mesh.items()), sorted(layout.items()), stages])
    counts = {}
    for c in pipelined(result["candidates"] + result["dropped"]):
        if c["zero"] or c["pipeline"]["remat"]:
            continue
        key = family(c["mesh"], c["layout"], c["pipeline"]["stages"])
        counts.setdefault(key, set()).add(c["pipeline"]["microbatches"])
    compared = 0
    for c in four:
        if c["zero"] or c["pipeline"]["remat"]:
            continue
        mesh = {a: n for a, n in c["mesh"].items() if a != "model2"}
        mesh["model"] *= c["mesh"]["model2"]
        layout = {d: a for d, a in c["layout"].items() if a != "model2"}
        seed = counts.get(family(mesh, layout, c["pipeline"]["stages"]))
        if seed:
            mine = counts[family(c["mesh"], c["layout"], c["pipeline"]["stages"])]
            assert seed <= mine, (c["mesh"], c["layout"], seed, mine)
            compared += 1
    assert compared, "no refinement of a pipelined layout found its seed"
    on_model2 = [d for d, a in best["layout"].items() if a == "model2"]
    on_model = [d for d, a in best["layout"].items() if a == "model"]
    assert on_model and on_model2 and not set(on_model) & set(on_model2), best
    with open(yaml_path, "w") as f:
        f.write(layout_yaml(best))
    print(f"{len(four)} pipelined candidates with a second model axis")


def chain(path, yaml_path):
    """Inputs/chain.mlir's segments, and its 3 stages with 8 micro-batches;
    writes that candidate's layout to `yaml_path`."""
    result = load(path)
    segments = [["pre", "fc0", "act0"], ["fc1", "act1"], ["fc2"]]
    assert result["stage_axis"]["segments"] == segments, result["stage_axis"]
    entries = pipelined(result["candidates"])
    assert entries and len(entries) == result["pipelined"], result
    [candidate] = entries
    assert candidate["mesh"] == {"stage": 3}, candidate
    assert candidate["pipeline"]["stages"] == segments, candidate
    assert candidate["pipeline"]["microbatches"] == 8, candidate
    with open(yaml_path, "w") as f:
        f.write(layout_yaml(candidate))


if __name__ == "__main__":
    check, *args = sys.argv[1:]
    if check == "budget-needs-stages":
        budget_needs_stages(args[0], int(args[1]))
    elif check == "remat":
        remat(args[0], int(args[1]))
    elif check == "doubled":
        doubled(args[0])
    elif check == "zero-variants":
        zero_variants(args[0], args[1])
    elif check == "zero-beside-stages":
        zero_beside_stages(args[0])
    elif check == "cuts":
        cuts(args[0])
    elif check == "balanced":
        balanced(args[0])
    elif check == "same-as-explain":
        same_as_explain(args[0], args[1])
    elif check == "compared":
        compared(args[0])
    elif check == "chain":
        chain(args[0], args[1])
    elif check == "second-model-axis":
        second_model_axis(args[0], args[1])
    elif check == "space":
        space(args[0], int(args[1]), int(args[2]), int(args[3]))
    else:
        sys.exit(f"unknown check {check}")
