"""The Python front end: models traced into MLIR, errors as exceptions that
name dimensions and the user's line, layers as functions, and explain, compile
and run through the tessel command."""
import importlib.util
import json
import os
import pathlib

import pytest

import tessel
from tessel import Dim

REPO = pathlib.Path(__file__).resolve().parents[2]
BATCH, PIXELS, HIDDEN, CLASSES = Dim("batch", 8), Dim("pixels", 12), Dim("hidden", 6), Dim("classes", 4)


def mlp():
    model = tessel.Model()

    def forward(images, labels):
        h = tessel.relu(tessel.Linear("fc1", [HIDDEN], "pixels")(images))
        logits = tessel.Linear("fc2", [CLASSES], "hidden")(h)
        return tessel.reduce_mean(tessel.cross_entropy(logits, labels, "classes"))

    model.define("forward", [tessel.Input("images", [BATCH, PIXELS]),
                             tessel.Input("labels", [BATCH], "i32")], forward)
    return model


def error_of(body):
    """The tessel.Error that tracing `body(model, images)` raises."""
    model = tessel.Model()

    def forward(images):
        body(model, images)
        return tessel.reduce_mean(images)

    with pytest.raises(tessel.Error) as raised:
        model.define("forward", [tessel.Input("images", [BATCH, PIXELS])], forward)
    return str(raised.value)


def load_example(name):
    path = REPO / "examples" / name / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tensors_carry_named_dims_and_layers_become_functions():
    model = mlp()
    text = str(model)
    assert "func.func private @Linear(" in text
    assert 'tessel.scope = "fc1"' in text and 'tessel.scope = "fc2"' in text
    holder = {}

    def forward(x):
        holder["y"] = tessel.einsum(x, model2.parameter("w", [PIXELS, HIDDEN]), out=["batch", "hidden"])
        return tessel.reduce_sum(holder["y"])

    model2 = tessel.Model()
    model2.define("forward", [tessel.Input("x", [BATCH, PIXELS])], forward)
    assert holder["y"].dims == [BATCH, HIDDEN]
    assert holder["y"].dtype == "f32"
    assert holder["y"].shape == [8, 6]


def test_mistakes_are_python_exceptions_that_name_the_dims():
    assert issubclass(tessel.Error, ValueError)
    assert "output dimension 'hidden' is in no input" in error_of(
        lambda m, x: tessel.einsum(x, out=[HIDDEN]))
    assert "dimension 'pixels' has size 12" in error_of(
        lambda m, x: x + m.parameter("b", [Dim("pixels", 13)]))
    assert "has no dimension 'features'" in error_of(
        lambda m, x: tessel.Linear("fc", [HIDDEN], "features")(x))
    assert "unknown element type 'f8'" in error_of(lambda m, x: tessel.cast(x, "f8"))


def test_a_dimension_size_is_a_positive_integer():
    # True was Dim('batch', 1); a float, a string or an int past 2^63 - 1
    # failed only to match the constructor (TypeError).
    for size, message in [(True, "has size True; sizes are positive integers"),
                          (4.5, "has size 4.5; sizes are positive integers"),
                          ("4", "has size '4'; sizes are positive integers"),
                          (2 ** 70, "has size 1180591620717411303424, past 2^63 - 1"),
                          (0, "has size 0; sizes are positive")]:
        with pytest.raises(tessel.Error) as raised:
            Dim("batch", size)
        assert f"dimension 'batch' {message}" in str(raised.value)

    class Index:
        """An integer that is not an int, as numpy's are."""

        def __index__(self):
            return 8

    assert Dim("batch", Index()) == Dim("batch", 8)


def test_sin_cos_cumsum_and_argmax_infer_their_dims():
    model = tessel.Model()
    seen = {}

    def forward(images, labels):
        angles = tessel.cumsum(images, "pixels")
        mixed = tessel.sin(angles) * tessel.cos(images)
        seen["suffix"] = tessel.cumsum(mixed, "batch", reverse=True)
        seen["argmax"] = tessel.argmax(mixed, "pixels")
        hits = tessel.cast(tessel.compare("eq", seen["argmax"], labels), "f32")
        return tessel.reduce_mean(seen["suffix"] * hits)

    model.define("forward", [tessel.Input("images", [BATCH, PIXELS]),
                             tessel.Input("labels", [BATCH], "i32")], forward)
    assert seen["suffix"].dims == [BATCH, PIXELS]
    assert seen["argmax"].dims == [BATCH] and seen["argmax"].dtype == "i32"
    text = str(model)
    for op in ("tessel.sin", "tessel.cos", "tessel.cumsum", "tessel.argmax"):
        assert op in text, op
    assert 'over "batch" reverse' in text
    assert "no dimension 'seq'" in error_of(lambda m, x: tessel.cumsum(x, "seq"))
    assert "no dimension 'classes'" in error_of(lambda m, x: tessel.argmax(x, "classes"))


