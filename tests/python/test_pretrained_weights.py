"""Pretrained weights: a model built and trained in PyTorch, saved as
safetensors, imported into tessel through a name map (`tessel
import-weights`), gives PyTorch's logits when tessel runs it (`tessel-eval
--checkpoint`, on one rank and partitioned over four), trains on from the
imported weights as PyTorch does, and exports back to a state_dict that
PyTorch loads (`tessel export-weights`)."""
import importlib.util
import json
import math
import os
import pathlib
import struct
import subprocess

import numpy as np
import pytest
import torch

import tessel
from tessel import Dim

TOOL = pathlib.Path(os.environ.get("TESSEL_TOOL", "build/bin/tessel"))
EVAL = TOOL.parent / "tessel-eval"

BATCH, PIXELS, HIDDEN, CLASSES = Dim("batch", 8), Dim("pixels", 12), Dim("hidden", 6), Dim("classes", 4)

# torch.nn.Linear keeps its weight as [out, in]; tessel's Linear as
# [in, out]: the map names torch's axes by tessel's dims.
MLP_MAP = """\
# PyTorch name: tessel parameter (dims: torch's axes, by tessel's dim names)
fc1.weight: {name: fc1.w, dims: [hidden, pixels]}
fc1.bias: fc1.b
fc2.weight: {name: fc2.w, dims: [classes, hidden]}
fc2.bias: fc2.b
"""

TORCH_DTYPES = {torch.float32: "F32", torch.float64: "F64", torch.float16: "F16",
                torch.bfloat16: "BF16", torch.int64: "I64", torch.int32: "I32"}


def save_safetensors(path, state_dict):
    """What safetensors.torch.save_file writes (the format is a JSON header
    and the raw little-endian bytes), without the safetensors package."""
    header, blobs, offset = {}, [], 0
    for name, tensor in state_dict.items():
        tensor = tensor.detach().contiguous()
        data = (tensor.view(torch.int16) if tensor.dtype == torch.bfloat16 else tensor).numpy().tobytes()
        header[name] = {"dtype": TORCH_DTYPES[tensor.dtype], "shape": list(tensor.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    header["__metadata__"] = {"format": "pt"}
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    pathlib.Path(path).write_bytes(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def load_safetensors(path):
    """The state_dict of a safetensors file of float32 tensors."""
    raw = pathlib.Path(path).read_bytes()
    length = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + length])
    header.pop("__metadata__", None)
    tensors = {}
    for name, entry in header.items():
        assert entry["dtype"] == "F32", entry
        begin, end = entry["data_offsets"]
        data = np.frombuffer(raw[8 + length + begin:8 + length + end], dtype=np.float32)
        tensors[name] = torch.from_numpy(data.reshape(entry["shape"]).copy())
    return tensors


def run(*args):
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def fails(*args):
    """Runs a command that must fail; returns its error output."""
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    assert result.returncode != 0, result.stdout
    return result.stderr


def tessel_mlp():
    """The MLP in tessel: `forward` (the loss) and `logits`."""
    model = tessel.Model()

    def logits(images):
        h = tessel.relu(tessel.Linear("fc1", [HIDDEN], "pixels")(images))
        return tessel.Linear("fc2", [CLASSES], "hidden")(h)

    def forward(images, labels):
        return tessel.reduce_mean(tessel.cross_entropy(logits(images), labels, "classes"))

    model.define("forward", [tessel.Input("images", [BATCH, PIXELS]),
                             tessel.Input("labels", [BATCH], "i32")], forward)
    model.define("logits", [tessel.Input("images", [BATCH, PIXELS])], logits)
    return model


class TorchMlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(PIXELS.size, HIDDEN.size)
        self.fc2 = torch.nn.Linear(HIDDEN.size, CLASSES.size)

    def forward(self, images):
        return self.fc2(torch.relu(self.fc1(images)))


def relative_error(ours, theirs):
    ours, theirs = np.asarray(ours, dtype=np.float64), np.asarray(theirs, dtype=np.float64)
    return np.abs(ours - theirs).max() / np.abs(theirs).max()


@pytest.fixture
def trained(tmp_path):
    """A PyTorch MLP trained a few steps, its weights saved, and the data."""
    torch.manual_seed(0)
    net = TorchMlp()
    images = torch.rand(BATCH.size, PIXELS.size)
    labels = torch.randint(0, CLASSES.size, (BATCH.size,), dtype=torch.int32)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.5)
    for _ in range(5):
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(net(images), labels.long()).backward()
        optimizer.step()
    save_safetensors(tmp_path / "model.safetensors", net.state_dict())
    (tmp_path / "map.yaml").write_text(MLP_MAP)
    (tmp_path / "mlp.mlir").write_text(str(tessel_mlp()))
    np.save(tmp_path / "images.npy", images.numpy())
    np.save(tmp_path / "labels.npy", labels.numpy())
    return net, images, labels


