"""Pretrained weights: a model built and trained in PyTorch, saved as
safetensors, imported into tessel through a name map (`tessel
import-weights`), gives PyTorch's logits when tessel runs it (`tessel-eval
--checkpoint`, on one rank and partitioned over four), trains on from the
imported weights as PyTorch does, and exports back to a state_dict that
PyTorch loads (`tessel export-weights`)."""
import json
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


def test_imported_weights_under_a_layout(tmp_path, trained):
    """A forward-only program partitioned over 2 x 2 ranks (batch over data,
    hidden over model) takes the checkpoint's parameters as arguments, each
    rank its block, and gives the same logits."""
    net, images, _ = trained
    checkpoint = import_weights(tmp_path)
    run(TOOL, "compile", tmp_path / "mlp.mlir", "--mode", "infer", "--mesh", "data:2;model:2",
        "--rules", "batch:data;hidden:model", "--no-fusion", "--emit", "mlir",
        "-o", tmp_path / "mlp.rank.mlir")
    with torch.no_grad():
        expected = net(images).numpy()
    logits = tessel_logits(tmp_path / "mlp.rank.mlir", checkpoint, tmp_path / "images.npy", tmp_path / "four")
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