def test_dropout_takes_the_step_and_is_off_outside_training():
    model = tessel.Model()
    seen = {}

    def forward(images, dropout_step):
        seen["dropped"] = tessel.dropout(images, 0.25, dropout_step, seed=3)
        kept = tessel.dropout(seen["dropped"], 0.5, dropout_step, training=False)
        return tessel.reduce_mean(kept)

    model.define("forward", [tessel.Input("images", [BATCH, PIXELS]),
                             tessel.Input("dropout_step", [], "i64")], forward)
    assert seen["dropped"].dims == [BATCH, PIXELS]
    text = str(model)
    assert "tessel.dropout %arg0 step %arg1 rate 2.500000e-01 seed 3" in text
    assert "rate 5.000000e-01" not in text
    assert "rate 1 is not in [0, 1)" in error_of(
        lambda m, x: tessel.dropout(x, 1.0, tessel.constant(m, 0, [], "i64")))
    assert "not an i32 or i64 scalar" in error_of(lambda m, x: tessel.dropout(x, 0.5, x))


def test_grouped_and_depthwise_convolutions():
    c, h, w, f = Dim("c", 4), Dim("h", 8), Dim("w", 8), Dim("f", 6)
    model = tessel.Model()
    seen = {}

    def forward(x):
        seen["y"] = tessel.Conv2d("grouped", f, "c", ["h", "w"], 3, padding=1, groups=2)(x)
        seen["z"] = tessel.Conv2d("depthwise", Dim("g", 6), "f", ["h", "w"], 3, padding=1,
                                  groups=6)(seen["y"])
        k = model.parameter("k", [Dim("g", 3), Dim("o", 6), Dim("kh", 1), Dim("kw", 1)])
        seen["p"] = tessel.conv2d(seen["z"], k, "g", "o", ["h", "w"], ["kh", "kw"], groups=2)
        return tessel.reduce_mean(seen["p"])

    model.define("forward", [tessel.Input("x", [BATCH, c, h, w])], forward)
    assert seen["y"].dims == [BATCH, f, h, w]
    assert seen["z"].dims == [BATCH, Dim("g", 6), h, w]
    assert seen["p"].dims == [BATCH, Dim("o", 6), h, w]
    text = str(model)
    assert "groups = 2" in text and "groups = 6" in text
    assert "[f:1, g:6, h_k:3, w_k:3]" in text
    assert "groups 4 must be positive and divide" in error_of(
        lambda m, x: tessel.Conv2d("bad", f, "pixels", ["batch", "pixels"], 1, groups=4)(x))


def test_tensors_of_erased_functions_and_dead_models_are_errors():
    import gc
    kept = {}
    model = tessel.Model()

    def failing(x):
        kept["x"] = tessel.relu(x)
        raise ValueError("the user's own mistake")

    with pytest.raises(ValueError, match="own mistake"):
        model.define("forward", [tessel.Input("x", [BATCH])], failing)
    # The failed function is gone; its tensor must not reach a new one.
    with pytest.raises(tessel.Error, match="belongs to another function"):
        model.define("forward", [tessel.Input("x", [BATCH])], lambda x: x + kept["x"])
    other = tessel.Model()
    other.define("f", [tessel.Input("x", [BATCH])],
                 lambda x: kept.__setitem__("orphan", tessel.exp(x)) or tessel.reduce_sum(x))
    del other
    gc.collect()
    with pytest.raises(tessel.Error, match="no longer exists"):
        tessel.relu(kept["orphan"])


def test_a_body_that_returns_no_tensor_is_an_error():
    model = tessel.Model()
    for result, kind in ((None, "NoneType"), (3, "int"), ([1], "int")):
        with pytest.raises(tessel.Error, match=f"returned a .*{kind}"):
            model.define("forward", [tessel.Input("x", [BATCH])], lambda x, r=result: r)
    assert not model.has_function("forward")


