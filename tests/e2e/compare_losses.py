#!/usr/bin/env python3
"""Compares the loss curves of two runs' metrics files (JSON lines).

usage: compare_losses.py REFERENCE RUN TOLERANCE [FIRST_STEP]

Every step of RUN (from FIRST_STEP on) must have the loss the reference run
has at the same step, within TOLERANCE relative error. Prints the largest
difference; exits 1 on a mismatch or a missing step.
"""
import json
import sys


def losses(path):
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
            result[record["step"]] = record["loss"]
    return result


def main():
    reference, run = losses(sys.argv[1]), losses(sys.argv[2])
    tolerance = float(sys.argv[3])
    first = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    steps = sorted(step for step in run if step >= first)
    if not steps:
        print(f"{sys.argv[2]}: no steps from {first} on")
        return 1
    worst = 0.0
    for step in steps:
        if step not in reference:
            print(f"step {step} is missing from {sys.argv[1]}")
            return 1
        error = abs(run[step] - reference[step]) / abs(reference[step])
        worst = max(worst, error)
        if not error <= tolerance:
            print(f"step {step}: loss {run[step]} but {reference[step]} "
                  f"in the reference (relative error {error:.3g})")
            return 1
    print(f"steps {steps[0]}-{steps[-1]} match the reference "
          f"(largest relative error {worst:.3g}, tolerance {tolerance:g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
