//===- Mpirun.h - how the tessel tools start an SPMD job --------*- C++ -*-===//
//
// `tessel run` and `tessel calibrate` start their programs under mpirun the
// same way, so that calibration measures what a run gets.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_TESSEL_MPIRUN_H
#define TESSEL_TOOLS_TESSEL_MPIRUN_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::tessel {

/// Returns mpirun's path, or prints why there is none and returns nullopt.
std::optional<std::string> findMpirun();

/// Returns the arguments that start `ranks` ranks of a program (appended by
/// the caller) with mpirun at `mpirun`: unbound, so that each rank's
/// kernels use its share of the cores (the driver sizes their thread pool;
/// mpirun's default binds a rank to one core), oversubscribed when there
/// are more ranks than cores, and allowed to run as root.
llvm::SmallVector<std::string> mpirunArguments(llvm::StringRef mpirun,
                                               int64_t ranks);

} // namespace mlir::tessel

#endif // TESSEL_TOOLS_TESSEL_MPIRUN_H