def test_top_k_gives_the_values_and_indices_of_a_sort(tmp_path):
    """tessel.top_k's values and indices, run by tessel-eval, against a sort
    of each row (largest first, equal ones by index); the dims inferred and
    the mistakes named."""
    import random
    import subprocess
    tokens, experts, choice = Dim("tokens", 6), Dim("experts", 5), Dim("choice", 2)
    model = tessel.Model()
    seen = {}

    def evaluate(scores):
        seen["values"], seen["indices"] = tessel.top_k(scores, "experts", 2, "choice")
        return {"values": seen["values"], "indices": tessel.cast(seen["indices"], "f32")}

    model.define("evaluate", [tessel.Input("scores", [tokens, experts])], evaluate)
    assert seen["values"].dims == [tokens, choice] and seen["values"].dtype == "f32"
    assert seen["indices"].dims == [tokens, choice] and seen["indices"].dtype == "i32"
    assert 'over "experts" k 2 as "choice" indices' in str(model)
    model.write(str(tmp_path / "top_k.mlir"))
    rng = random.Random(1)
    scores = [float(rng.randint(-2, 2)) for _ in range(6 * 5)]   # many ties
    npy_f32(tmp_path / "scores.npy", (6, 5), scores)
    eval_tool = pathlib.Path(tessel.tool_path()).parent / "tessel-eval"
    subprocess.run([str(eval_tool), str(tmp_path / "top_k.mlir"), "--function", "evaluate",
                    "--input", f"scores={tmp_path / 'scores.npy'}", "--output-dir",
                    str(tmp_path / "out")], check=True, stdout=subprocess.DEVNULL)
    _, values = npy_f32(tmp_path / "out" / "result0.npy")
    _, indices = npy_f32(tmp_path / "out" / "result1.npy")
    for t in range(6):
        row = scores[t * 5:(t + 1) * 5]
        order = sorted(range(5), key=lambda e: (-row[e], e))[:2]
        assert list(indices[t * 2:(t + 1) * 2]) == order, (row, indices)
        assert list(values[t * 2:(t + 1) * 2]) == [row[e] for e in order]
    assert "no dimension 'experts'" in error_of(
        lambda m, x: tessel.top_k(x, "experts", 2, "choice"))
    assert "k must be between 1 and the size of 'pixels' (12)" in error_of(
        lambda m, x: tessel.top_k(x, "pixels", 13, "top"))
    assert "already has dimension 'batch'" in error_of(
        lambda m, x: tessel.top_k(x, "pixels", 2, "batch"))


def test_a_verifier_error_names_the_python_line():
    message = error_of(lambda m, x: tessel.layer_norm(x, []))
    assert "test_frontend.py:" in message, message


def test_a_layer_may_not_reach_into_its_caller():
    class Leaky(tessel.Module):
        def __init__(self, name, outer):
            super().__init__(name)
            self.outer = outer

        def forward(self, x):
            return x + self.outer

    message = error_of(lambda m, x: Leaky("leaky", x)(x))
    assert "belongs to another function" in message


def test_python_modules_scope_their_parameters():
    class Scale(tessel.Module):
        def forward(self, x):
            return x * self.param("gain", [Dim("hidden", 6)], init="ones")

    model = tessel.Model()

    def forward(x):
        return tessel.reduce_sum(Scale("s1")(Scale("s0")(x)))

    model.define("forward", [tessel.Input("x", [BATCH, HIDDEN])], forward)
    assert str(model).count("func.func private @Scale(") == 1
    report = tessel.explain(model, mesh="data:2", rules="batch:data")
    names = {t["name"] for t in report["tensors"] if t["kind"] == "parameter"}
    assert names == {"s0.gain", "s1.gain"}


def test_explain_compares_layouts():
    model = mlp()
    data = tessel.explain(model, mesh="data:2", rules="batch:data")
    split = tessel.explain(model, mesh="model:2", rules="hidden:model")
    assert data["ranks"] == split["ranks"] == 2
    # Model parallelism halves the hidden layer's weights on each rank.
    assert split["totals"]["parameter_bytes_per_rank"] < data["totals"]["parameter_bytes_per_rank"]
    w1 = [t for t in split["tensors"] if t["name"] == "fc1.w"][0]
    assert w1["local_shape"] == [12, 3]