def import_weights(tmp_path, *extra):
    out = run(TOOL, "import-weights", tmp_path / "mlp.mlir", "--from", tmp_path / "model.safetensors",
              "--map", tmp_path / "map.yaml", "-o", tmp_path / "ckpt", *extra)
    assert "imported 4 of 4 parameters" in out, out
    return tmp_path / "ckpt"


def tessel_logits(model, checkpoint, images, out, *extra):
    run(EVAL, model, "--function", "logits", "--checkpoint", checkpoint,
        "--input", f"images={images}", "--output-dir", out, *extra)
    return np.load(out / "result0.npy")


def test_pytorch_weights_give_pytorch_logits(tmp_path, trained):
    net, images, _ = trained
    checkpoint = import_weights(tmp_path)
    with torch.no_grad():
        expected = net(images).numpy()
    logits = tessel_logits(tmp_path / "mlp.mlir", checkpoint, tmp_path / "images.npy", tmp_path / "one")
    assert logits.shape == expected.shape
    assert relative_error(logits, expected) < 1e-5
    # Without the checkpoint, the model's own initializers give other logits:
    # the weights above are the imported ones.
    run(EVAL, tmp_path / "mlp.mlir", "--function", "logits", "--input",
        f"images={tmp_path / 'images.npy'}", "--output-dir", tmp_path / "init")
    assert relative_error(np.load(tmp_path / "init" / "result0.npy"), expected) > 0.1


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float64])
def test_other_dtypes_convert_to_the_parameters(tmp_path, trained, dtype):
    """A file of f16, bf16 or f64 weights imports into the model's f32
    parameters: the logits are PyTorch's with those weights in f32."""
    net, images, _ = trained
    state = {name: value.to(dtype) for name, value in net.state_dict().items()}
    save_safetensors(tmp_path / "model.safetensors", state)
    checkpoint = import_weights(tmp_path)
    net.load_state_dict({name: value.float() for name, value in state.items()})
    with torch.no_grad():
        expected = net(images).numpy()
    logits = tessel_logits(tmp_path / "mlp.mlir", checkpoint, tmp_path / "images.npy", tmp_path / "out")
    assert relative_error(logits, expected) < 1e-5


def test_imported_weights_under_a_layout(tmp_path, trained):
    """A forward-only program partitioned over 2 x 2 ranks (batch over data,
    hidden over model) takes the checkpoint's parameters as arguments, each
    rank its block, and gives the same logits: in the reference evaluator
    and compiled, under mpirun."""
    net, images, _ = trained
    checkpoint = import_weights(tmp_path)
    run(TOOL, "compile", tmp_path / "mlp.mlir", "--mode", "infer", "--mesh", "data:2;model:2",
        "--rules", "batch:data;hidden:model", "--no-fusion", "--emit", "mlir",
        "-o", tmp_path / "mlp.rank.mlir")
    with torch.no_grad():
        expected = net(images).numpy()
    logits = tessel_logits(tmp_path / "mlp.rank.mlir", checkpoint, tmp_path / "images.npy", tmp_path / "four")
    assert relative_error(logits, expected) < 1e-5
    # The compiled forward-only program, under mpirun on the same 4 ranks.
    data = tmp_path / "data"
    data.mkdir()
    np.save(data / "images.npy", images.numpy())
    run(TOOL, "run", tmp_path / "mlp.mlir", "--mode", "infer", "--mesh", "data:2;model:2",
        "--rules", "batch:data;hidden:model", "--", "--checkpoint", checkpoint,
        "--function", "logits", "--data", data, "--out", tmp_path / "predicted")
    logits = np.load(tmp_path / "predicted" / "result0.npy")
    assert relative_error(logits, expected) < 1e-5


