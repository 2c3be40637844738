//===- NpyTest.cpp - Reading and writing .npy files -----------------------===//
//
// Writes .npy files byte by byte (as numpy.save lays them out) and checks
// what the reader (reference/npy/NpyArray, shared by the driver and
// tessel-eval) makes of them: values of every supported type, and a clear
// error naming the file for each way a file can be wrong. Then whole files
// as tensors (NpyFile): the shape and integer checks of readNpyAs, and
// writeNpy's files read back.
//
//===----------------------------------------------------------------------===//

#include "reference/npy/NpyArray.h"
#include "reference/npy/NpyFile.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using tessel::ref::ElementType;
using tessel::ref::NpyArray;
using tessel::ref::Tensor;
using tessel::ref::TensorSpec;
namespace fs = std::filesystem;

namespace {

/// A version-1 .npy file with `header` (padded as numpy pads it) and `data`.
std::string npyBytes(const std::string &header, const std::string &data,
                     int version = 1) {
  std::string padded = header;
  size_t prefix = version == 1 ? 10 : 12;
  while ((prefix + padded.size() + 1) % 64 != 0)
    padded += ' ';
  padded += '\n';
  std::string bytes = "\x93NUMPY";
  bytes += static_cast<char>(version);
  bytes += '\0';
  size_t length = padded.size();
  for (size_t i = 0; i < (version == 1 ? 2u : 4u); ++i)
    bytes += static_cast<char>((length >> (8 * i)) & 0xff);
  return bytes + padded + data;
}

template <typename T> std::string raw(const std::vector<T> &values) {
  return std::string(reinterpret_cast<const char *>(values.data()),
                     values.size() * sizeof(T));
}

class NpyTest : public ::testing::Test {
protected:
  std::string write(const std::string &name, const std::string &bytes) {
    fs::path path = fs::temp_directory_path() /
                    ("tessel-npy-test-" + std::to_string(::getpid()) + name);
    std::ofstream(path, std::ios::binary) << bytes;
    written.push_back(path);
    return path.string();
  }
  ~NpyTest() override {
    for (const fs::path &path : written)
      fs::remove(path);
  }
  std::vector<fs::path> written;
};

TEST_F(NpyTest, ReadsFloatsInRowMajorOrder) {
  std::string path =
      write("f4.npy", npyBytes("{'descr': '<f4', 'fortran_order': False, "
                               "'shape': (2, 3), }",
                               raw<float>({0.5f, 1, 2, 3, 4, -5.25f})));
  std::string error;
  std::optional<NpyArray> array = NpyArray::open(path, error);
  ASSERT_TRUE(array) << error;
  EXPECT_EQ(array->shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(array->dtype(), "<f4");
  EXPECT_FALSE(array->isInteger());
  EXPECT_EQ(array->at(0), 0.5);
  EXPECT_EQ(array->at(5), -5.25);
}

TEST_F(NpyTest, ReadsEveryIntegerWidthAndVersionTwo) {
  std::string error;
  std::optional<NpyArray> i8 = NpyArray::open(
      write("i8.npy", npyBytes("{'descr': '<i8', 'fortran_order': False, "
                               "'shape': (3,), }",
                               raw<int64_t>({7, -1, 1LL << 40}), 2)),
      error);
  ASSERT_TRUE(i8) << error;
  EXPECT_TRUE(i8->isInteger());
  EXPECT_EQ(i8->at(1), -1);
  EXPECT_EQ(i8->at(2), static_cast<double>(1LL << 40));
  std::optional<NpyArray> u1 = NpyArray::open(
      write("u1.npy", npyBytes("{'descr': '|u1', 'fortran_order': False, "
                               "'shape': (2,), }",
                               std::string("\xff\x01", 2))),
      error);
  ASSERT_TRUE(u1) << error;
  EXPECT_EQ(u1->at(0), 255);
  std::optional<NpyArray> i2 = NpyArray::open(
      write("i2.npy", npyBytes("{'descr': '<i2', 'fortran_order': False, "
                               "'shape': (1, 1), }",
                               raw<int16_t>({-300}))),
      error);
  ASSERT_TRUE(i2) << error;
  EXPECT_EQ(i2->at(0), -300);
}

TEST_F(NpyTest, ReadsHalfFloatsWideUnsignedAndNativeOrder) {
  std::string error;
  std::optional<NpyArray> f2 = NpyArray::open(
      write("f2.npy", npyBytes("{'descr': '<f2', 'fortran_order': False, "
                               "'shape': (2,), }",
                               raw<uint16_t>({0x3c00, 0xc100}))),
      error);
  ASSERT_TRUE(f2) << error;
  EXPECT_FALSE(f2->isInteger());
  EXPECT_EQ(f2->at(0), 1.0);
  EXPECT_EQ(f2->at(1), -2.5);
  std::optional<NpyArray> u2 = NpyArray::open(
      write("u2.npy", npyBytes("{'descr': '<u2', 'fortran_order': False, "
                               "'shape': (1,), }",
                               raw<uint16_t>({65535}))),
      error);
  ASSERT_TRUE(u2) << error;
  EXPECT_TRUE(u2->isInteger());
  EXPECT_EQ(u2->at(0), 65535);
  std::optional<NpyArray> u4 = NpyArray::open(
      write("u4.npy", npyBytes("{'descr': '<u4', 'fortran_order': False, "
                               "'shape': (1,), }",
                               raw<uint32_t>({4000000000u}))),
      error);
  ASSERT_TRUE(u4) << error;
  EXPECT_EQ(u4->at(0), 4000000000.0);
  std::optional<NpyArray> u8 = NpyArray::open(
      write("u8.npy", npyBytes("{'descr': '<u8', 'fortran_order': False, "
                               "'shape': (1,), }",
                               raw<uint64_t>({1ULL << 63}))),
      error);
  ASSERT_TRUE(u8) << error;
  EXPECT_EQ(u8->at(0), 9223372036854775808.0);
  std::optional<NpyArray> native = NpyArray::open(
      write("native.npy", npyBytes("{'descr': '=f8', 'fortran_order': False, "
                                   "'shape': (), }",
                                   raw<double>({0.125}))),
      error);
  ASSERT_TRUE(native) << error;
  EXPECT_EQ(native->dtype(), "<f8");
  EXPECT_TRUE(native->shape().empty());
  EXPECT_EQ(native->numElements(), 1);
  EXPECT_EQ(native->at(0), 0.125);
}

struct BadFile {
  const char *name;
  std::string bytes;
  const char *message;
};

TEST_F(NpyTest, BadFilesAreErrorsThatNameTheFile) {
  const std::string header2x2 =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
  std::vector<BadFile> cases = {
      {"magic.npy", "PK\x03\x04 not an npy file at all", "no \\x93NUMPY magic"},
      {"truncated.npy", npyBytes(header2x2, raw<float>({1, 2, 3})),
       "truncated: the header promises 16 bytes of data, the file holds 12"},
      {"fortran.npy",
       npyBytes("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }",
                raw<float>({1, 2, 3, 4})),
       "Fortran order"},
      {"bigendian.npy",
       npyBytes("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }",
                raw<float>({1})),
       "element type '>f4' is not supported"},
      {"complex.npy",
       npyBytes("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }",
                raw<float>({1, 2})),
       "element type '<c8' is not supported"},
      {"noshape.npy",
       npyBytes("{'descr': '<f4', 'fortran_order': False, }", ""),
       "no readable 'shape'"},
      {"huge.npy",
       npyBytes("{'descr': '<f8', 'fortran_order': False, "
                "'shape': (4294967296, 4294967296), }",
                ""),
       "too large"},
      {"version.npy", std::string("\x93NUMPY\x09\x00\x00\x00", 10),
       "format version 9"},
      {"empty.npy", "", "empty or unreadable"},
  };
  for (const BadFile &bad : cases) {
    std::string path = write(bad.name, bad.bytes);
    std::string error;
    EXPECT_FALSE(NpyArray::open(path, error)) << bad.name;
    EXPECT_NE(error.find(path), std::string::npos) << error;
    EXPECT_NE(error.find(bad.message), std::string::npos)
        << bad.name << ": " << error;
  }
  std::string error;
  EXPECT_FALSE(NpyArray::open("/nonexistent/x.npy", error));
  EXPECT_NE(error.find("/nonexistent/x.npy"), std::string::npos);
}

TEST_F(NpyTest, ReadsATensorOfTheShapeItIsGivenOnly) {
  std::string path =
      write("tensor.npy", npyBytes("{'descr': '<f8', 'fortran_order': False, "
                                   "'shape': (2, 2), }",
                                   raw<double>({1, 0.1, -3, 4})));
  std::string error;
  Tensor tensor;
  ASSERT_TRUE(tessel::ref::readNpyAs(
      path, TensorSpec{{"k", "m"}, {2, 2}, ElementType::F32}, tensor, error))
      << error;
  EXPECT_EQ(tensor.spec.dims, (std::vector<std::string>{"k", "m"}));
  // Rounded to the spec's f32.
  EXPECT_EQ(tensor.data,
            (std::vector<double>{1, static_cast<float>(0.1), -3, 4}));
  EXPECT_FALSE(tessel::ref::readNpyAs(
      path, TensorSpec{{"k"}, {4}, ElementType::F32}, tensor, error));
  EXPECT_EQ(error, path + ": array has shape (2, 2) but the input is [k:4]");
}

TEST_F(NpyTest, AnIntegerInputTakesWholeNumbersInItsRangeOnly) {
  TensorSpec labels{{"batch"}, {3}, ElementType::I32};
  std::string error;
  Tensor tensor;
  std::string whole =
      write("whole.npy", npyBytes("{'descr': '<f4', 'fortran_order': False, "
                                  "'shape': (3,), }",
                                  raw<float>({0, 7, -2})));
  ASSERT_TRUE(tessel::ref::readNpyAs(whole, labels, tensor, error)) << error;
  EXPECT_EQ(tensor.data, (std::vector<double>{0, 7, -2}));
  std::string fraction =
      write("fraction.npy", npyBytes("{'descr': '<f4', 'fortran_order': False, "
                                     "'shape': (3,), }",
                                     raw<float>({0, 1, 2.5f})));
  EXPECT_FALSE(tessel::ref::readNpyAs(fraction, labels, tensor, error));
  EXPECT_EQ(error,
            fraction + ": element 2 is 2.5, which the i32 input cannot hold");
  std::string wide =
      write("wide.npy", npyBytes("{'descr': '<i8', 'fortran_order': False, "
                                 "'shape': (3,), }",
                                 raw<int64_t>({0, 1, (1LL << 32) + 3})));
  EXPECT_FALSE(tessel::ref::readNpyAs(wide, labels, tensor, error));
  EXPECT_EQ(error, wide + ": element 2 is 4294967299, which the i32 input "
                          "cannot hold");
}

// 2^63 is past int64_t by one, though 2^63 - 1 rounds to it as a double
// (a tensor holds doubles, so int64 values from 2^63 - 512 up are refused
// too rather than changed).
TEST_F(NpyTest, AnI64InputTakesNothingFrom2To63) {
  TensorSpec ids{{"batch"}, {2}, ElementType::I64};
  std::string error;
  Tensor tensor;
  std::string inRange = write(
      "in_range.npy", npyBytes("{'descr': '<i8', 'fortran_order': False, "
                               "'shape': (2,), }",
                               raw<int64_t>({-(1LL << 62) * 2, 1LL << 62})));
  ASSERT_TRUE(tessel::ref::readNpyAs(inRange, ids, tensor, error)) << error;
  EXPECT_EQ(tensor.data, (std::vector<double>{-9223372036854775808.0,
                                              4611686018427387904.0}));
  std::string past =
      write("past.npy", npyBytes("{'descr': '<u8', 'fortran_order': False, "
                                 "'shape': (2,), }",
                                 raw<uint64_t>({1, uint64_t(1) << 63})));
  EXPECT_FALSE(tessel::ref::readNpyAs(past, ids, tensor, error));
  EXPECT_EQ(error, past + ": element 1 is 9.2233720368547758e+18, which the "
                          "i64 input cannot hold");
}

TEST_F(NpyTest, WrittenTensorsReadBackWithTheNearestType) {
  struct Case {
    ElementType type;
    const char *dtype;
    std::vector<double> values;
  };
  // bf16 has no NumPy type and is written as float32.
  std::vector<Case> cases = {
      {ElementType::F32, "<f4", {1.5, -2, 0.25, 3}},
      {ElementType::F64, "<f8", {0.1, -2, 1e300, 3}},
      {ElementType::F16, "<f2", {0.5, -2, 65504, 3}},
      {ElementType::BF16, "<f4", {1.5, -2, 256, 3}},
      {ElementType::I32, "<i4", {-7, 0, 2147483647, 3}},
      {ElementType::I64, "<i8", {-7, 0, 1099511627776, 3}},
      {ElementType::I1, "|b1", {1, 0, 0, 1}},
  };
  for (const Case &c : cases) {
    std::string path = write(std::string("written-") +
                                 tessel::ref::elementTypeName(c.type) + ".npy",
                             "");
    Tensor tensor(TensorSpec{{"a", "b"}, {2, 2}, c.type}, c.values);
    std::string error;
    ASSERT_TRUE(tessel::ref::writeNpy(path, tensor, error)) << error;
    std::optional<NpyArray> array = NpyArray::open(path, error);
    ASSERT_TRUE(array) << error;
    EXPECT_EQ(array->dtype(), c.dtype);
    EXPECT_EQ(array->shape(), (std::vector<int64_t>{2, 2}));
    for (int64_t i = 0; i < 4; ++i)
      EXPECT_EQ(array->at(i), tensor.data[i])
          << tessel::ref::elementTypeName(c.type) << " element " << i;
  }
}

} // namespace
