"""tessel's Adam and AdamW steps, compiled and run by the driver, against
torch.optim.Adam and AdamW.

A linear classifier trains under `tessel run` on a dataset of one batch
(so every step sees the same examples, in whatever order), writing a
checkpoint after every step. From each checkpoint's weights and moments,
torch takes one step in float64 with the same hyperparameters; the next
checkpoint's weights must agree to 1e-6 of the learning rate. Bias
corrections computed from f32(0.999) (1 - beta2^t 1.3e-5 off) put every
step about 6e-6 of the learning rate off torch's.
"""
import json
import pathlib
import struct

import numpy as np
import pytest
import torch

import tessel
from tessel import Dim

BATCH, PIXELS, CLASSES = Dim("batch", 16), Dim("pixels", 8), Dim("classes", 4)
LEARNING_RATE = 0.05


def classifier():
    model = tessel.Model()

    def forward(images, labels):
        logits = tessel.Linear("fc", [CLASSES], "pixels")(images)
        return tessel.reduce_mean(tessel.cross_entropy(logits, labels, "classes"))

    model.define("forward", [tessel.Input("images", [BATCH, PIXELS]),
                             tessel.Input("labels", [BATCH], "i32")], forward)
    return model


def checkpoint(path):
    """The float32 tensors of a sharded checkpoint (its directory: the index
    names each tensor's shard file), as float64 torch tensors."""
    path = pathlib.Path(path)
    index = json.loads((path / "model.safetensors.index.json").read_text())
    tensors = {}
    for shard in sorted(set(index["weight_map"].values())):
        raw = (path / shard).read_bytes()
        length = struct.unpack("<Q", raw[:8])[0]
        header = json.loads(raw[8:8 + length])
        header.pop("__metadata__")
        for name, entry in header.items():
            begin, end = entry["data_offsets"]
            data = np.frombuffer(raw[8 + length + begin:8 + length + end], dtype=np.float32)
            tensors[name] = torch.from_numpy(data.reshape(entry["shape"]).astype(np.float64))
    assert set(tensors) == set(index["weight_map"])
    return tensors


def torch_step(state, images, labels, optimizer, weight_decay):
    """One torch.optim step from a tessel checkpoint's state (weights,
    adam_m, adam_v, step); returns the new weights."""
    params = {name: state[name].clone().requires_grad_(True) for name in ("fc.w", "fc.b")}
    kind = torch.optim.AdamW if optimizer == "adamw" else torch.optim.Adam
    opt = kind(params.values(), lr=LEARNING_RATE, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=weight_decay, foreach=False)
    for name, param in params.items():
        opt.state[param] = {"step": torch.tensor(float(state["step"])),
                            "exp_avg": state[f"{name}.adam_m"].clone(),
                            "exp_avg_sq": state[f"{name}.adam_v"].clone()}
    # tessel's Linear keeps its weight as [in, out].
    logits = images @ params["fc.w"] + params["fc.b"]
    torch.nn.functional.cross_entropy(logits, labels).backward()
    opt.step()
    return {name: param.detach() for name, param in params.items()}


@pytest.mark.parametrize("optimizer,weight_decay", [("adam", 0.0), ("adam", 0.01),
                                                    ("adamw", 0.1)])
def test_compiled_adam_steps_are_torchs(tmp_path, optimizer, weight_decay):
    rng = np.random.default_rng(7)
    images = rng.normal(size=(BATCH.size, PIXELS.size)).astype(np.float32)
    labels = rng.integers(0, CLASSES.size, size=BATCH.size).astype(np.int32)
    data = tmp_path / "data"
    data.mkdir()
    np.save(data / "images.npy", images)
    np.save(data / "labels.npy", labels)
    steps = 5
    tessel.run(classifier(), mesh="data:1", rules="batch:data", optimizer=optimizer,
               flags=[f"--weight-decay={weight_decay}"],
               args=["--steps", steps, "--lr", LEARNING_RATE, "--data", data,
                     "--checkpoint-dir", tmp_path / "ckpt", "--checkpoint-every", 1])
    x, y = torch.from_numpy(images.astype(np.float64)), torch.from_numpy(labels).long()
    worst = 0.0
    for step in range(1, steps):
        before = checkpoint(tmp_path / "ckpt" / f"step-{step:08d}")
        after = checkpoint(tmp_path / "ckpt" / f"step-{step + 1:08d}")
        assert float(before["step"]) == step and float(after["step"]) == step + 1
        expected = torch_step(before, x, y, optimizer, weight_decay)
        for name, value in expected.items():
            worst = max(worst, float((after[name] - value).abs().max()) / LEARNING_RATE)
    assert worst < 1e-6, f"a step is {worst:.2e} of the learning rate off torch's"