def test_training_starts_from_imported_weights_and_exports_back(tmp_path, trained):
    """`tessel run --resume` trains on from the imported checkpoint: its first
    loss is PyTorch's at the imported weights, and one SGD step later the
    exported state_dict loads into PyTorch and equals PyTorch's own step."""
    net, images, labels = trained
    checkpoint = import_weights(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    np.save(data / "images.npy", images.numpy())
    np.save(data / "labels.npy", labels.numpy())
    metrics = tmp_path / "metrics.jsonl"
    run(TOOL, "run", tmp_path / "mlp.mlir", "-n", "1", "--mesh", "data:1", "--rules", "batch:data",
        "--", "--steps", "1", "--lr", "0.25", "--data", data, "--checkpoint-dir", checkpoint,
        "--resume", "--metrics", metrics)
    # The whole data set is one batch, so the step's loss is the mean over it
    # whatever order the driver draws it in.
    first = json.loads(next(line for line in metrics.read_text().splitlines() if '"loss"' in line))
    with torch.no_grad():
        expected_loss = torch.nn.functional.cross_entropy(net(images), labels.long()).item()
    assert abs(first["loss"] - expected_loss) <= 1e-5 * abs(expected_loss)

    optimizer = torch.optim.SGD(net.parameters(), lr=0.25)
    optimizer.zero_grad()
    torch.nn.functional.cross_entropy(net(images), labels.long()).backward()
    optimizer.step()
    out = run(TOOL, "export-weights", checkpoint, "--map", tmp_path / "map.yaml",
              "-o", tmp_path / "exported.safetensors")
    assert "step-00000001" in out, out
    fresh = TorchMlp()
    fresh.load_state_dict(load_safetensors(tmp_path / "exported.safetensors"), strict=True)
    for name, value in net.state_dict().items():
        assert relative_error(fresh.state_dict()[name], value) < 1e-5, name


def test_export_is_import_inverted(tmp_path, trained):
    net, _, _ = trained
    checkpoint = import_weights(tmp_path, "--optimizer", "adam")
    run(TOOL, "export-weights", checkpoint, "--map", tmp_path / "map.yaml", "-o", tmp_path / "back.safetensors")
    back = load_safetensors(tmp_path / "back.safetensors")
    assert sorted(back) == sorted(net.state_dict())
    for name, value in net.state_dict().items():
        assert torch.equal(back[name], value), name


def test_map_mistakes_name_the_map_line_and_the_name(tmp_path, trained):
    model, source = tmp_path / "mlp.mlir", tmp_path / "model.safetensors"

    def import_with(text):
        (tmp_path / "bad.yaml").write_text(text)
        return fails(TOOL, "import-weights", model, "--from", source, "--map", tmp_path / "bad.yaml",
                     "-o", tmp_path / "never")

    # torch's [out, in] taken as tessel's order: the shape gives it away.
    wrong_order = MLP_MAP.replace("[hidden, pixels]", "[pixels, hidden]")
    assert "bad.yaml:2: 'fc1.weight' has shape [6, 12]" in import_with(wrong_order)
    # A parameter nothing is mapped to.
    missing = "\n".join(line for line in MLP_MAP.splitlines() if not line.startswith("fc2.bias"))
    error = import_with(missing + "\n")
    assert "tensor 'fc2.bias' is not in the name map" in error
    error = import_with(missing + "\nfc2.bias: null\n")
    assert "no tensor is mapped to parameter 'fc2.b'" in error and "--initialize" in error
    # A parameter the model does not have, and one mapped twice.
    assert "bad.yaml:5: 'fc2.bias': the model has no parameter 'fc2.bias'" in import_with(
        MLP_MAP.replace("fc2.bias: fc2.b", "fc2.bias: fc2.bias"))
    assert "bad.yaml:5: 'fc2.bias': parameter 'fc1.b' is already mapped at" in import_with(
        MLP_MAP.replace("fc2.bias: fc2.b", "fc2.bias: fc1.b"))
    assert not (tmp_path / "never").exists()


def test_initialize_keeps_a_parameter_initializer(tmp_path, trained):
    """--initialize leaves a parameter (here fc1.b, zeros) to its
    initializer; the others are imported."""
    net, images, _ = trained
    (tmp_path / "keep.yaml").write_text(MLP_MAP.replace("fc1.bias: fc1.b", "fc1.bias: null"))
    out = run(TOOL, "import-weights", tmp_path / "mlp.mlir", "--from", tmp_path / "model.safetensors",
              "--map", tmp_path / "keep.yaml", "-o", tmp_path / "partial", "--initialize", "fc1.b")
    assert "imported 3 of 4 parameters" in out, out
    with torch.no_grad():
        net.fc1.bias.zero_()
        expected = net(images).numpy()
    logits = tessel_logits(tmp_path / "mlp.mlir", tmp_path / "partial", tmp_path / "images.npy", tmp_path / "out")
    assert relative_error(logits, expected) < 1e-5


def test_a_checkpoint_directory_is_never_overwritten(tmp_path, trained):
    checkpoint = import_weights(tmp_path)
    before = (checkpoint / "step-00000000.safetensors").read_bytes()
    error = fails(TOOL, "import-weights", tmp_path / "mlp.mlir", "--from", tmp_path / "model.safetensors",
                  "--map", tmp_path / "map.yaml", "-o", checkpoint)
    assert "already holds checkpoints" in error
    assert (checkpoint / "step-00000000.safetensors").read_bytes() == before


# A GPT-style language model: examples/gpt's (tied embeddings, learned
# positions, pre-LN blocks of causal attention and a GELU MLP), small.
GPT = dict(layers=2, batch=2, seq=6, vocab=13, d_model=8, heads=2, d_ff=16)


def gpt_map(layers):
    """torch's Linear weights are [out, in]; tessel's attention projections
    keep heads and head_dim apart, which torch's axis holds flattened."""
    lines = ["tok_emb.weight: {name: tok_emb.table, dims: [vocab, d_model]}",
             "pos_emb: {name: pos_emb, dims: [seq, d_model]}",
             "ln_f.weight: ln_f.gamma", "ln_f.bias: ln_f.beta"]
    for i in range(layers):
        ours, theirs = f"block{i}", f"blocks.{i}"
        lines += [f"{theirs}.ln1.weight: {ours}.ln1.gamma", f"{theirs}.ln1.bias: {ours}.ln1.beta",
                  f"{theirs}.ln2.weight: {ours}.ln2.gamma", f"{theirs}.ln2.bias: {ours}.ln2.beta"]
        lines += [f"{theirs}.attn.{p}.weight: {{name: {ours}.attn.{p}.w, dims: [[heads, head_dim], d_model]}}"
                  for p in "qkv"]
        lines += [f"{theirs}.attn.o.weight: {{name: {ours}.attn.o.w, dims: [d_model, [heads, head_dim]]}}",
                  f"{theirs}.mlp.up.weight: {{name: {ours}.mlp.up.w, dims: [d_ff, d_model]}}",
                  f"{theirs}.mlp.up.bias: {ours}.mlp.up.b",
                  f"{theirs}.mlp.down.weight: {{name: {ours}.mlp.down.w, dims: [d_model, d_ff]}}",
                  f"{theirs}.mlp.down.bias: {ours}.mlp.down.b"]
    return "\n".join(lines) + "\n"


class TorchBlock(torch.nn.Module):
    def __init__(self, d_model, heads, d_ff):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = torch.nn.LayerNorm(d_model), torch.nn.LayerNorm(d_model)
        self.attn = torch.nn.ModuleDict({p: torch.nn.Linear(d_model, d_model, bias=False) for p in "qkvo"})
        self.mlp = torch.nn.ModuleDict({"up": torch.nn.Linear(d_model, d_ff),
                                        "down": torch.nn.Linear(d_ff, d_model)})

    def forward(self, x):
        b, t, d = x.shape
        h = self.ln1(x)
        q, k, v = (self.attn[p](h).view(b, t, self.heads, -1).transpose(1, 2) for p in "qkv")
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
        causal = torch.ones(t, t, dtype=torch.bool).tril()
        weights = torch.softmax(scores.masked_fill(~causal, float("-inf")), dim=-1)
        x = x + self.attn["o"]((weights @ v).transpose(1, 2).reshape(b, t, d))
        return x + self.mlp["down"](torch.nn.functional.gelu(self.mlp["up"](self.ln2(x))))


class TorchGpt(torch.nn.Module):
    def __init__(self, layers, seq, vocab, d_model, heads, d_ff, **_):
        super().__init__()
        self.tok_emb = torch.nn.Embedding(vocab, d_model)
        self.pos_emb = torch.nn.Parameter(torch.zeros(seq, d_model))
        self.blocks = torch.nn.ModuleList(TorchBlock(d_model, heads, d_ff) for _ in range(layers))
        self.ln_f = torch.nn.LayerNorm(d_model)

    def forward(self, tokens):
        x = self.tok_emb(tokens) + self.pos_emb
        for block in self.blocks:
            x = block(x)
        return self.ln_f(x) @ self.tok_emb.weight.T


def load_gpt_example():
    path = pathlib.Path(__file__).resolve().parents[2] / "examples" / "gpt" / "gpt.py"
    spec = importlib.util.spec_from_file_location("gpt", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gpt_from_pytorch(tmp_path):
    """Every weight of a GPT-style model, heads and head_dim flattened in
    torch's projections, set at random in PyTorch: tessel's logits at every
    position equal PyTorch's, on one rank and with heads, d_ff and the batch
    split over 2 x 2 ranks; and export gives the state_dict back."""
    torch.manual_seed(1)
    net = TorchGpt(**GPT)
    with torch.no_grad():
        for value in net.parameters():
            value.add_(0.3 * torch.randn_like(value))
    tokens = torch.randint(0, GPT["vocab"], (GPT["batch"], GPT["seq"]), dtype=torch.int32)
    with torch.no_grad():
        expected = net(tokens.long()).numpy()
    save_safetensors(tmp_path / "gpt.safetensors", net.state_dict())
    (tmp_path / "map.yaml").write_text(gpt_map(GPT["layers"]))
    model = load_gpt_example().build_gpt(**GPT, full_logits=True)
    (tmp_path / "gpt.mlir").write_text(str(model))
    np.save(tmp_path / "tokens.npy", tokens.numpy())
    out = run(TOOL, "import-weights", tmp_path / "gpt.mlir", "--from", tmp_path / "gpt.safetensors",
              "--map", tmp_path / "map.yaml", "-o", tmp_path / "ckpt", "--optimizer", "adamw")
    assert "imported 28 of 28 parameters" in out, out

    run(EVAL, tmp_path / "gpt.mlir", "--function", "logits", "--checkpoint", tmp_path / "ckpt",
        "--input", f"tokens={tmp_path / 'tokens.npy'}", "--output-dir", tmp_path / "one")
    assert relative_error(np.load(tmp_path / "one" / "result0.npy"), expected) < 1e-5

    run(TOOL, "compile", tmp_path / "gpt.mlir", "--mode", "infer", "--mesh", "data:2;model:2",
        "--rules", "batch:data;heads:model;d_ff:model", "--no-fusion", "--emit", "mlir",
        "-o", tmp_path / "gpt.rank.mlir")
    run(EVAL, tmp_path / "gpt.rank.mlir", "--function", "logits", "--checkpoint", tmp_path / "ckpt",
        "--input", f"tokens={tmp_path / 'tokens.npy'}", "--output-dir", tmp_path / "four")
    assert relative_error(np.load(tmp_path / "four" / "result0.npy"), expected) < 1e-5

    run(TOOL, "export-weights", tmp_path / "ckpt", "--map", tmp_path / "map.yaml",
        "-o", tmp_path / "back.safetensors")
    fresh = TorchGpt(**GPT)
    fresh.load_state_dict(load_safetensors(tmp_path / "back.safetensors"), strict=True)
    for name, value in net.state_dict().items():
        assert torch.equal(fresh.state_dict()[name], value), name


def test_a_checkpoint_of_another_model_is_refused_by_name(tmp_path, trained):
    checkpoint = import_weights(tmp_path)
    wider = str(tessel_mlp()).replace("hidden:6", "hidden:7")
    (tmp_path / "wider.mlir").write_text(wider)
    error = fails(EVAL, tmp_path / "wider.mlir", "--function", "logits", "--checkpoint", checkpoint,
                  "--input", f"images={tmp_path / 'images.npy'}")
    assert ("tensor 'fc1.w' is [pixels:12, hidden:6] f32, but the function has parameter 'fc1.w' "
            "as [pixels:12, hidden:7] f32") in error
    renamed = str(tessel_mlp()).replace('"w"', '"weight"')
    (tmp_path / "renamed.mlir").write_text(renamed)
    error = fails(EVAL, tmp_path / "renamed.mlir", "--function", "logits", "--checkpoint", checkpoint,
                  "--input", f"images={tmp_path / 'images.npy'}")
    assert "it has no tensor 'fc1.weight', which parameter 'fc1.weight' of function 'logits' needs" in error
    # tessel-eval and export-weights find a directory's checkpoint as the
    # compiled programs do, with the same errors.
    (tmp_path / "empty").mkdir()
    error = fails(EVAL, tmp_path / "mlp.mlir", "--function", "logits", "--checkpoint",
                  tmp_path / "empty", "--input", f"images={tmp_path / 'images.npy'}")
    assert f"--checkpoint {tmp_path / 'empty'}: the directory holds no checkpoint" in error
    error = fails(TOOL, "export-weights", tmp_path / "nowhere", "--map", tmp_path / "map.yaml",
                  "-o", tmp_path / "out.safetensors")
    assert f"{tmp_path / 'nowhere'}: no such file or directory" in error


def test_a_damaged_pytorch_file_is_an_error_naming_it(tmp_path, trained):
    source = tmp_path / "model.safetensors"
    whole = source.read_bytes()
    source.write_bytes(whole[:len(whole) - 16])
    error = fails(TOOL, "import-weights", tmp_path / "mlp.mlir", "--from", source,
                  "--map", tmp_path / "map.yaml", "-o", tmp_path / "never")
    assert f"{source}: tensor " in error and "(truncated?)" in error
    source.write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00not json at all!")
    error = fails(TOOL, "import-weights", tmp_path / "mlp.mlir", "--from", source,
                  "--map", tmp_path / "map.yaml", "-o", tmp_path / "never")
    assert f"{source}: its header is not a JSON object" in error
    # A FIFO is refused at once: opening it would wait for a writer forever.
    fifo = tmp_path / "fifo.safetensors"
    os.mkfifo(fifo)
    result = subprocess.run([str(a) for a in (TOOL, "import-weights", tmp_path / "mlp.mlir",
                                              "--from", fifo, "--map", tmp_path / "map.yaml",
                                              "-o", tmp_path / "never")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0, result.stdout
    assert f"{fifo}: cannot read it: it is not a regular file" in result.stderr
    assert not (tmp_path / "never").exists()


def fused_gpt_map(layers):
    """The map of a state_dict whose attention keeps q, k and v in one
    projection (GPT-2's c_attn): its parts, side by side along torch's
    output axis, are three parameters."""
    lines = [line for line in gpt_map(layers).splitlines()
             if not any(f".attn.{p}.weight" in line for p in "qkv")]
    for i in range(layers):
        lines.append(f"blocks.{i}.attn.qkv.weight:\n  split: 0\n  parts:")
        lines += [f"    - {{name: block{i}.attn.{p}.w, dims: [[heads, head_dim], d_model]}}"
                  for p in "qkv"]
    return "\n".join(lines) + "\n"


def test_a_fused_projection_splits_into_parameters(tmp_path):
    """q, k and v concatenated in one PyTorch tensor import as three
    parameters (`split` and `parts` in the map) and give the unfused
    model's logits; export joins them again."""
    torch.manual_seed(2)
    net = TorchGpt(**GPT)
    with torch.no_grad():
        for value in net.parameters():
            value.add_(0.3 * torch.randn_like(value))
    tokens = torch.randint(0, GPT["vocab"], (GPT["batch"], GPT["seq"]), dtype=torch.int32)
    with torch.no_grad():
        expected = net(tokens.long()).numpy()
    fused = {}
    for name, value in net.state_dict().items():
        if ".attn.q." in name:
            parts = [net.state_dict()[name.replace(".q.", f".{p}.")] for p in "qkv"]
            fused[name.replace(".q.", ".qkv.")] = torch.cat(parts, dim=0)
        elif ".attn.k." not in name and ".attn.v." not in name:
            fused[name] = value
    save_safetensors(tmp_path / "fused.safetensors", fused)
    (tmp_path / "map.yaml").write_text(fused_gpt_map(GPT["layers"]))
    (tmp_path / "gpt.mlir").write_text(str(load_gpt_example().build_gpt(**GPT, full_logits=True)))
    np.save(tmp_path / "tokens.npy", tokens.numpy())
    out = run(TOOL, "import-weights", tmp_path / "gpt.mlir", "--from", tmp_path / "fused.safetensors",
              "--map", tmp_path / "map.yaml", "-o", tmp_path / "ckpt")
    assert "imported 28 of 28 parameters" in out, out
    run(EVAL, tmp_path / "gpt.mlir", "--function", "logits", "--checkpoint", tmp_path / "ckpt",
        "--input", f"tokens={tmp_path / 'tokens.npy'}", "--output-dir", tmp_path / "out")
    assert relative_error(np.load(tmp_path / "out" / "result0.npy"), expected) < 1e-5

    run(TOOL, "export-weights", tmp_path / "ckpt", "--map", tmp_path / "map.yaml",
        "-o", tmp_path / "back.safetensors")
    back = load_safetensors(tmp_path / "back.safetensors")
    assert sorted(back) == sorted(fused)
    for name, value in fused.items():
        assert torch.equal(back[name], value), name

    # Parts that do not add up to the tensor name its axis and the sizes.
    text = fused_gpt_map(GPT["layers"]).replace(
        "    - {name: block0.attn.v.w, dims: [[heads, head_dim], d_model]}\n", "", 1)
    (tmp_path / "short.yaml").write_text(text)
    error = fails(TOOL, "import-weights", tmp_path / "gpt.mlir", "--from", tmp_path / "fused.safetensors",
                  "--map", tmp_path / "short.yaml", "-o", tmp_path / "never")
    assert "'blocks.0.attn.qkv.weight' has shape [24, 8]" in error
    assert "but its parts make [16, 8] (axis 0: 8 (block0.attn.q.w) + 8 (block0.attn.k.w))" in error