def test_model_scripts_share_one_command_line(tmp_path, capsys):
    import argparse
    parser = argparse.ArgumentParser()
    tessel.add_model_arguments(parser, steps=7, train_batch=32, data="/data")
    emitted = tmp_path / "mlp.mlir"
    layout = tmp_path / "data.yaml"
    layout.write_text("mesh: {data: 2}\nlayout:\n  batch: data\n")
    args = parser.parse_args(["--emit", str(emitted), "--explain", str(layout)])
    assert (args.steps, args.train_batch, args.data, args.train) == (7, 32, "/data", None)
    assert tessel.run_model_commands(mlp(), args) is None
    assert emitted.read_text() == str(mlp())
    assert f"{layout}: 2 ranks" in capsys.readouterr().out


def test_compile_errors_are_exceptions(tmp_path):
    with pytest.raises(tessel.Error, match="give a layout file"):
        tessel.explain(mlp())
    with pytest.raises(tessel.Error, match="tessel explain failed"):
        tessel.explain(mlp(), mesh="data:3", rules="batch:data")  # 8 rows on 3 ranks
    output = tmp_path / "mlp.spmd"
    tessel.compile(mlp(), mesh="data:2", rules="batch:data", output=output)
    assert output.exists() and os.access(output, os.X_OK)


def test_the_cpp_and_python_front_ends_write_the_committed_gpt(tmp_path):
    gpt = load_example("gpt")
    emitted = tmp_path / "gpt.mlir"
    gpt.build_gpt().write(str(emitted))
    assert emitted.read_text() == (REPO / "examples" / "gpt" / "gpt.mlir").read_text()


def test_the_rotary_dropout_gpt_is_the_sweep_model(tmp_path):
    """gpt.py --rotary --dropout 0.1 writes the differential sweep's
    gpt_rotary model; its defaults still write gpt.mlir (checked above)."""
    gpt = load_example("gpt")
    emitted = tmp_path / "gpt_rotary.mlir"
    gpt.build_gpt(rotary=True, dropout=0.1).write(str(emitted))
    committed = REPO / "tests" / "differential" / "models" / "gpt_rotary" / "gpt_rotary.mlir"
    assert emitted.read_text() == committed.read_text()
    text = emitted.read_text()
    assert "pos_emb" not in text and "tessel.sin" in text and "tessel.dropout" in text


def test_the_vit_example_writes_the_committed_vit(tmp_path):
    vit = load_example("vit")
    emitted = tmp_path / "vit.mlir"
    vit.build_vit().write(str(emitted))
    assert emitted.read_text() == (REPO / "examples" / "vit" / "vit.mlir").read_text()


def test_the_resnet_example_writes_the_committed_resnet(tmp_path):
    resnet = load_example("resnet")
    emitted = tmp_path / "resnet.mlir"
    resnet.build_resnet().write(str(emitted))
    assert emitted.read_text() == (REPO / "examples" / "resnet" / "resnet.mlir").read_text()


def test_the_moe_example_writes_the_committed_moe(tmp_path):
    moe = load_example("moe")
    emitted = tmp_path / "moe.mlir"
    moe.build_moe().write(str(emitted))
    assert emitted.read_text() == (REPO / "examples" / "moe" / "moe.mlir").read_text()


def test_the_moe_without_balance_loss_is_the_pipeline_sweep_model(tmp_path):
    """moe.py --layers 4 --batch 8 --seq 8 --balance-weight 0 writes the
    pipeline tests' moe4 model: no load-balancing loss in its @forward."""
    moe = load_example("moe")
    emitted = tmp_path / "moe4.mlir"
    moe.build_moe(layers=4, batch=8, seq=8, balance_weight=0).write(str(emitted))
    committed = REPO / "tests" / "differential" / "pipeline" / "moe4.mlir"
    assert emitted.read_text() == committed.read_text()
    forward = emitted.read_text().split("func.func @forward", 1)[1].split("func.func", 1)[0]
    assert "tessel.mul" not in forward and forward.count("tessel.scope = \"block") == 4


def npy_f32(path, shape=None, values=None):
    """Writes (with values) or reads a little-endian f32 .npy file."""
    import ast
    import math
    import struct
    if values is not None:
        header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % "".join(
            f"{d}, " for d in shape)
        header += " " * ((64 - (11 + len(header)) % 64) % 64) + "\n"
        path.write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) +
                         header.encode() + struct.pack(f"<{len(values)}f", *values))
        return None
    data = path.read_bytes()
    size = struct.unpack("<H", data[8:10])[0]
    shape = ast.literal_eval(data[10:10 + size].decode())["shape"]
    return shape, struct.unpack(f"<{math.prod(shape)}f", data[10 + size:])


