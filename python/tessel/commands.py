"""The command line a model script shares with every other: write the model's
MLIR, explain it under layouts, train it.

    parser = argparse.ArgumentParser()
    parser.add_argument("--layers", type=int, default=2)     # the model's own
    tessel.add_model_arguments(parser, steps=600, train_batch=64, data=DATA)
    args = parser.parse_args()
    tessel.run_model_commands(build(args.layers), args, schedule="cosine")
"""
import json
import os
import tempfile


def add_model_arguments(parser, steps=100, lr=0.003, train_batch=None, data=None,
                        generation=False):
    """Adds --emit FILE, --explain LAYOUT (repeatable), --train LAYOUT,
    -n/--ranks, --steps, --lr, --eval-every N (validation on held-out data
    every N steps, for a model with `evaluate`), --metrics FILE (the run's
    metrics as JSON lines) and --plot IMAGE (its curves, `tessel plot`);
    with `train_batch`, --batch (the batch the
    program is compiled for, `tessel compile --batch`); with `data`, --data
    (the directory the program reads); with `generation` (a language model
    with a decode function), --checkpoint-dir DIR (training writes its
    checkpoint there) and --generate LAYOUT with --prompt TEXT (repeatable),
    --max-tokens, --temperature, --top-k and --seed."""
    parser.add_argument("--emit", help="write the model's MLIR to this file")
    parser.add_argument("--explain", action="append", default=[],
                        help="explain under a layout file")
    parser.add_argument("--train", help="train under a layout file")
    parser.add_argument("-n", "--ranks", type=int, default=0,
                        help="ranks to train on (the layout's mesh by default)")
    parser.add_argument("--steps", type=int, default=steps)
    parser.add_argument("--lr", type=float, default=lr)
    parser.add_argument("--eval-every", type=int, default=0,
                        help="evaluate on the held-out split every N steps (0: after training)")
    parser.add_argument("--metrics", help="write the training run's metrics (JSON lines) here")
    parser.add_argument("--plot", help="draw the training run's curves into this image (.png, .svg)")
    if train_batch is not None:
        parser.add_argument("--batch", dest="train_batch", type=int, default=train_batch,
                            help="the training batch the program is compiled for")
    if data is not None:
        parser.add_argument("--data", default=data, help="the training data's directory")
    if generation:
        parser.add_argument("--checkpoint-dir",
                            help="training writes its checkpoint here; --generate reads it")
        parser.add_argument("--generate", metavar="LAYOUT",
                            help="continue the prompts under a layout file (forward-only)")
        parser.add_argument("--prompt", action="append", default=[], help="a prompt (repeatable)")
        parser.add_argument("--max-tokens", type=int, default=64)
        parser.add_argument("--temperature", type=float, default=0.0,
                            help="0: greedy; else sample from softmax(logits / T)")
        parser.add_argument("--top-k", type=int, default=0,
                            help="sample among the k most likely tokens (0: all)")
        parser.add_argument("--seed", type=int, default=0, help="the sampling's seed")


def run_model_commands(model, args, optimizer="adamw", schedule=None):
    """Does what add_model_arguments' options ask of `model`: writes it, prints
    each layout's totals per rank, trains it (returning the metrics), and
    continues prompts from its checkpoint."""
    import tessel

    if args.emit:
        model.write(args.emit)
    for layout in args.explain:
        report = tessel.explain(model, layout)
        print(f"{layout}: {report['ranks']} ranks, {json.dumps(report['totals'])}", flush=True)
    metrics = train(model, args, optimizer, schedule) if args.train else None
    if getattr(args, "generate", None):
        if not args.checkpoint_dir or not args.prompt:
            raise tessel.Error("--generate needs --checkpoint-dir DIR and --prompt TEXT")
        # The program prints each prompt with its continuation.
        tessel.generate(model, args.checkpoint_dir, args.prompt, args.generate,
                        max_tokens=args.max_tokens, temperature=args.temperature,
                        top_k=args.top_k, seed=args.seed)
    return metrics


def train(model, args, optimizer, schedule):
    """Trains `model` as --train and the options say; returns the metrics."""
    import tessel

    program_args = ["--steps", args.steps, "--lr", args.lr]
    if getattr(args, "eval_every", 0):
        program_args += ["--eval-every", args.eval_every]
    if schedule:
        program_args += ["--schedule", schedule]
    if getattr(args, "data", None):
        program_args += ["--data", args.data]
    if getattr(args, "checkpoint_dir", None):
        program_args += ["--checkpoint-dir", args.checkpoint_dir]
    train_batch = getattr(args, "train_batch", None)
    flags = [f"--batch={train_batch}"] if train_batch else []
    metrics = tessel.run(model, args.train, ranks=args.ranks, optimizer=optimizer,
                         flags=flags, args=program_args)
    if metrics:
        print("last metrics:", json.dumps(metrics[-1]))
    if getattr(args, "metrics", None):
        write_metrics(metrics, args.metrics)
        print("wrote", args.metrics)
    if getattr(args, "plot", None):
        from tessel.plot import plot_metrics
        with tempfile.TemporaryDirectory() as scratch:
            source = args.metrics or write_metrics(metrics, os.path.join(scratch, "train.jsonl"))
            print("wrote", plot_metrics(source, args.plot, title=args.train,
                                        labels=[os.path.basename(args.train)]))
    return metrics


def write_metrics(metrics, path):
    """Writes a run's metrics as the program's --metrics does (JSON lines)."""
    with open(path, "w") as out:
        out.writelines(json.dumps(line) + "\n" for line in metrics)
    return path
