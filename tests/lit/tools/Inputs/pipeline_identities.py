"""Checks the sums of a pipelined step's `tessel explain --format json`.

Reads the report on stdin and asserts, for every stage, that the held
activations are the micro-batches held times what one keeps, and that the
peak is the parameters, state and gradient sums plus the larger of the held
micro-batches with the larger working memory of forward and backward and
the working memory of apply; and the bubble (p - 1) / (m + p - 1). Prints
one line per stage for FileCheck.
"""

import json
import sys

report = json.load(sys.stdin)
p = report["pipeline"]["stages"]
m = report["pipeline"]["microbatches"]
assert abs(report["bubble_fraction"] - (p - 1) / (m + p - 1)) < 1e-12
for stage in report["stages"]:
    assert stage["held_bytes"] == (
        stage["microbatches_held"] * stage["kept_bytes_per_microbatch"])
    during = stage["held_bytes"] + max(stage["forward_working_bytes"],
                                       stage["backward_working_bytes"])
    peak = (stage["parameter_bytes_per_rank"] +
            stage["optimizer_state_bytes_per_rank"] +
            stage["gradient_sum_bytes_per_rank"] +
            max(during, stage["apply_working_bytes"]))
    assert stage["peak_bytes_per_rank"] == peak, (stage, peak)
    print(f"stage {stage['stage']} holds {stage['microbatches_held']} "
          f"peak {stage['peak_bytes_per_rank']} ok")
slowest = report["stages"][report["step"]["slowest_stage"]]
step = ((m + p - 1) * (slowest["forward_seconds_per_microbatch"] +
                       slowest["backward_seconds_per_microbatch"]) +
        (p - 1) * (report["step"]["send_forward_seconds"] +
                   report["step"]["send_back_seconds"]) +
        report["step"]["apply_seconds"])
assert abs(report["step"]["seconds"] - step) <= 1e-9 * step
print("step time ok")