def test_the_moe_routing_is_mesh_tensorflows_top_2_gating(tmp_path):
    """The example's dense top-2 routing against a loop over the tokens:
    first and second choices, slots in order, tokens past the capacity
    dropped (the second choices after all first ones), renormalised gates,
    and the load-balancing loss."""
    import math
    import random
    import subprocess
    moe = load_example("moe")
    B, S, E, C = 2, 12, 4, 5
    model = tessel.Model()

    def route(gates):
        dispatch, combine, balance = moe.top_k_routing(gates, Dim("capacity", C), 2)
        return {"dispatch": dispatch, "combine": combine, "balance": balance}

    model.define("evaluate", [tessel.Input("gates", [Dim("batch", B), Dim("seq", S),
                                                     Dim("route", E)])], route)
    model.write(str(tmp_path / "route.mlir"))
    rng = random.Random(0)
    gates = {}
    for b in range(B):
        for s in range(S):
            z = [math.exp(rng.gauss(0, 2) + (1.5 if e == 1 else 0)) for e in range(E)]
            for e in range(E):
                gates[b, s, e] = z[e] / sum(z)
    npy_f32(tmp_path / "gates.npy", (B, S, E), [gates[key] for key in sorted(gates)])
    eval_tool = pathlib.Path(tessel.tool_path()).parent / "tessel-eval"
    subprocess.run([str(eval_tool), str(tmp_path / "route.mlir"), "--function", "evaluate",
                    "--input", f"gates={tmp_path / 'gates.npy'}", "--output-dir",
                    str(tmp_path / "out")], check=True, stdout=subprocess.DEVNULL)

    dispatch, combine, dropped, fraction = {}, {}, 0, [0.0] * E
    for b in range(B):
        first = [max(range(E), key=lambda e: (gates[b, s, e], -e)) for s in range(S)]
        second = [max((e for e in range(E) if e != first[s]), key=lambda e: (gates[b, s, e], -e))
                  for s in range(S)]
        taken = [0] * E
        for choice in (first, second):
            for s in range(S):
                e = choice[s]
                if taken[e] < C:
                    key = (b, s, e, taken[e])
                    total = gates[b, s, first[s]] + gates[b, s, second[s]]
                    dispatch[key] = 1.0
                    combine[key] = gates[b, s, e] / total
                else:
                    dropped += 1
                taken[e] += 1
            taken = [min(t, C) for t in taken]   # the second choices queue after the kept first
        for s in range(S):
            fraction[first[s]] += 1 / (B * S)
    mean_gate = [sum(gates[b, s, e] for b in range(B) for s in range(S)) / (B * S)
                 for e in range(E)]
    assert dropped > 0   # the capacity is exercised
    keys = [(b, s, e, c) for b in range(B) for s in range(S) for e in range(E) for c in range(C)]
    for index, want in enumerate((dispatch, combine)):
        shape, got = npy_f32(tmp_path / "out" / f"result{index}.npy")
        assert shape == (B, S, E, C)
        assert max(abs(g - want.get(k, 0.0)) for g, k in zip(got, keys)) < 1e-6
    _, (balance,) = npy_f32(tmp_path / "out" / "result2.npy")
    assert balance == pytest.approx(E * sum(f * m for f, m in zip(fraction, mean_gate)), rel=1e-5)


def write_npy(path, values, shape, code):
    """Writes a little-endian .npy file of `values` (struct `code`: "f" for
    f32, "i" for i32, "q" for i64) with `shape` (() for a scalar)."""
    import struct
    descr = {"f": "<f4", "i": "<i4", "q": "<i8"}[code]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join(f"{d}, " for d in shape))
    header += " " * ((64 - (11 + len(header)) % 64) % 64) + "\n"
    path.write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) +
                     header.encode() + struct.pack(f"<{len(values)}{code}", *values))


