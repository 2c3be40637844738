"""Training and validation curves from the metrics file of a training run.

A compiled program's ``--metrics FILE`` writes JSON lines: one per training
step (``step``, ``loss``, ``lr``, ...), one per evaluation on held-out data
(``"split": "validation"`` every ``--eval-every`` steps, ``"split": "test"``
after training, each with ``after_step``, ``loss``, ``accuracy`` and, for a
language model, ``perplexity``) and a summary. This draws them with
matplotlib, one panel per quantity (loss; accuracy and perplexity when the
run evaluated), one line per run::

    python -m tessel.plot metrics.jsonl -o curves.png
    python -m tessel.plot data.jsonl hybrid.jsonl -o compare.svg --smooth 20
    tessel plot metrics.jsonl -o curves.png        # the same, from the CLI

The format follows the output's extension (.png, .svg, .pdf).
"""
import argparse
import json
import os
import sys


class MetricsError(Exception):
    """A metrics file that cannot be read or plotted (the message names it)."""


def read_metrics(path):
    """The records of a metrics file, in order. Raises MetricsError naming
    the file (and line) when it cannot be read or a line is not JSON."""
    try:
        with open(path) as file:
            lines = file.readlines()
    except OSError as error:
        raise MetricsError(f"{path}: {error.strerror}") from None
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise MetricsError(f"{path}:{number}: not a JSON line ({error.msg})") from None
        if not isinstance(record, dict):
            raise MetricsError(f"{path}:{number}: not a JSON object")
        records.append(record)
    return records


def _moving_average(values, window):
    """The mean of each value and the window - 1 before it (fewer at the
    start), so that the curve keeps its first point."""
    if window <= 1:
        return list(values)
    averages, total = [], 0.0
    for i, value in enumerate(values):
        total += value
        if i >= window:
            total -= values[i - window]
        averages.append(total / min(i + 1, window))
    return averages


def _series(records, split, key):
    points = [(r["after_step"], r[key]) for r in records
              if r.get("split") == split and key in r and "after_step" in r]
    return [p[0] for p in points], [p[1] for p in points]


def plot_metrics(paths, output, title=None, smooth=1, labels=None):
    """Draws the curves of the metrics files `paths` (a path or a list) into
    `output`; returns the output's path. `smooth` > 1 draws the training
    loss as a moving average over that many steps (the raw steps faint
    behind it). Raises MetricsError for a file without training steps, and
    ImportError (saying which package) without matplotlib."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    output = os.fspath(output)
    if any(os.path.abspath(output) == os.path.abspath(p) for p in paths):
        raise MetricsError(f"{output}: the output would overwrite a metrics file")
    runs = []
    for index, path in enumerate(paths):
        records = read_metrics(path)
        steps = [r for r in records if "step" in r and "loss" in r]
        if not steps:
            raise MetricsError(f"{path}: no training steps (lines with 'step' and 'loss')")
        label = labels[index] if labels else os.path.splitext(os.path.basename(path))[0]
        runs.append((label, records, steps))

    try:
        import matplotlib
    except ImportError:
        raise ImportError("plotting needs matplotlib (Debian: apt-get install "
                          "python3-matplotlib; pip: pip install matplotlib)") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    evaluated = [r for _, records, _ in runs for r in records if "split" in r]
    panels = ["loss"]
    if any("accuracy" in r for r in evaluated):
        panels.append("accuracy")
    if any("perplexity" in r for r in evaluated):
        panels.append("perplexity")
    figure, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 3.8),
                                squeeze=False)
    axes = dict(zip(panels, axes[0]))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for index, (label, records, steps) in enumerate(runs):
        color = colors[index % len(colors)]
        x = [r["step"] for r in steps]
        losses = [r["loss"] for r in steps]
        ax = axes["loss"]
        if smooth > 1:
            ax.plot(x, losses, color=color, alpha=0.25, linewidth=0.8)
            ax.plot(x, _moving_average(losses, smooth), color=color,
                    label=f"{label} train (mean of {smooth})")
        else:
            ax.plot(x, losses, color=color, label=f"{label} train")
        for panel in panels:
            vx, vy = _series(records, "validation", panel)
            if vx:
                axes[panel].plot(vx, vy, color=color, linestyle="--", marker="o",
                                 markersize=3, label=f"{label} validation")
            tx, ty = _series(records, "test", panel)
            if tx:
                axes[panel].scatter(tx, ty, color=color, marker="*", s=90, zorder=3,
                                    label=f"{label} test")
    for panel, ax in axes.items():
        ax.set_xlabel("step")
        ax.set_ylabel(panel)
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    if title:
        figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(output)
    plt.close(figure)
    return output


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="tessel plot",
        description="Draw the training and validation curves of metrics files "
                    "(a compiled program's --metrics) into an image.")
    parser.add_argument("metrics", nargs="+", help="metrics files (JSON lines), one run each")
    parser.add_argument("-o", "--output", required=True,
                        help="the image to write; .png, .svg or .pdf")
    parser.add_argument("--title", help="a title above the panels")
    parser.add_argument("--smooth", type=int, default=1,
                        help="draw the training loss as a moving average over N steps")
    parser.add_argument("--label", action="append",
                        help="a run's name in the legend (once per metrics file; "
                             "default: the file's name)")
    args = parser.parse_args(argv)
    if args.label and len(args.label) != len(args.metrics):
        parser.error(f"{len(args.label)} --label for {len(args.metrics)} metrics files")
    if args.smooth < 1:
        parser.error("--smooth must be at least 1")
    try:
        output = plot_metrics(args.metrics, args.output, args.title, args.smooth, args.label)
    except (MetricsError, ImportError) as error:
        print(f"tessel plot: {error}", file=sys.stderr)
        return 1
    except ValueError as error:  # matplotlib: an extension it cannot write
        print(f"tessel plot: {args.output}: {error}", file=sys.stderr)
        return 1
    print(f"wrote {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
