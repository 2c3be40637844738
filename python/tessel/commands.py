"""The command line a model script shares with every other: write the model's
MLIR, explain it under layouts, train it.

    parser = argparse.ArgumentParser()
    parser.add_argument("--layers", type=int, default=2)     # the model's own
    tessel.add_model_arguments(parser, steps=600, train_batch=64, data=DATA)
    args = parser.parse_args()
    tessel.run_model_commands(build(args.layers), args, schedule="cosine")
"""
import json


def add_model_arguments(parser, steps=100, lr=0.003, train_batch=None, data=None):
    """Adds --emit FILE, --explain LAYOUT (repeatable), --train LAYOUT,
    -n/--ranks, --steps and --lr; with `train_batch`, --batch (the batch the
    program is compiled for, `tessel compile --batch`); with `data`, --data
    (the directory the program reads)."""
    parser.add_argument("--emit", help="write the model's MLIR to this file")
    parser.add_argument("--explain", action="append", default=[],
                        help="explain under a layout file")
    parser.add_argument("--train", help="train under a layout file")
    parser.add_argument("-n", "--ranks", type=int, default=0,
                        help="ranks to train on (the layout's mesh by default)")
    parser.add_argument("--steps", type=int, default=steps)
    parser.add_argument("--lr", type=float, default=lr)
    if train_batch is not None:
        parser.add_argument("--batch", dest="train_batch", type=int, default=train_batch,
                            help="the training batch the program is compiled for")
    if data is not None:
        parser.add_argument("--data", default=data, help="the training data's directory")


def run_model_commands(model, args, optimizer="adamw", schedule=None):
    """Does what add_model_arguments' options ask of `model`: writes it, prints
    each layout's totals per rank, trains it (returning the metrics)."""
    import tessel

    if args.emit:
        model.write(args.emit)
    for layout in args.explain:
        report = tessel.explain(model, layout)
        print(f"{layout}: {report['ranks']} ranks, {json.dumps(report['totals'])}", flush=True)
    if not args.train:
        return None
    program_args = ["--steps", args.steps, "--lr", args.lr]
    if schedule:
        program_args += ["--schedule", schedule]
    if getattr(args, "data", None):
        program_args += ["--data", args.data]
    train_batch = getattr(args, "train_batch", None)
    flags = [f"--batch={train_batch}"] if train_batch else []
    metrics = tessel.run(model, args.train, ranks=args.ranks, optimizer=optimizer,
                         flags=flags, args=program_args)
    if metrics:
        print("last metrics:", json.dumps(metrics[-1]))
    return metrics