@pytest.mark.parametrize("rotary", [False, True], ids=["learned", "rotary"])
def test_gpt_decode_one_position_at_a_time_gives_the_forward_logits(tmp_path, rotary):
    """Fed a sequence one token at a time, carrying its key/value caches from
    call to call, decode computes at every position the logits the whole
    forward pass computes there (the reference evaluator runs both, with the
    same seeded weights): with learned positions, and with rotary ones and
    dropout (off outside training)."""
    import random
    import subprocess
    gpt = load_example("gpt")
    B, S, V = 2, 6, 256
    model = gpt.build_gpt(layers=2, batch=B, seq=S, d_model=32, heads=4, d_ff=64,
                          rotary=rotary, dropout=0.1 if rotary else 0.0, full_logits=True)
    model.write(str(tmp_path / "gpt.mlir"))
    eval_tool = pathlib.Path(tessel.tool_path()).parent / "tessel-eval"
    rng = random.Random(3)
    tokens = [rng.randrange(V) for _ in range(B * S)]
    write_npy(tmp_path / "tokens.npy", tokens, (B, S), "i")
    full_inputs = {"tokens": tmp_path / "tokens.npy"}
    if rotary:
        write_npy(tmp_path / "dropout_step.npy", [5], (), "q")
        full_inputs["dropout_step"] = tmp_path / "dropout_step.npy"

    def evaluate(function, inputs, out):
        subprocess.run([str(eval_tool), str(tmp_path / "gpt.mlir"), "--function", function,
                        *[f"--input={name}={path}" for name, path in inputs.items()],
                        "--output-dir", str(out)], check=True, stdout=subprocess.DEVNULL)

    evaluate("logits", full_inputs, tmp_path / "full")
    shape, full = npy_f32(tmp_path / "full" / "result0.npy")
    assert shape == (B, S, V)
    caches = [gpt.cache_name(i, part) for i in range(2) for part in ("k", "v")]
    previous = None
    for p in range(S):
        step = tmp_path / f"step{p}"
        step.mkdir()
        write_npy(step / "token.npy", [tokens[b * S + p] for b in range(B)], (B,), "i")
        write_npy(step / "position.npy", [p], (), "i")
        inputs = {"token": step / "token.npy", "position": step / "position.npy"}
        for i, name in enumerate(caches):
            if previous is None:
                write_npy(step / f"{name}.npy", [0.0] * (B * S * 4 * 8), (B, S, 4, 8), "f")
                inputs[name] = step / f"{name}.npy"
            else:
                inputs[name] = previous / f"result{i + 1}.npy"
        evaluate("decode", inputs, step / "out")
        shape, logits = npy_f32(step / "out" / "result0.npy")
        assert shape == (B, V)
        for b in range(B):
            want = full[(b * S + p) * V:(b * S + p + 1) * V]
            got = logits[b * V:(b + 1) * V]
            worst = max(abs(g - w) for g, w in zip(got, want))
            assert worst < 1e-5 * max(abs(w) for w in want), (p, b, worst)
        previous = step / "out"


def test_generate_continues_prompts_alike_on_every_layout(tmp_path):
    """tessel.generate: a GPT trained on 2 ranks continues prompts from its
    checkpoint in forward-only programs on 1 rank and on 2 x 2 (heads and
    d_ff split), greedily and sampled with a seed, giving the same text."""
    gpt = load_example("gpt")
    model = gpt.build_gpt(layers=2)
    checkpoint = tmp_path / "ckpt"
    tessel.run(model, mesh="data:2", rules="batch:data", optimizer="adamw",
               args=["--steps", "40", "--lr", "0.003", "--checkpoint-dir", checkpoint])
    prompts = ["The ", "-x", "Licensed", "a", "GNU"]   # two batches of 4
    hybrid = REPO / "examples" / "gpt" / "hybrid.yaml"
    for options in ({}, {"temperature": 0.9, "top_k": 30, "seed": 4}):
        one = tessel.generate(model, checkpoint, prompts, mesh="data:1", rules="batch:data",
                              max_tokens=5, **options)
        assert [row["prompt"] for row in one] == prompts
        for row in one:
            assert len(row["tokens"]) == 5 and all(0 <= t < 256 for t in row["tokens"]), row
            if max(row["tokens"]) < 128:   # the text is the tokens' bytes
                assert row["text"] == bytes(row["tokens"]).decode("ascii"), row
        assert tessel.generate(model, checkpoint, prompts, hybrid, max_tokens=5,
                               **options) == one


