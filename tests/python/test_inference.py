"""Forward-only programs from Python: tessel.run(..., mode="infer") reads the
checkpoint that a training run wrote and runs a function of the model on
data, under another layout and rank count."""
import array
import ast

import pytest

import tessel
from tessel import Dim


def load_npy(path):
    """A .npy file's shape and float32 values, without numpy."""
    data = path.read_bytes()
    length = int.from_bytes(data[8:10], "little")
    header = ast.literal_eval(data[10:10 + length].decode())
    assert header["descr"] == "<f4", header
    values = array.array("f")
    values.frombytes(data[10 + length:])
    return tuple(header["shape"]), values


def language_model():
    """A byte-level model: the loss (trained), and predict, the logits."""
    batch, seq, vocab, d_model = Dim("batch", 4), Dim("seq", 8), Dim("vocab", 256), Dim("d_model", 16)
    embedding = tessel.Embedding("emb", vocab, [d_model])
    mlp = tessel.MLP("mlp", Dim("d_ff", 32), "d_model")
    model = tessel.Model()

    def logits_of(tokens):
        return embedding.attend(mlp(embedding(tokens)))

    def forward(tokens, targets):
        return tessel.reduce_mean(tessel.cross_entropy(logits_of(tokens), targets, "vocab"))

    tokens = tessel.Input("tokens", [batch, seq], "i32")
    model.define("forward", [tokens, tessel.Input("targets", [batch, seq], "i32")], forward)
    model.define("predict", [tokens], lambda t: {"logits": logits_of(t)})
    return model


def test_infer_mode_reads_a_checkpoint_under_another_layout(tmp_path):
    model = language_model()
    checkpoint = tmp_path / "ckpt"
    tessel.run(model, mesh="data:1", rules="batch:data", optimizer="adam",
               args=["--steps", "3", "--lr", "0.01", "--checkpoint-dir", checkpoint])

    def infer(name, mesh, rules, ranks, function):
        return tessel.run(model, mesh=mesh, rules=rules, ranks=ranks, mode="infer",
                          args=["--checkpoint", checkpoint, "--function", function,
                                "--max-batches", "3", "--out", tmp_path / name])

    one = infer("one", "data:1", "batch:data", 1, "predict")
    split = infer("split", "data:2;model:2", "batch:data;d_model:model", 4, "predict")
    assert one[0]["checkpoint_step"] == split[0]["checkpoint_step"] == 3
    assert one[0]["examples"] == split[0]["examples"] == 12
    shape, reference = load_npy(tmp_path / "one" / "logits.npy")
    assert shape == (12, 8, 256)
    split_shape, values = load_npy(tmp_path / "split" / "logits.npy")
    assert split_shape == shape
    largest = max(abs(v) for v in reference)
    assert max(abs(a - b) for a, b in zip(values, reference)) <= 1e-5 * largest

    # The loss function is a function like any other: its one scalar result
    # is reported as result0, the same on both layouts.
    loss_one = infer("loss-one", "data:1", "batch:data", 1, "forward")[0]["result0"]
    loss_split = infer("loss-split", "data:2;model:2", "batch:data;d_model:model", 4,
                       "forward")[0]["result0"]
    assert loss_split == pytest.approx(loss_one, rel=1e-5)


def test_infer_mode_without_a_checkpoint_is_an_error():
    with pytest.raises(tessel.Error, match="exited with status 1"):
        tessel.run(language_model(), mesh="data:1", rules="batch:data", mode="infer",
                   args=["--function", "predict"])
