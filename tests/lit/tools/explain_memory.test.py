"""Checks explain's memory figures add up: explain_memory.test."""
import json
import sys

report = json.load(open(sys.argv[1]))
driver, load, resident = map(int, sys.argv[2:5])
memory = report["memory"]
total = report["totals"]["memory_bytes_per_rank"]
assert memory["driver_bytes"] == driver, memory
assert memory["data_load_bytes"] == load, memory
assert memory["data_resident_bytes"] == resident, memory
step = (memory["step_buffer_bytes"] + memory["constant_bytes"]
        + memory["kernel_scratch_bytes"] + memory["widened_copy_bytes"]
        + memory["collective_in_flight_bytes"] + memory["data_staging_bytes"])
assert total == driver + max(load, resident + step), (total, memory)
# The cache holds at least what is alive at once, which holds at least the
# arguments (parameters, state, the batch).
assert memory["step_buffer_bytes"] >= memory["step_liveness_peak_bytes"] \
    >= memory["argument_bytes"] > 0, memory
if "--step-outgrows-load" in sys.argv:
    assert resident + step > load, memory
if "--more-than" in sys.argv:
    other = json.load(open(sys.argv[sys.argv.index("--more-than") + 1]))
    assert memory["constant_bytes"] == other["memory"]["constant_bytes"], memory
    assert memory["argument_bytes"] > other["memory"]["argument_bytes"], memory
    assert memory["step_buffer_bytes"] > other["memory"]["step_buffer_bytes"]