def test_greedy_generation_picks_the_forward_passes_top_choice(tmp_path):
    """Greedy decoding through the driver (`PROGRAM generate`) continues each
    prompt with the byte the whole forward pass ranks first: the reference
    evaluator's logits over prompt + continuation, with the same checkpoint,
    have at position t-1 their largest value at the byte generated at t. An
    off-by-one in the tokens or positions the driver feeds decode fails this.
    The prompts have different lengths, so the rows of a batch are at
    different positions."""
    import subprocess
    gpt = load_example("gpt")
    B, S, V = 4, 16, 256
    model = gpt.build_gpt(layers=1, batch=B, seq=S, d_model=32, heads=4, d_ff=64,
                          full_logits=True)
    model.write(str(tmp_path / "gpt.mlir"))
    checkpoint = tmp_path / "ckpt"
    tessel.run(model, mesh="data:1", rules="batch:data",
               args=["--steps", "5", "--lr", "0.003", "--checkpoint-dir", checkpoint])
    prompts = ["The ", "a", "GNU General", "xy"]
    rows = tessel.generate(model, checkpoint, prompts, mesh="data:1", rules="batch:data",
                           max_tokens=4)
    assert [row["prompt"] for row in rows] == prompts
    sequences = []
    for row in rows:
        assert len(row["tokens"]) == 4, row
        sequences.append(list(row["prompt"].encode()) + row["tokens"])
    # Causal: the padding after each sequence changes no logit before it.
    write_npy(tmp_path / "tokens.npy", [t for s in sequences for t in s + [0] * (S - len(s))],
              (B, S), "i")
    eval_tool = pathlib.Path(tessel.tool_path()).parent / "tessel-eval"
    subprocess.run([str(eval_tool), str(tmp_path / "gpt.mlir"), "--function", "logits",
                    "--checkpoint", str(checkpoint), f"--input=tokens={tmp_path / 'tokens.npy'}",
                    "--output-dir", str(tmp_path / "out")], check=True, stdout=subprocess.DEVNULL)
    shape, logits = npy_f32(tmp_path / "out" / "result0.npy")
    assert shape == (B, S, V)
    for b, (prompt, sequence) in enumerate(zip(prompts, sequences)):
        for t in range(len(prompt), len(sequence)):
            at = logits[(b * S + t - 1) * V:(b * S + t) * V]
            best = max(at)
            # The generated byte's logit is the largest (another byte may tie).
            assert at[sequence[t]] == best, (prompt, t, sequence[t], at.index(best))


def test_generate_refuses_one_string_as_its_prompts(tmp_path):
    """A string given as `prompts` is not taken for one prompt per character."""
    model = load_example("gpt").build_gpt(layers=1)
    with pytest.raises(tessel.Error, match=r"prompts is a list of strings"):
        tessel.generate(model, tmp_path, "The ", mesh="data:1", rules="batch:data")


def test_batch_norm_trains_with_batch_statistics_and_evaluates_with_running_ones():
    batch, c, h, w = Dim("batch", 4), Dim("c", 3), Dim("h", 5), Dim("w", 5)
    model = tessel.Model()
    norm = tessel.BatchNorm("bn", "c", ["batch", "h", "w"], momentum=0.2)

    def body(x):
        return tessel.reduce_mean(norm(x))

    images = [tessel.Input("x", [batch, c, h, w])]
    model.define("forward", images, body)                   # training: the default for forward
    model.define("evaluate", images, body)                  # evaluation: the default otherwise
    model.define("probe", images, body, training=True)      # explicit
    text = str(model)
    assert 'tessel.parameter "running_mean" zeros scale 1.000000e+00 seed' in text
    assert 'tessel.parameter "running_var" ones' in text and " buffer : " in text
    functions = text.split("func.func")
    traced = [f for f in functions if f.startswith(" private @BatchNorm")]
    assert len(traced) == 2  # one training form, one evaluation form
    assert sum("tessel.update_buffer" in f for f in traced) == 1
    assert "tessel.constant 8.000000e-01" in text  # 1 - momentum keeps the running statistic
    assert "tessel.constant 0.202020198" in text  # momentum n / (n - 1): unbiased variance
    # Errors name the layer and the dims.
    with pytest.raises(tessel.Error, match="BatchNorm 'bn2': the input .* has no dimension 'k'"):
        model.define("bad", images,
                     lambda x: tessel.reduce_mean(tessel.BatchNorm("bn2", "k", ["batch"])(x)))
    with pytest.raises(tessel.Error, match="'c' is also one to normalise over"):
        model.define("bad2", images, lambda x: tessel.reduce_mean(
            tessel.BatchNorm("bn3", "c", ["batch", "h", "w", "c"])(x)))
    with pytest.raises(tessel.Error, match="dimensions besides 'c'"):
        model.define("bad3", images, lambda x: tessel.reduce_mean(
            tessel.BatchNorm("bn4", "c", ["batch", "h"])(x)))


