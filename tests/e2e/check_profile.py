#!/usr/bin/env python3
"""Checks a machine profile of tessel calibrate for structure and sanity.

usage: check_profile.py PROFILE.json [--ranks 1,2,4]

Timings vary from run to run, so only what any real machine satisfies is
checked: every class and collective is there, every time and rate is
positive (with --narrow, in bf16 and f16 too, and the machine says how
its bf16 products run), the per-op time is there and between 0 and 0.1 ms,
times grow with the work (100 times the work, never faster), kernel rates
stay under 10 TFLOP/s per rank (more than any CPU core count here
could reach), and collective bandwidths lie between 1 MB/s and 1 TB/s per
rank with a latency under a tenth of a second. With --class-order (for
a profile measured with the default repetitions, not a quick one of a
single batch, where one preemption can cost a 4096-element add several
times its time), the transcendental class (a gelu) is slower than the
element-wise one (an add) at 4096 elements, and a fused body's further
entry (fused_entry) costs less per element than the largest add. With --memory, the memory
section is there: the driver's peak between 4 MiB and 1 GiB, the load of
Fashion-MNIST not negative, and what stays of it the training split's
47,100,000 bytes of images and labels.
"""

import argparse
import json
import sys

CLASSES = ["matmul", "matmul_thin", "matmul_batched", "convolution", "elementwise",
           "fused_entry", "reduction", "normalization", "transcendental",
           "pooling", "pooling_backward"]
# Classes added after the shipped profile was measured: the reader times
# their ops by the class they fall back to (reduction, matmul,
# elementwise) when they are absent.
LATER_CLASSES = ["pooling", "pooling_backward", "matmul_thin", "fused_entry",
                 "matmul_batched"]
# What a mixed-precision step computes in besides f32: every class is
# timed on them too ("narrow_classes").
NARROW_TYPES = ["bf16", "f16"]
COLLECTIVES = ["all_reduce", "all_gather", "reduce_scatter", "all_to_all",
               "halo_exchange"]
# Those a compiled program starts (dialect/StartedCollectives.h), which the
# probe also times started.
STARTED = ["all_reduce", "all_gather", "reduce_scatter", "halo_exchange"]


def fail(message):
    sys.exit(f"check_profile: {message}")


def check_points(classes, expected, where):
    """Every class of `expected` in `classes` (class -> points) has sane
    points: positive, sorted by work, rate = work / seconds, and the
    largest size no faster than the smallest."""
    for op_class in expected:
        points = classes.get(op_class, [])
        if len(points) < 2:
            fail(f"{op_class} on {where}: too few sizes")
        for point in points:
            if not (point["work"] > 0 and point["seconds"] > 0
                    and point["rate"] > 0):
                fail(f"{op_class} on {where}: non-positive point {point}")
            if abs(point["rate"] - point["work"] / point["seconds"]) > 1e-6 * point["rate"]:
                fail(f"{op_class} on {where}: rate is not work / seconds: {point}")
            if point["rate"] > 1e13:
                fail(f"{op_class} on {where}: {point['rate']:.3g} per second is beyond any CPU")
        works = [p["work"] for p in points]
        if works != sorted(works):
            fail(f"{op_class} on {where}: points not sorted by work")
        # A kernel of 100x the work cannot be faster than the smallest.
        if points[-1]["seconds"] < points[0]["seconds"]:
            fail(f"{op_class} on {where}: the largest size ran faster than the smallest")


def check(profile, ranks, classes, narrow=False, class_order=False):
    if profile.get("format") != "tessel-machine-profile" or profile.get("version") != 2:
        fail("not a version-2 tessel machine profile")
    machine = profile["machine"]
    if not machine.get("description") or machine.get("cores", 0) < 1:
        fail(f"machine must say where it was measured and its cores: {machine}")
    if narrow and machine.get("bf16_products") not in ("widened", "native"):
        fail(f"machine must say how its bf16 products run: {machine}")
    if narrow and machine.get("bf16_filter_gradients") not in ("widened", "native"):
        fail(f"machine must say how its bf16 filter gradients run: {machine}")
    measured = sorted(entry["ranks"] for entry in profile["kernels"])
    if measured != ranks:
        fail(f"kernels measured on {measured} ranks, expected {ranks}")
    for entry in profile["kernels"]:
        check_points(entry["classes"], classes, f"{entry['ranks']} ranks")
        if narrow:
            for element_type in NARROW_TYPES:
                typed = entry.get("narrow_classes", {}).get(element_type)
                if typed is None:
                    fail(f"no {element_type} kernels on {entry['ranks']} ranks")
                check_points(typed, CLASSES,
                             f"{entry['ranks']} ranks in {element_type}")
        # A compiled program's own work per op: measured on every job size,
        # not negative, and far below a millisecond (the reader's bound).
        per_op = entry.get("per_op_seconds")
        if per_op is None or not 0 <= per_op < 1e-4:
            fail(f"per_op_seconds on {entry['ranks']} ranks: {per_op}")
        if class_order:
            check_class_order(entry)
    groups = {(c["collective"], c.get("started", False), c["ranks"], c["group"])
              for c in profile["collectives"]}
    for job in ranks:
        if job < 2:
            continue
        for collective in COLLECTIVES:
            # Each collective a compiled program starts is also fitted as
            # started and waited for.
            forms = (False, True) if collective in STARTED else (False,)
            for started in forms:
                form = " (started)" if started else ""
                if (collective, started, job, job) not in groups:
                    fail(f"no {collective}{form} over {job} ranks")
                if job >= 4 and (collective, started, job, 2) not in groups:
                    fail(f"no {collective}{form} over pairs in a job of {job}")
    # How much a started collective hides behind the ops after it, measured
    # on the largest job of no more ranks than cores.
    if max(ranks) >= 2:
        overlap = machine.get("overlap_fraction")
        if not isinstance(overlap, (int, float)) or not 0 <= overlap <= 1:
            fail(f"machine must give an overlap_fraction from 0 to 1: {machine}")
    for fit in profile["collectives"]:
        bandwidth = fit["bandwidth_bytes_per_second"]
        if not 1e6 <= bandwidth <= 1e12:
            fail(f"{fit['collective']} on {fit['group']}: {bandwidth:.3g} B/s is not physical")
        if not 0 <= fit["alpha_seconds"] < 0.1:
            fail(f"{fit['collective']}: latency {fit['alpha_seconds']} s")
        if len(fit["points"]) < 2 or any(p["seconds"] <= 0 or p["bytes_per_rank"] <= 0
                                         for p in fit["points"]):
            fail(f"{fit['collective']}: its measured points are missing or not positive")


