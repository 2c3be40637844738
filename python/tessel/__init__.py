"""tessel: write models with named dimensions, lay them out on a device mesh.

A model is built by tracing Python functions into tessel's MLIR dialect::

    import tessel
    batch, pixels, hidden, classes = (tessel.Dim("batch", 64), tessel.Dim("pixels", 784),
                                      tessel.Dim("hidden", 256), tessel.Dim("classes", 10))
    model = tessel.Model()

    def forward(images, labels):
        h = tessel.relu(tessel.Linear("fc1", [hidden], "pixels")(images))
        logits = tessel.Linear("fc2", [classes], "hidden")(h)
        return tessel.reduce_mean(tessel.cross_entropy(logits, labels, "classes"))

    model.define("forward", [tessel.Input("images", [batch, pixels]),
                             tessel.Input("labels", [batch], "i32")], forward)
    tessel.explain(model, layout="examples/mlp/hybrid.yaml")   # a dict
    tessel.run(model, layout="examples/mlp/hybrid.yaml", args=["--steps", "100"])

The ops and layers are the C++ front end's (tessel._tessel); this module adds
`Module` for layers written in Python and the commands that compile, explain
and run a model. docs/user-guide.md is the guide.
"""

import json
import os

from tessel import _tessel
from tessel._tessel import *  # noqa: F401,F403  (the ops, layers, Dim, Tensor, Model)
from tessel._tessel import Error, Model, _compile, _explain, _run, _set_package_dir

_set_package_dir(os.path.dirname(os.path.abspath(__file__)) + os.sep)

# The ops share names with builtins (abs, pow, slice): use them as tessel.abs.
__all__ = [name for name in dir(_tessel) if not name.startswith("_")]
__all__ += ["Module", "compile", "explain", "run", "generate", "add_model_arguments",
            "run_model_commands", "define_classifier", "loss_and_correct"]


class Module:
    """A layer written in Python.

    Subclass it and write ``forward``; calling the module traces ``forward``
    into a function of the model (reused by every call with the same shapes
    and hyperparameters) and calls it under the module's ``name``, so the
    parameters it declares with ``self.param`` are ``<name>.<param>``:

        class Block(tessel.Module):
            def forward(self, x):
                x = x + tessel.MultiHeadAttention("attn", heads, head_dim, "d_model", "seq")(
                    tessel.LayerNorm("ln1", "d_model")(x))
                return x + tessel.MLP("mlp", d_ff, "d_model")(tessel.LayerNorm("ln2", "d_model")(x))

        x = Block("block0")(x)
    """

    def __init__(self, name):
        self.name = name
        self._model = None

    def forward(self, *inputs):
        raise NotImplementedError(f"{type(self).__name__} has no forward")

    def param(self, name, dims, init="normal", scale=0.02, dtype="f32", seed=None):
        """A parameter of this layer, named ``<module name>.<name>`` in the model."""
        if self._model is None:
            raise Error(f"{type(self).__name__} '{self.name}': param() is for use inside forward()")
        return self._model.parameter(name, dims, init=init, scale=scale, dtype=dtype, seed=seed)

    def buffer(self, name, dims, init="zeros", dtype="f32"):
        """Non-trainable state of this layer (a running statistic), named
        ``<module name>.<name>``: the training step carries it, checkpoints
        save it, evaluate takes it; ``self.update_buffer`` sets its next value."""
        if self._model is None:
            raise Error(f"{type(self).__name__} '{self.name}': buffer() is for use inside forward()")
        return self._model.buffer(name, dims, init=init, dtype=dtype)

    def update_buffer(self, buffer, value):
        """The value ``buffer`` takes after a training step; returns ``value``."""
        return self._model.update_buffer(buffer, value)

    @property
    def training(self):
        """Whether the function being defined is traced for training (``forward``)."""
        return self._model.training if self._model is not None else True

    def __call__(self, *inputs):
        if not inputs:
            raise Error(f"{type(self).__name__} '{self.name}': a layer takes at least one tensor")
        model = Model.of(inputs[0])
        outer, self._model = self._model, model
        try:
            results = model.call_layer(type(self).__name__, self.name, list(inputs),
                                       lambda *args: self.forward(*args))
        finally:
            self._model = outer
        return results[0] if len(results) == 1 else results


