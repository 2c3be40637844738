"""`tessel plot` / `python -m tessel.plot`: training and validation curves
from a metrics file, as PNG and SVG, and its errors."""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest


def write_metrics(path, steps=30, every=10, language_model=True):
    """A metrics file as the driver writes one: a line per step, a
    validation line every `every` steps, the summary and the test line."""
    with open(path, "w") as out:
        for step in range(1, steps + 1):
            loss = 5.5 / (1 + 0.05 * step)
            out.write(json.dumps({"step": step, "loss": loss, "samples_per_s": 1000.0,
                                  "step_ms": 4.0, "lr": 0.003}) + "\n")
            if step % every == 0:
                record = {"split": "validation", "after_step": step, "loss": loss * 1.05,
                          "accuracy": 0.02 * step, "examples": 80, "predictions": 640,
                          "forward_seconds": 0.01}
                if language_model:
                    record["perplexity"] = 2.718281828 ** record["loss"]
                out.write(json.dumps(record) + "\n")
        out.write(json.dumps({"trained_steps": steps, "train_seconds": 1.0,
                              "peak_rss_mib": [30.0]}) + "\n")
        out.write(json.dumps({"split": "test", "after_step": steps, "loss": 2.0,
                              "accuracy": 0.6, "examples": 80, "predictions": 640,
                              "forward_seconds": 0.01}) + "\n")


def plot(*args):
    """Runs `python -m tessel.plot` with `args`."""
    return subprocess.run([sys.executable, "-m", "tessel.plot", *map(str, args)],
                          capture_output=True, text=True)


def test_png_of_training_and_validation_curves(tmp_path):
    metrics = tmp_path / "metrics.jsonl"
    write_metrics(metrics)
    output = tmp_path / "curves.png"
    run = plot(metrics, "-o", output, "--title", "a run", "--smooth", "5")
    assert run.returncode == 0, run.stderr
    assert f"wrote {output}" in run.stdout
    data = output.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    import matplotlib.image
    image = matplotlib.image.imread(output)
    height, width = image.shape[:2]
    # Three panels side by side (loss, accuracy, perplexity), not blank.
    assert width > 2 * height > 200
    assert image[..., :3].std() > 0.05


def test_svg_has_a_panel_per_quantity(tmp_path):
    metrics = tmp_path / "classifier.jsonl"
    write_metrics(metrics, language_model=False)
    output = tmp_path / "curves.svg"
    run = plot(metrics, "-o", output)
    assert run.returncode == 0, run.stderr
    root = ElementTree.parse(output).getroot()
    assert root.tag.endswith("svg")
    # Loss and accuracy: no perplexity panel for a classifier.
    axes = [g for g in root.iter() if g.get("id", "").startswith("axes_")]
    assert len(axes) == 2, [g.get("id") for g in axes]


def test_several_runs_share_the_panels(tmp_path):
    first, second = tmp_path / "data.jsonl", tmp_path / "hybrid.jsonl"
    write_metrics(first)
    write_metrics(second, every=5)
    output = tmp_path / "compare.svg"
    run = plot(first, second, "-o", output, "--label", "data", "--label", "hybrid")
    assert run.returncode == 0, run.stderr
    text = output.read_text()
    assert "hybrid validation" in text and "data train" in text


def test_errors_name_the_file_and_leave_it_alone(tmp_path):
    metrics = tmp_path / "metrics.jsonl"
    write_metrics(metrics)
    before = metrics.read_bytes()
    run = plot(metrics, "-o", metrics)
    assert run.returncode == 1
    assert "would overwrite a metrics file" in run.stderr
    assert metrics.read_bytes() == before

    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"step": 1, "loss": 2.0}\n{"step": 2, "loss"\n')
    run = plot(broken, "-o", tmp_path / "x.png")
    assert run.returncode == 1
    assert f"{broken}:2: not a JSON line" in run.stderr

    empty = tmp_path / "empty.jsonl"
    empty.write_text(json.dumps({"split": "test", "after_step": 1, "loss": 1.0}) + "\n")
    run = plot(empty, "-o", tmp_path / "x.png")
    assert run.returncode == 1
    assert "no training steps" in run.stderr

    run = plot(tmp_path / "missing.jsonl", "-o", tmp_path / "x.png")
    assert run.returncode == 1
    assert "missing.jsonl: No such file or directory" in run.stderr
    assert not (tmp_path / "x.png").exists()


@pytest.mark.skipif(not os.environ.get("TESSEL_TOOL"), reason="TESSEL_TOOL is not set")
def test_the_tessel_tool_dispatches_to_the_module(tmp_path):
    metrics = tmp_path / "metrics.jsonl"
    write_metrics(metrics)
    output = tmp_path / "curves.png"
    run = subprocess.run([os.environ["TESSEL_TOOL"], "plot", str(metrics), "-o", str(output)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert output.read_bytes().startswith(b"\x89PNG")


def test_a_model_script_trains_validates_and_plots(tmp_path):
    """run_model_commands (gpt.py --train ... --eval-every N --metrics F
    --plot IMAGE): the validation lines reach the metrics file and the
    curves the image."""
    import argparse
    import importlib.util

    import tessel

    repo = os.path.join(os.path.dirname(__file__), "..", "..")
    spec = importlib.util.spec_from_file_location(
        "gpt_example", os.path.join(repo, "examples", "gpt", "gpt.py"))
    gpt = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gpt)
    layout = tmp_path / "one.yaml"
    layout.write_text("mesh: {data: 1}\nlayout:\n  batch: data\n")
    parser = argparse.ArgumentParser()
    tessel.add_model_arguments(parser, steps=4)
    metrics, image = tmp_path / "gpt.jsonl", tmp_path / "gpt.png"
    args = parser.parse_args(["--train", str(layout), "--steps", "4", "--eval-every", "2",
                              "--metrics", str(metrics), "--plot", str(image)])
    tessel.run_model_commands(gpt.build_gpt(layers=1), args)
    records = [json.loads(line) for line in metrics.read_text().splitlines()]
    evaluations = [(r["split"], r["after_step"]) for r in records if "split" in r]
    assert evaluations == [("validation", 2), ("validation", 4), ("test", 4)]
    assert all(r["perplexity"] > 1 for r in records if "split" in r)
    assert image.read_bytes().startswith(b"\x89PNG")
