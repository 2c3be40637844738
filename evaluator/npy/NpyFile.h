//===- NpyFile.h - NumPy .npy arrays for the reference tensors ---*- C++
//-*-===//
//
// Reads and writes the .npy format (version 1.0-3.0, little-endian, C
// order), which is how tessel-eval takes inputs and gives outputs. An .npy
// array has a shape but no dimension names: the names come from the function
// signature that the array is read for.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_EVALUATOR_NPY_NPYFILE_H
#define TESSEL_EVALUATOR_NPY_NPYFILE_H

#include "evaluator/kernels/Tensor.h"

#include <string>

namespace tessel::ref {

/// An array as stored in a file: its shape and values, before names are
/// attached.
struct NpyArray {
  std::vector<int64_t> shape;
  /// The NumPy type string, e.g. "<f4".
  std::string descr;
  std::vector<double> values;
};

/// Reads `path`; on failure returns false and sets `error` to a message that
/// names the file and what is wrong with it.
bool readNpy(const std::string &path, NpyArray &array, std::string &error);

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

#endif // TESSEL_EVALUATOR_NPY_NPYFILE_H