def test_a_module_declares_its_own_buffer():
    batch, c = Dim("batch", 4), Dim("c", 3)

    class RunningMean(tessel.Module):
        def forward(self, x):
            mean = self.buffer("mean", [c])
            if self.training:
                self.update_buffer(mean, mean * 0.5 + tessel.reduce_mean(x, "batch") * 0.5)
            return x - mean

    model = tessel.Model()
    model.define("forward", [tessel.Input("x", [batch, c])],
                 lambda x: tessel.reduce_mean(RunningMean("stats")(x) * model.parameter("s", [c])))
    text = str(model)
    assert 'tessel.parameter "mean" zeros' in text and "tessel.update_buffer" in text


def test_train_a_two_block_language_model_on_four_ranks_like_one():
    gpt = load_example("gpt")
    model = gpt.build_gpt(layers=2)
    args = ["--steps", "6", "--lr", "0.003", "--log-every", "1"]
    one = tessel.run(model, mesh="data:1", rules="batch:data", optimizer="adamw", args=args)
    four = tessel.run(model, REPO / "examples" / "gpt" / "hybrid.yaml", ranks=4,
                      optimizer="adamw", args=args)

    def losses(metrics):
        return {m["step"]: m["loss"] for m in metrics if "step" in m}

    reference, hybrid = losses(one), losses(four)
    assert sorted(reference) == list(range(1, 7))
    assert reference[6] < reference[1]
    for step, loss in reference.items():
        assert hybrid[step] == pytest.approx(loss, rel=1e-4), (step, json.dumps(four))


def test_train_with_dropout_on_four_ranks_like_one():
    """tessel run feeds `dropout_step`, and every layout draws the same masks:
    dropout of the split batch and d_model gives the one-rank loss curve."""
    batch, seq, vocab, d_model = Dim("batch", 4), Dim("seq", 8), Dim("vocab", 256), Dim("d_model", 16)
    embedding = tessel.Embedding("emb", vocab, [d_model])
    model = tessel.Model()

    def forward(tokens, targets, dropout_step):
        x = tessel.dropout(embedding(tokens), 0.3, dropout_step, seed=1)
        h = tessel.dropout(tessel.MLP("mlp", Dim("d_ff", 32), "d_model")(x), 0.2,
                           dropout_step, seed=2)
        logits = embedding.attend(h)
        return tessel.reduce_mean(tessel.cross_entropy(logits, targets, "vocab"))

    model.define("forward", [tessel.Input("tokens", [batch, seq], "i32"),
                             tessel.Input("targets", [batch, seq], "i32"),
                             tessel.Input("dropout_step", [], "i64")], forward)
    args = ["--steps", "5", "--lr", "0.01", "--log-every", "1"]
    one = tessel.run(model, mesh="data:1", rules="batch:data", optimizer="adam", args=args)
    four = tessel.run(model, mesh="data:2;model:2", rules="batch:data;d_model:model", ranks=4,
                      optimizer="adam", args=args)

    def losses(metrics):
        return {m["step"]: m["loss"] for m in metrics if "step" in m}

    reference, split = losses(one), losses(four)
    assert sorted(reference) == list(range(1, 6))
    for step, loss in reference.items():
        assert split[step] == pytest.approx(loss, rel=1e-4), (step, json.dumps(four))


def test_tessel_run_draws_a_new_mask_every_step():
    """With a learning rate of 0 only the mask can change the loss, which is a
    mean of dropped-out weights: `dropout_step` takes the step's number."""
    batch, seq, d = Dim("batch", 4), Dim("seq", 8), Dim("d", 64)
    model = tessel.Model()

    def forward(tokens, targets, dropout_step):
        kept = tessel.dropout(model.parameter("p", [d]) + 1.0, 0.5, dropout_step, seed=1)
        return tessel.reduce_mean(kept) + tessel.reduce_mean(tessel.cast(tokens, "f32")) * 0.0

    model.define("forward", [tessel.Input("tokens", [batch, seq], "i32"),
                             tessel.Input("targets", [batch, seq], "i32"),
                             tessel.Input("dropout_step", [], "i64")], forward)
    metrics = tessel.run(model, mesh="data:1", rules="batch:data", optimizer="sgd",
                         args=["--steps", "4", "--lr", "0", "--log-every", "1"])
    losses = [m["loss"] for m in metrics if "step" in m]
    assert len(losses) == 4 and len(set(losses)) == 4, losses
