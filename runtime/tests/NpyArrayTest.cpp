//===- NpyArrayTest.cpp - Reading .npy files ------------------------------===//
//
// Writes .npy files byte by byte (as numpy.save lays them out) and checks
// what the reader makes of them: values of every supported type, and a
// clear error naming the file for each way a file can be wrong.
//
//===----------------------------------------------------------------------===//

#include "driver/NpyArray.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using tessel::driver::NpyArray;
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

class NpyArrayTest : public ::testing::Test {
protected:
  std::string write(const std::string &name, const std::string &bytes) {
    fs::path path = fs::temp_directory_path() /
                    ("tessel-npy-test-" + std::to_string(::getpid()) + name);
    std::ofstream(path, std::ios::binary) << bytes;
    written.push_back(path);
    return path.string();
  }
  ~NpyArrayTest() override {
    for (const fs::path &path : written)
      fs::remove(path);
  }
  std::vector<fs::path> written;
};

TEST_F(NpyArrayTest, ReadsFloatsInRowMajorOrder) {
  std::string path = write(
      "f4.npy", npyBytes("{'descr': '<f4', 'fortran_order': False, "
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

TEST_F(NpyArrayTest, ReadsEveryIntegerWidthAndVersionTwo) {
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

struct BadFile {
  const char *name;
  std::string bytes;
  const char *message;
};

TEST_F(NpyArrayTest, BadFilesAreErrorsThatNameTheFile) {
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
      {"noshape.npy", npyBytes("{'descr': '<f4', 'fortran_order': False, }", ""),
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

} // namespace