def check_class_order(entry):
    """A gelu (erfc per element) costs several times an add of as many
    elements, on any machine. Compared at 4096 elements, which both run
    on the calling thread: at 64Ki and more they split across OpenMP's
    threads, whose waits on a loaded machine can cost either one a
    scheduler tick (several ms)."""
    transcendental = next((p for p in entry["classes"]["transcendental"]
                           if p["work"] == 4096), None)
    add = next((p for p in entry["classes"]["elementwise"]
                if p["work"] == 4096), None)
    if not transcendental or not add:
        fail(f"transcendental and elementwise on {entry['ranks']} ranks "
             "were not both measured at 4096 elements")
    if transcendental["seconds"] <= add["seconds"]:
        fail(f"a gelu on {entry['ranks']} ranks ran no slower than an add "
             f"of as many elements: {transcendental} against {add}")
    # A fused body's further entry computes on a tile in the caches, where
    # an add of 1 Mi elements reads and writes memory: an entry costs less
    # per element (a quarter of it on the development container).
    entries = entry["classes"].get("fused_entry")
    largest_add = entry["classes"]["elementwise"][-1]
    if entries:
        per_entry = entries[-1]["seconds"] / entries[-1]["work"]
        per_add = largest_add["seconds"] / largest_add["work"]
        if per_entry >= per_add:
            fail(f"a fused body's entry on {entry['ranks']} ranks cost "
                 f"{per_entry:.3g} s an element, no less than an add's "
                 f"{per_add:.3g}")


def check_memory(profile):
    memory = profile.get("memory")
    if not isinstance(memory, dict):
        fail("no memory section")
    if not 4 * 2**20 <= memory.get("driver_bytes", 0) <= 2**30:
        fail(f"driver_bytes out of bounds: {memory}")
    # The 1-block program calls the runtime from its init and step, and
    # each call site keeps a prepared op (about 3.8 KiB on the development
    # container).
    if memory.get("driver_call_sites", 0) <= 0:
        fail(f"driver_call_sites missing or 0: {memory}")
    if not 256 <= memory.get("call_site_bytes", 0) <= 2**20:
        fail(f"call_site_bytes out of bounds: {memory}")
    if memory.get("image_load_bytes", -1) < 0:
        fail(f"image_load_bytes negative or missing: {memory}")
    # Fashion-MNIST's training split: 60000 images of 28 x 28 and a label
    # for each, one byte apiece.
    if memory.get("image_resident_bytes") != 60000 * 28 * 28 + 60000:
        fail(f"image_resident_bytes is not the training split's: {memory}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("profile")
    parser.add_argument("--ranks", default="1,2,4",
                        help="the job sizes the profile must have measured")
    parser.add_argument("--before-pooling", action="store_true",
                        help="a profile measured before the pooling classes "
                             "(the shipped one): they may be absent")
    parser.add_argument("--narrow", action="store_true",
                        help="every job size must have timed every class in "
                             "bf16 and f16 too")
    parser.add_argument("--class-order", action="store_true",
                        help="a gelu must be slower than an add (a profile "
                             "measured with repetitions, not a quick one)")
    parser.add_argument("--memory", action="store_true",
                        help="the profile must have a memory section")
    args = parser.parse_args()
    with open(args.profile) as f:
        profile = json.load(f)
    classes = [c for c in CLASSES
               if not (args.before_pooling and c in LATER_CLASSES)]
    check(profile, sorted(int(r) for r in args.ranks.split(",")), classes,
          narrow=args.narrow, class_order=args.class_order)
    if args.memory:
        check_memory(profile)
    print(f"check_profile: {args.profile}: OK")


if __name__ == "__main__":
    main()
