//===- CalibrateMemory.h - the machine profile's memory section -*- C++ -*-===//
//
// tessel calibrate measures what a compiled program holds besides its
// step (docs/search.md, "Memory"): it compiles three trivial programs, runs
// each on one rank under mpirun as `tessel run` would, and reads their peak
// resident memory from the driver's metrics.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_TESSEL_CALIBRATEMEMORY_H
#define TESSEL_TOOLS_TESSEL_CALIBRATEMEMORY_H

#include "analysis/MachineProfile.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::tessel {

/// The bytes of Fashion-MNIST's training images and labels in `dataDir`
/// (their idx bodies), what the driver keeps of the data set; nullopt after
/// saying why where they cannot be read.
std::optional<int64_t> trainingSplitBytes(const std::string &dataDir);

/// Fills `profile`'s memory section (and sets hasMemory): driver_bytes, the
/// peak of a 1-block Transformer of d_model 8 training on the text corpus;
/// driver_call_sites, that program's runtime call sites, and
/// call_site_bytes, what each call site more holds: the growth of the peak
/// to a 16-block twin, beyond its step's, per call site more (tessel
/// explain counts both programs' call sites and steps);
/// image_load_bytes, what the MLP of hidden 1 training on Fashion-MNIST (in
/// `dataDir`) peaks at beyond it, the load of the data set;
/// image_resident_bytes, `residentBytes` (trainingSplitBytes). `tool` is
/// the tessel executable that compiles the programs. Returns false after
/// saying why where one of them cannot be compiled or run.
bool measureMemory(const std::string &tool, const std::string &mpirun,
                   const std::string &dataDir, int64_t residentBytes,
                   ::tessel::analysis::MachineProfile &profile);

} // namespace mlir::tessel

#endif // TESSEL_TOOLS_TESSEL_CALIBRATEMEMORY_H
