#!/usr/bin/env python3
"""Compares the loss curves of two runs' metrics files (JSON lines).

usage: compare_losses.py REFERENCE RUN TOLERANCE [FIRST_STEP] [--field NAME]

Every step of RUN (from FIRST_STEP on) must have the loss (or the step
record's field NAME, such as loss_scale) the reference run has at the same
step, within TOLERANCE relative error. Prints the largest
difference; exits 1 on a mismatch or a missing step.
"""
import json
import sys


def losses(path, field="loss"):
    result = {}
    with open(path) as file:
        lines = file.read().splitlines()
    for number, line in enumerate(lines):
        try:
            record = json.loads(line)
        except ValueError:
            # A run killed while it wrote its last line (tests/e2e/faults.sh)
            # leaves it cut short; anywhere else it is an error.
            if number == len(lines) - 1:
                continue
            raise
        if "step" in record:
            result[record["step"]] = record[field]
    return result


def main():
    args = sys.argv[1:]
    field = "loss"
    if "--field" in args:
        at = args.index("--field")
        field = args[at + 1]
        del args[at:at + 2]
    reference, run = losses(args[0], field), losses(args[1], field)
    tolerance = float(args[2])
    first = int(args[3]) if len(args) > 3 else 1
    steps = sorted(step for step in run if step >= first)
    if not steps:
        print(f"{args[1]}: no steps from {first} on")
        return 1
    worst = 0.0
    for step in steps:
        if step not in reference:
            print(f"step {step} is missing from {args[0]}")
            return 1
        error = abs(run[step] - reference[step]) / abs(reference[step])
        worst = max(worst, error)
        if not error <= tolerance:
            print(f"step {step}: {field} {run[step]} but {reference[step]} "
                  f"in the reference (relative error {error:.3g})")
            return 1
    print(f"steps {steps[0]}-{steps[-1]} match the reference "
          f"(largest relative error {worst:.3g}, tolerance {tolerance:g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
