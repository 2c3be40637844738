//===- NpyFile.h - NumPy .npy arrays as reference tensors --------*- C++ -*-===//
//
// Whole .npy files as tensors, which is how tessel-eval takes inputs and
// gives outputs; the reading is NpyArray's. An .npy array has a shape but no
// dimension names: the names come from the function signature that the
// array is read for.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_REFERENCE_NPY_NPYFILE_H
#define TESSEL_REFERENCE_NPY_NPYFILE_H

#include "reference/Tensor.h"

#include <string>

namespace tessel::ref {

/// Reads `path` as a tensor of `spec`: the shape must equal spec's, and the
/// values are rounded to spec's element type. Errors name the file and, for
/// a shape mismatch, both shapes with spec's dimension names.
bool readNpyAs(const std::string &path, const TensorSpec &spec, Tensor &tensor,
               std::string &error);

/// Writes `tensor` to `path` with the nearest NumPy type (bf16 is written as
/// float32, which NumPy lacks).
bool writeNpy(const std::string &path, const Tensor &tensor,
              std::string &error);

} // namespace tessel::ref

#endif // TESSEL_REFERENCE_NPY_NPYFILE_H
