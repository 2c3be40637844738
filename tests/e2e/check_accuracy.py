#!/usr/bin/env python3
"""Checks the test accuracy a training run reported in its metrics file.

usage: check_accuracy.py METRICS THRESHOLD LABEL [MIN_EXAMPLES]

The last record of the test split (`"split": "test"`) of METRICS (JSON
lines, as the driver's --metrics writes them) must have an accuracy of at
least THRESHOLD and, with MIN_EXAMPLES, cover at least that many test
examples. Prints a line naming LABEL; exits 1
when the run reported no accuracy or fell short.
"""
import json
import sys


def main():
    path, threshold, label = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    min_examples = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    with open(path) as file:
        records = [json.loads(line) for line in file]
    evaluation = [r for r in records if r.get("split") == "test"]
    if not evaluation:
        print(f"FAIL: {label}: the run reported no test accuracy")
        return 1
    accuracy, examples = evaluation[-1]["accuracy"], evaluation[-1]["examples"]
    if examples < min_examples:
        print(f"FAIL: {label}: evaluated {examples} test examples, fewer than {min_examples}")
        return 1
    if not accuracy >= threshold:
        print(f"FAIL: {label}: test accuracy {accuracy:.4f} < {threshold}")
        return 1
    print(f"PASS: {label}: test accuracy {accuracy:.4f} >= {threshold} ({examples} examples)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
