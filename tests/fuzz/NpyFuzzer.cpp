//===- NpyFuzzer.cpp - libFuzzer target for .npy files --------------------===//
//
// Feeds arbitrary bytes, as the contents of an .npy file, to the one .npy
// reader (reference/npy/NpyArray: the driver's --data arrays and
// tessel-eval's inputs), through NpyArray::fromBytes, the parsing that
// NpyArray::open does on the mapped file. Any error is a correct answer; a
// crash or a sanitizer report is a bug. Beyond not crashing, a refusal must
// name the file, and an accepted array must have a supported element type,
// data that lie within the bytes given (every element is read, so ASan sees
// a read past them) and a shape whose element count is what numElements
// says.
//
//===----------------------------------------------------------------------===//

#include "Require.h"
#include "layouts/CheckedArithmetic.h"
#include "reference/npy/NpyArray.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

using tessel::ref::NpyArray;

namespace {

/// Aborts, naming this fuzzer, when the reader breaks the promise `what`.
void require(bool condition, const char *what) {
  tessel::fuzz::requireOrAbort(condition, "NpyFuzzer", what);
}

/// The size of one element of a supported type string, or 0.
int elementBytesOf(const std::string &type) {
  // Byte-sized types in either notation ("|" is numpy's, "<" is read too).
  static const char *const kSupported[] = {"|b1", "<b1", "|u1", "<u1", "<u2",
                                           "<u4", "<u8", "|i1", "<i1", "<i2",
                                           "<i4", "<i8", "<f2", "<f4", "<f8"};
  for (const char *supported : kSupported)
    if (type == supported)
      return supported[2] - '0';
  return 0;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string error;
  std::optional<NpyArray> array =
      NpyArray::fromBytes("fuzz.npy", data, size, error);
  if (!array) {
    require(error.rfind("fuzz.npy: ", 0) == 0,
            "refused a file without a message naming it");
    return 0;
  }
  int elementBytes = elementBytesOf(array->dtype());
  require(elementBytes > 0, "accepted an unsupported element type");
  require(array->isInteger() == (array->dtype()[1] != 'f'),
          "isInteger disagrees with the element type");
  for (int64_t extent : array->shape())
    require(extent >= 0, "accepted a negative extent");
  std::optional<int64_t> count = tessel::checkedProduct(array->shape());
  require(count.has_value(), "accepted a shape whose element count overflows");
  require(array->numElements() == *count,
          "numElements disagrees with the shape");
  std::optional<int64_t> bytes = tessel::checkedMul(*count, elementBytes);
  require(bytes && *bytes <= static_cast<int64_t>(size),
          "accepted data larger than the file");
  // Reading every element is what the driver's checks (checkArrayFits) and
  // tessel-eval (readNpyAs) do; the data are within the input, so this is
  // at most size / elementBytes reads.
  double sum = 0;
  for (int64_t i = 0; i < *count; ++i)
    sum += array->at(i);
  (void)sum;
  return 0;
}
