"""Checks the sums of a pipelined step's `tessel explain --format json`.

Reads the report on stdin and asserts, for every stage, that the held
activations are the micro-batches held times what one keeps, and that the
peak is the parameters, state and gradient sums, the held micro-batches,
the working buffers the cache keeps for forward, backward and apply (at
least the larger of forward's and backward's, at most all three's) and the
memory they use outside it; the bubble (p - 1) / (m + p - 1) and the step
time (analysis/PipelineCost.h). Prints one line per stage for FileCheck.
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
    working = [stage["forward_working_bytes"],
               stage["backward_working_bytes"], stage["apply_working_bytes"]]
    cached = stage["cached_working_bytes"] + stage["other_working_bytes"]
    # Forward and backward each fit in what the cache and the rest hold
    # (apply also uses the held micro-batches' buffers, free by then).
    assert max(working[:2]) <= cached <= sum(working), (stage, working)
    peak = (stage["parameter_bytes_per_rank"] +
            stage["optimizer_state_bytes_per_rank"] +
            stage["gradient_sum_bytes_per_rank"] + stage["held_bytes"] +
            cached)
    assert stage["peak_bytes_per_rank"] == peak, (stage, peak)
    # A rank holds the peak, the driver's own memory and what its call
    # sites hold beyond the driver's program's (negative for fewer).
    assert stage["memory_bytes_per_rank"] == max(
        0, peak + report["driver_bytes"] + stage["call_site_bytes"]), stage
    print(f"stage {stage['stage']} holds {stage['microbatches_held']} "
          f"peak {stage['peak_bytes_per_rank']} ok")
# The step: p - 1 fill and drain slots of the longest forward and
# backward with the first and last messages, and the busiest stage's m
# forwards, backwards and message handlings and m - 1 gradient sums.
def busy(stage):
    return (m * (stage["forward_seconds_per_microbatch"] +
                 stage["backward_seconds_per_microbatch"] +
                 stage["message_seconds_per_microbatch"]) +
            (m - 1) * stage["gradient_sum_seconds_per_microbatch"])
slowest = report["stages"][report["step"]["slowest_stage"]]
assert busy(slowest) == max(busy(stage) for stage in report["stages"])
fill = max(stage["forward_seconds_per_microbatch"] +
           stage["backward_seconds_per_microbatch"]
           for stage in report["stages"])
assert abs(report["step"]["fill_slot_seconds"] - fill) <= 1e-12 * fill
step = ((p - 1) * (fill + report["step"]["send_forward_seconds"] +
                   report["step"]["send_back_seconds"]) +
        busy(slowest) + report["step"]["apply_seconds"])
assert abs(report["step"]["seconds"] - step) <= 1e-9 * step
print("step time ok")
