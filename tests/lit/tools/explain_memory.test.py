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
# Each runtime call site beyond the driver's program's holds what the
# profile says (0 where it prices none).
driver_sites, site_bytes = 0, 0
if "--call-sites" in sys.argv:
    at = sys.argv.index("--call-sites")
    driver_sites, site_bytes = map(int, sys.argv[at + 1:at + 3])
assert memory["call_site_bytes"] == \
    (memory["call_sites"] - driver_sites) * site_bytes, memory
assert total == driver + max(load, resident + step) \
    + memory["call_site_bytes"], (total, memory)
# The call sites are those of the compiled program's init and training
# step: their calls of tessel_rt_execute and tessel_rt_start.
if "--llvm" in sys.argv:
    function, sites = None, 0
    for line in open(sys.argv[sys.argv.index("--llvm") + 1]):
        if line.startswith("define "):
            function = line.split("@", 1)[1].split("(", 1)[0]
        elif line.startswith("}"):
            function = None
        elif function in ("tessel_fn_init", "tessel_fn_train_step") and (
                "@tessel_rt_execute(" in line or "@tessel_rt_start(" in line):
            sites += 1
    assert sites > 0 and memory["call_sites"] == sites, (sites, memory)
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
