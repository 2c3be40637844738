#!/usr/bin/env python3
"""The differential sweep of pipelined training steps.

A pipelined layout (a `pipeline:` section) must train exactly as the model
does on one rank. For each case this script builds both programs with
tessel-opt: the one-rank training step (tessel-autodiff) and the pipelined
one (tessel-split-stages, tessel-pipeline-autodiff, the layout,
tessel-split-forward-backward, partitioning), and runs them with the
reference evaluator, which runs every rank of a partitioned function in
lock step and reads and writes whole (global) tensors. The pipelined step
is run the way the driver's schedule runs it: per micro-batch, each stage's
forward on the activations of the stage before, then each stage's backward
on the cotangents of the stage after and the residuals of its own forward;
gradient sums over the micro-batches (and over the stages that hold a
shared weight); one `apply` per stage. Its loss (the mean of the last
stage's micro-batch losses) and every stage's new parameters and optimizer
state must match the one-rank step's (relative error under 1e-5, with
1e-6 absolute, as the evaluator's --check-against compares; bf16 cases
within bf16's rounding, below).

`tessel compile` runs tessel-reduce-gradients-once-per-step too, which
leaves each rank's partial sum of a gradient as the backward's result and
all-reduces the sums in apply; the evaluator reads a function's results as
whole tensors, whose copies must agree, so this sweep leaves that pass out
and e2e-train-pipeline checks it (data:2 x stage:2 against the 1-rank
losses).

usage: pipeline_sweep.py BUILD_BIN_DIR CASES_DIR [CASE_NAME_REGEX]
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

BIN, CASES = sys.argv[1], sys.argv[2]

# (name, model file in CASES, optimizer options, layout file text[,
# check_case's tolerances and learning rate])
GPT4 = "gpt4.mlir"
MOE4 = "moe4.mlir"
ADAMW = "optimizer=adamw weight-decay=0.01"
BF16_TOLERANCE = {"rtol": 3e-2, "atol": 3e-3, "lr": 1.0}
CASE_LIST = [
    ("stage2", GPT4, ADAMW,
     "mesh: {stage: 2}\npipeline: {axis: stage}\n"),
    ("stage2_m4_gpipe", GPT4, ADAMW,
     "mesh: {stage: 2}\npipeline: {axis: stage, microbatches: 4, schedule: gpipe}\n"),
    ("stage4_m4", GPT4, "optimizer=sgd",
     "mesh: {stage: 4}\npipeline: {axis: stage, microbatches: 4}\n"),
    ("stage2_remat", GPT4, "optimizer=momentum",
     "mesh: {stage: 2}\npipeline: {axis: stage, microbatches: 2, remat: true}\n"),
    # Uneven stages: one block, then three blocks and the head.
    ("stage2_uneven", GPT4, ADAMW,
     "mesh: {stage: 2}\n"
     "pipeline: {axis: stage, microbatches: 2, stages: [[block0], [block1]]}\n"),
    ("stage3_listed", GPT4, ADAMW,
     "mesh: {stage: 3}\n"
     "pipeline: {axis: stage, microbatches: 2, stages: [[block0], [block1, block2], [block3]]}\n"),
    ("data2_stage2", GPT4, ADAMW,
     "mesh: {data: 2, stage: 2}\nlayout: {batch: data}\n"
     "pipeline: {axis: stage, microbatches: 2}\n"),
    # ZeRO beside the stages: weights of both stages and their optimizer
    # state split over `data` (the tied table held by both stages too).
    ("zero_data2_stage2", GPT4, "optimizer=sgd",
     "mesh: {data: 2, stage: 2}\nlayout: {batch: data}\n"
     "overrides:\n"
     "  tok_emb.table: {vocab: data}\n"
     "  block0.mlp.up.w: {d_ff: data}\n"
     "  block1.attn.q.w: {d_model: data}\n"
     "  block2.mlp.down.w: {d_ff: data}\n"
     "  block3.ln1.gamma: {d_model: data}\n"
     "pipeline: {axis: stage, microbatches: 2}\n"),
    # Under model splits, partial sums are added in another order; Adam's
    # first step divides each gradient by its own magnitude, so a gradient
    # near zero (an embedding row of a token the batch never uses) moves its
    # weight by more than 1e-5 of it either way. These cases use SGD and
    # momentum, whose updates are linear in the gradient.
    ("stage2_model2", GPT4, "optimizer=sgd",
     "mesh: {stage: 2, model: 2}\nlayout: {heads: model, d_ff: model}\n"
     "pipeline: {axis: stage, microbatches: 2}\n"),
    # The tied embedding, held by the first and the last stage, split by
    # vocabulary in both.
    ("stage2_vocab", GPT4, "optimizer=momentum",
     "mesh: {stage: 2, model: 2}\nlayout: {heads: model}\n"
     "overrides: {tok_emb.table: {vocab: model}, logits: {vocab: model}}\n"
     "pipeline: {axis: stage, microbatches: 2}\n"),
    # Convolutions and pooling in the first stage (examples/papers' case
    # study, 4 layers of width 16), over 2 and 3 stages.
    ("case_study_stage2", "case_study.mlir", "optimizer=momentum",
     "mesh: {stage: 2}\npipeline: {axis: stage, microbatches: 2}\n"),
    ("case_study_data2_stage3", "case_study.mlir", "optimizer=sgd",
     "mesh: {data: 2, stage: 3}\nlayout: {batch: data}\n"
     "pipeline: {axis: stage, microbatches: 2, schedule: gpipe,\n"
     "           stages: [[fc0], [fc1], [fc3]]}\n"),
    # The mixture of experts (examples/moe, two MoE blocks, without its
    # load-balancing loss, which is not a mean over examples): its expert
    # layer reshapes `batch` into `group` and back, and the micro-batches
    # resize both. Each stage has a MoE block; beside the stages, the batch
    # and the groups over `data`, or the experts over `expert` (the tokens
    # moved to their expert's rank by all_to_all). Split, the gradients
    # are partial sums added in another order, and some of the experts'
    # are near zero (tokens past an expert's capacity are dropped): as
    # under model splits below, those cases use updates linear in the
    # gradient.
    ("moe_stage2", MOE4, ADAMW,
     "mesh: {stage: 2}\n"
     "pipeline: {axis: stage, microbatches: 2, stages: [[block0], [block2]]}\n"),
    ("moe_stage2_m4_gpipe", MOE4, "optimizer=momentum",
     "mesh: {stage: 2}\n"
     "pipeline: {axis: stage, microbatches: 4, schedule: gpipe,\n"
     "           stages: [[block0], [block2]]}\n"),
    ("moe_data2_stage2", MOE4, "optimizer=momentum",
     "mesh: {data: 2, stage: 2}\nlayout: {batch: data, group: data}\n"
     "pipeline: {axis: stage, microbatches: 2, stages: [[block0], [block2]]}\n"),
    ("moe_expert2_stage2", MOE4, "optimizer=sgd",
     "mesh: {expert: 2, stage: 2}\nlayout: {batch: expert, experts: expert}\n"
     "pipeline: {axis: stage, microbatches: 2, stages: [[block0], [block2]]}\n"),
    # bf16 mixed precision: each stage computes in bf16 from f32 weights,
    # and activations and cotangents cross stages in bf16. Against the
    # one-rank bf16 step, whose sums over the whole batch round otherwise
    # than the micro-batches' in bf16: the loss and the new weights within
    # 3% (and 3e-3), with a learning rate of 1 so that the new weights
    # are mostly the update (a gradient lost or sent as the wrong type is
    # far outside that).
    ("bf16_stage2", GPT4, "optimizer=sgd precision=bf16",
     "mesh: {stage: 2}\npipeline: {axis: stage, microbatches: 2}\n", BF16_TOLERANCE),
    ("bf16_stage4_m4", GPT4, "optimizer=momentum precision=bf16",
     "mesh: {stage: 4}\npipeline: {axis: stage, microbatches: 4}\n", BF16_TOLERANCE),
    ("bf16_data2_stage2", GPT4, "optimizer=sgd precision=bf16",
     "mesh: {data: 2, stage: 2}\nlayout: {batch: data}\n"
     "pipeline: {axis: stage, microbatches: 2}\n", BF16_TOLERANCE),
    ("bf16_case_study_stage2", "case_study.mlir", "optimizer=momentum precision=bf16",
     "mesh: {stage: 2}\npipeline: {axis: stage, microbatches: 2}\n", BF16_TOLERANCE),
    # 3-D: data x stage x model.
    ("data2_stage2_model2", GPT4, "optimizer=sgd",
     "mesh: {data: 2, stage: 2, model: 2}\n"
     "layout: {batch: data, heads: model, d_ff: model}\n"
     "pipeline: {axis: stage, microbatches: 2, schedule: gpipe}\n"),
    # 4-D: a second model axis beside the stages (as tessel search tries
    # around its fastest pipelined layout), splitting the sequence.
    ("data2_stage2_model2_model2", GPT4, "optimizer=sgd",
     "mesh: {data: 2, stage: 2, model: 2, model2: 2}\n"
     "layout: {batch: data, heads: model, d_ff: model, seq: model2}\n"
     "pipeline: {axis: stage, microbatches: 2}\n"),
]


def run(*args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kwargs)


def signature(mlir_text, function):
    """(argument names, argument types, result names) of `function`."""
    start = mlir_text.index(f"func.func @{function}(")
    end = mlir_text.index("{\n", start)
    header = mlir_text[start:end]
    if ") -> " in header:
        arguments, results = header.split(") -> ", 1)
    else:
        arguments, results = header, ""
    names = lambda text: re.findall(r'tessel\.name = "([^"]+)"', text)
    types = re.findall(r"%arg\d+: !tessel\.tensor<\[([^\]]*)\], (\w+)", arguments)
    return names(arguments), types, names(results)


class Evaluator:
    def __init__(self, module, work):
        self.module, self.work, self.calls = module, work, 0

    def __call__(self, function, inputs):
        """Runs `function` on `inputs` (name -> array); returns name -> array."""
        text = open(self.module).read()
        arguments, _, results = signature(text, function)
        self.calls += 1
        out = os.path.join(self.work, f"{function}.{self.calls}")
        os.makedirs(out)
        command = [f"{BIN}/tessel-eval", self.module, "--function", function,
                   "--output-dir", out, "--print-limit", "0"]
        for name in arguments:
            path = os.path.join(out, f"in.{name}.npy")
            np.save(path, inputs[name])
            command += ["--input", f"{name}={path}"]
        run(*command)
        return {name: np.load(os.path.join(out, f"result{i}.npy"))
                for i, name in enumerate(results)}


def random_data(types, names, roles):
    rng = np.random.default_rng(11)
    data = {}
    for name, (dims, element) in zip(names, types):
        if name in roles or name == "learning_rate":
            continue
        shape = [int(d.split(":")[1]) for d in dims.split(", ")] if dims else []
        if element.startswith("i"):
            data[name] = rng.integers(0, 2, shape).astype(np.int32 if element == "i32" else np.int64)
        else:
            data[name] = rng.standard_normal(shape).astype(np.float32)
    return data


def check_case(name, model, optimizer, layout_text, work, rtol=1e-5, atol=1e-6, lr=0.01):
    layout = os.path.join(work, "layout.yaml")
    open(layout, "w").write(layout_text)
    reference = os.path.join(work, "reference.mlir")
    run(f"{BIN}/tessel-opt", model, "--tessel-inline-layers", "--tessel-decompose-einsum",
        f"--tessel-autodiff={optimizer}", "-o", reference)
    pipelined = os.path.join(work, "pipelined.mlir")
    run(f"{BIN}/tessel-opt", model, f"--tessel-split-stages=layout-file={layout}",
        "--tessel-inline-layers", "--tessel-decompose-einsum",
        f"--tessel-pipeline-autodiff={optimizer}",
        f"--tessel-apply-layout=layout-file={layout}", "--tessel-split-forward-backward",
        "--tessel-partition", "--tessel-optimize-comm", "--cse", "--tessel-bucket-all-reduces",
        "-o", pipelined)

    one_rank = Evaluator(reference, work)
    ref_text = open(reference).read()
    state = one_rank("init", {})
    step_names, step_types, step_results = signature(ref_text, "train_step")
    data = random_data(step_types, step_names, state)
    learning_rate = np.array(lr, np.float32)
    expected = one_rank("train_step", {**state, **data, "learning_rate": learning_rate})

    text = open(pipelined).read()
    pipeline = re.search(r"tessel\.pipeline = \{([^}]*)\}", text).group(1)
    stages = int(re.search(r"stages = (\d+)", pipeline).group(1))
    microbatches = int(re.search(r"microbatches = (\d+)", pipeline).group(1))
    batch_axis = {n: dims.split(", ").index(next(d for d in dims.split(", ") if d.startswith("batch:")))
                  for n, (dims, _) in zip(step_names, step_types) if n in data and "batch:" in dims}
    stage = Evaluator(pipelined, work)
    sums, losses = {}, []
    for j in range(microbatches):
        micro = dict(data)
        for n, axis in batch_axis.items():
            micro[n] = np.array_split(data[n], microbatches, axis=axis)[j]
        outputs = [None] * stages
        received = {}
        for s in range(stages):
            outputs[s] = stage(f"stage{s}_forward", {**state, **micro, **received})
            received = {n: v for n, v in outputs[s].items() if n.startswith(f"stage{s + 1}.input")}
        losses.append(outputs[-1]["loss"])
        cotangents = {}
        for s in reversed(range(stages)):
            inputs = {n: v for n, v in outputs[s - 1].items()
                      if n.startswith(f"stage{s}.input")} if s else {}
            gradients = stage(f"stage{s}_backward",
                              {**state, **micro, **inputs, **outputs[s], **cotangents})
            cotangents = {n: v for n, v in gradients.items() if n.startswith(f"stage{s}.input")}
            for n, v in gradients.items():
                if not n.startswith("stage"):
                    sums.setdefault(s, {})
                    sums[s][n] = sums[s].get(n, 0) + v
    loss = np.mean(losses)
    if not np.isclose(loss, expected["loss"], rtol=rtol, atol=0):
        raise AssertionError(f"loss {loss} != one rank's {expected['loss']}")
    # A weight held by several stages takes the sum of their gradients.
    for n in {n for s in sums for n in sums[s]}:
        holders = [s for s in sums if n in sums[s]]
        total = sum(sums[s][n] for s in holders)
        for s in holders:
            sums[s][n] = total
    for s in range(stages):
        updated = stage(f"stage{s}_apply", {**state, **sums[s], "learning_rate": learning_rate})
        for n, value in updated.items():
            # The evaluator runs one stage's apply on the ranks of every
            # stage, so its all_reduce of the squares over the stage axis
            # adds copies of this stage's: e2e-train-pipeline checks the
            # norm against the one-rank step's.
            if n == "gradient_norm":
                continue
            if not np.allclose(value, expected[n], rtol=rtol, atol=atol):
                worst = np.max(np.abs(value - expected[n]))
                raise AssertionError(f"stage{s}_apply's {n} is off the one-rank step's by "
                                     f"up to {worst:.3g} (rtol {rtol}, atol {atol})")
    return stage.calls


def main():
    passed = failed = 0
    only = re.compile(sys.argv[3]) if len(sys.argv) > 3 else None
    for name, model, optimizer, layout_text, *tolerance in CASE_LIST:
        if only and not only.search(name):
            continue
        with tempfile.TemporaryDirectory() as work:
            try:
                calls = check_case(name, os.path.join(CASES, model), optimizer, layout_text, work,
                                   **(tolerance[0] if tolerance else {}))
                print(f"PASS: {name} ({calls} functions run)")
                passed += 1
            except (subprocess.CalledProcessError, AssertionError, ValueError, KeyError) as error:
                print(f"FAIL: {name}: {error}")
                if isinstance(error, subprocess.CalledProcessError):
                    print((error.stderr or "")[-3000:])
                failed += 1
    print(f"pipeline sweep: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
