//===- NpyArray.h - NumPy .npy arrays, memory-mapped ------------*- C++ -*-===//
//
// The one reader of the .npy format (numpy.save) in tessel: the driver reads
// a model's data with it and tessel-eval its inputs (NpyFile.h). The file is
// mapped, not read: a rank touches only the pages of the examples in its
// block of each batch, so a data-parallel job reads each example once,
// wherever it lands.
//
// Supported: format versions 1 to 3, C order, little-endian or
// byte-sized elements of bool, uint8/16/32/64, int8/16/32/64 and
// float16/32/64. Debian has no C++ library for the format, hence this small
// reader.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_REFERENCE_NPY_NPYARRAY_H
#define TESSEL_REFERENCE_NPY_NPYARRAY_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel::ref {

class NpyArray {
public:
  /// Maps `path`; on failure returns nothing and says what is wrong with
  /// which file in `error`.
  static std::optional<NpyArray> open(const std::string &path,
                                      std::string &error);

  /// Reads the `size` bytes of an .npy file at `bytes` (open's parsing,
  /// without the file); the array refers to `bytes`, which must outlive it.
  /// `name` stands for the file in errors and path().
  static std::optional<NpyArray> fromBytes(const std::string &name,
                                           const unsigned char *bytes,
                                           size_t size, std::string &error);

  const std::string &path() const { return filePath; }
  const std::vector<int64_t> &shape() const { return arrayShape; }
  /// The numpy type string, e.g. "<f4" ("=f4" is read as "<f4").
  const std::string &dtype() const { return typeString; }
  bool isInteger() const { return kind != 'f'; }
  int64_t numElements() const;

  /// Element `flat` (row-major) as a double.
  double at(int64_t flat) const;

private:
  struct Mapping;

  std::string filePath;
  std::vector<int64_t> arrayShape;
  std::string typeString;
  char kind = 'f';
  int elementBytes = 0;
  std::shared_ptr<const Mapping> mapping;
  const unsigned char *data = nullptr;
};

} // namespace tessel::ref

#endif // TESSEL_REFERENCE_NPY_NPYARRAY_H
