//===- ArrayFitsTest.cpp - which .npy arrays can feed a data argument -----===//
//
// checkArrayFits, the driver's check of a --data array against the data
// argument it feeds, on arrays read from bytes (NpyArray::fromBytes): the
// range of integers each integer type holds, ends included.
//
//===----------------------------------------------------------------------===//

#include "driver/Batches.h"
#include "reference/npy/NpyFile.h"

#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

using namespace tessel;
using namespace tessel::driver;

namespace {

/// A data argument of one rank: `[batch:N] type`.
ValueSpec dataArgument(const std::string &name, int64_t batch,
                       ref::ElementType type) {
  TensorType global{{"batch"}, {batch}, type};
  return {name, global, global, {{}}, ""};
}

/// The bytes of a one-dimensional .npy file of `values`.
template <typename T>
std::vector<unsigned char> npyFile(const std::string &typeString,
                                   const std::vector<T> &values) {
  std::string header =
      ref::npyHeader(typeString, {static_cast<int64_t>(values.size())});
  std::vector<unsigned char> bytes(header.begin(), header.end());
  size_t start = bytes.size();
  bytes.resize(start + values.size() * sizeof(T));
  std::memcpy(bytes.data() + start, values.data(), values.size() * sizeof(T));
  return bytes;
}

/// checkArrayFits of `bytes` (as `name`.npy) for `argument`.
std::optional<std::string> fits(const std::vector<unsigned char> &bytes,
                                const ValueSpec &argument) {
  std::string error;
  std::optional<NpyArray> array = NpyArray::fromBytes(
      argument.name + ".npy", bytes.data(), bytes.size(), error);
  if (!array)
    return "unreadable: " + error;
  return checkArrayFits(*array, argument);
}

} // namespace

TEST(ArrayFits, I64TakesEverythingBelow2To63) {
  ValueSpec ids = dataArgument("ids", 2, ref::ElementType::I64);
  EXPECT_EQ(fits(npyFile<int64_t>("<i8", {INT64_MIN, int64_t(1) << 62}), ids),
            std::nullopt);
  // 2^63 was saturated to 2^63 - 1024 without a word.
  EXPECT_EQ(fits(npyFile<uint64_t>("<u8", {1, uint64_t(1) << 63}), ids),
            "ids.npy: element 1 is 9223372036854775808, which the model's "
            "'ids' ([batch:2] i64) cannot hold");
}

TEST(ArrayFits, I32AndI1TakeTheirRangeEndsIncluded) {
  ValueSpec labels = dataArgument("labels", 2, ref::ElementType::I32);
  EXPECT_EQ(fits(npyFile<int64_t>("<i8", {INT32_MIN, INT32_MAX}), labels),
            std::nullopt);
  EXPECT_EQ(fits(npyFile<int64_t>("<i8", {0, int64_t(INT32_MAX) + 1}), labels),
            "labels.npy: element 1 is 2147483648, which the model's 'labels' "
            "([batch:2] i32) cannot hold");
  ValueSpec mask = dataArgument("mask", 2, ref::ElementType::I1);
  EXPECT_EQ(fits(npyFile<uint8_t>("|u1", {0, 1}), mask), std::nullopt);
  EXPECT_EQ(fits(npyFile<uint8_t>("|u1", {1, 2}), mask),
            "mask.npy: element 1 is 2, which the model's 'mask' ([batch:2] "
            "i1) cannot hold");
}