def _layout_args(layout, mesh, rules, pad_uneven):
    if (layout is None) == (mesh is None):
        raise Error("give a layout file (layout=...) or a mesh string (mesh=..., rules=...)")
    return (os.fspath(layout) if layout is not None else "", mesh or "", rules or "",
            bool(pad_uneven))


def explain(model, layout=None, *, mesh=None, rules=None, pad_uneven=False,
            function="forward"):
    """What a layout costs: `tessel explain --format json` as a dict (per-tensor
    layouts and local shapes, collectives, totals per rank)."""
    text = _explain(model, *_layout_args(layout, mesh, rules, pad_uneven), function)
    return json.loads(text)


def compile(model, layout=None, output=None, *, mesh=None, rules=None, pad_uneven=False,
            optimizer="sgd", precision="f32", flags=(), mode="train"):
    """`tessel compile`: writes the SPMD executable to `output` and returns its path.
    `mode="infer"` makes a forward-only program (`tessel compile --mode infer`)."""
    if output is None:
        raise Error("compile: give the executable's path (output=...)")
    _compile(model, *_layout_args(layout, mesh, rules, pad_uneven), os.fspath(output),
             optimizer, precision, [f"--mode={mode}", *flags])
    return output


def run(model, layout=None, *, ranks=0, args=(), mesh=None, rules=None, pad_uneven=False,
        optimizer="sgd", precision="f32", flags=(), check=True, mode="train"):
    """`tessel run`: compiles the model and runs it under mpirun on `ranks` ranks
    (the layout's mesh by default) with the program options `args`
    (``["--steps", "100", "--lr", "0.01"]``; with `mode="infer"`, a forward-only
    program's, ``["--checkpoint", DIR, "--function", "predict", "--out", DIR]``).
    Returns the metrics the program wrote, one dict per line; raises Error when
    the program fails and `check`."""
    code, lines = _run(model, *_layout_args(layout, mesh, rules, pad_uneven), int(ranks),
                       [str(a) for a in args], optimizer, precision,
                       [f"--mode={mode}", *flags])
    if check and code != 0:
        raise Error(f"the program exited with status {code}")
    return [json.loads(line) for line in lines]


def generate(model, checkpoint, prompts, layout=None, *, ranks=0, mesh=None, rules=None,
             pad_uneven=False, max_tokens=64, temperature=0.0, top_k=0, seed=0,
             mode="infer"):
    """Continues each of `prompts` (strings, byte-level) with the model's
    `decode` function and key/value caches, its weights read from
    `checkpoint` (a checkpoint file or directory written under any layout):
    `PROGRAM generate` (docs/user-guide.md, "Generating text") under the
    layout. Greedy with temperature 0, else sampled (among the `top_k` most
    likely, with `seed`). Returns one dict per prompt: prompt, text (the
    continuation), tokens and context_full."""
    if isinstance(prompts, (str, bytes)):
        # A string is iterable too: each of its characters would be a prompt.
        raise Error("generate: prompts is a list of strings; give one prompt as [text]")
    args = ["generate", "--checkpoint", str(checkpoint), "--max-tokens", max_tokens,
            "--temperature", temperature, "--top-k", top_k, "--seed", seed]
    args += [f"--prompt={prompt}" for prompt in prompts]
    lines = run(model, layout, ranks=ranks, mesh=mesh, rules=rules, pad_uneven=pad_uneven,
                args=args, mode=mode)
    return [line for line in lines if "text" in line]


from tessel.commands import add_model_arguments, run_model_commands  # noqa: E402
from tessel.tasks import define_classifier, loss_and_correct  # noqa: E402
