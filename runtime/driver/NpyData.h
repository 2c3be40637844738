//===- NpyData.h - A dataset of .npy arrays ---------------------*- C++ -*-===//
//
// Any model's data, without code: `--data DIR` where DIR holds one
// `<argument>.npy` per data argument of train_step (and, for evaluation,
// `DIR/test/<argument>.npy` per data argument of evaluate). Example i of
// every array is its row i along the first dimension; the other dimensions
// are the argument's dimensions other than `batch`, in order.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_NPYDATA_H
#define TESSEL_RUNTIME_DRIVER_NPYDATA_H

#include "driver/FashionMnist.h"

#include <optional>
#include <string>

namespace tessel::driver {

/// Whether `dir` holds any .npy file (then it is read with loadNpyData).
bool holdsNpyFiles(const std::string &dir);

/// Maps every `*.npy` of `dir`, keyed by file name without `.npy`; every
/// array must have the same number of examples (first dimension). Says
/// which file and what is wrong in `error` otherwise.
std::optional<Dataset> loadNpyData(const std::string &dir, std::string &error);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_NPYDATA_H
