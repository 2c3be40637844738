//===- NpyFile.h - NumPy .npy arrays as reference tensors -------*- C++ -*-===//
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

#include <cstddef>
#include <string>
#include <vector>

namespace tessel::ref {

/// Reads `path` as a tensor of `spec`: the shape must equal spec's, and the
/// values are rounded to spec's element type. Errors name the file and, for
/// a shape mismatch, both shapes with spec's dimension names.
bool readNpyAs(const std::string &path, const TensorSpec &spec, Tensor &tensor,
               std::string &error);

/// Writes `tensor` to `path` with npyTypeString's type.
bool writeNpy(const std::string &path, const Tensor &tensor,
              std::string &error);

/// The NumPy type string that `type` is written as: the nearest NumPy type
/// (bf16, which NumPy lacks, as float32 "<f4"; i1 as bool "|b1").
const char *npyTypeString(ElementType type);

/// The header of a version 1.0 .npy file for an array of `typeString` and
/// `shape` (magic string, version, length and dict), padded with spaces and
/// a newline as NumPy pads it so that the data start at a multiple of 64
/// bytes, and to at least `minBytes`: a writer that learns the shape only at
/// the end reserves the room first and rewrites the header in place.
std::string npyHeader(const std::string &typeString,
                      const std::vector<int64_t> &shape, size_t minBytes = 0);

} // namespace tessel::ref

#endif // TESSEL_REFERENCE_NPY_NPYFILE_H
