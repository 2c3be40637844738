//===- NpyWriterTest.cpp - Writing .npy files a block of rows at a time ---===//
//
// Writes arrays with NpyWriter, appending rows in several blocks as the
// inference driver does batch after batch, and reads them back with the
// driver's reader: the final row count in the header, the header padded so
// the data start at a multiple of 64 bytes, every value in place, bf16
// widened to float32, and a clear error for a file that cannot be made.
//
//===----------------------------------------------------------------------===//

#include "driver/NpyWriter.h"
#include "reference/npy/NpyArray.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

using tessel::ref::NpyArray;
using tessel::driver::NpyWriter;
namespace fs = std::filesystem;
namespace ref = tessel::ref;

namespace {

class NpyWriterTest : public ::testing::Test {
protected:
  std::string path(const std::string &name) {
    fs::path file = fs::temp_directory_path() /
                    ("tessel-npy-writer-" + std::to_string(::getpid()) + name);
    written.push_back(file);
    return file.string();
  }
  ~NpyWriterTest() override {
    for (const fs::path &file : written)
      fs::remove(file);
  }
  std::vector<fs::path> written;
};

TEST_F(NpyWriterTest, RowsAppendedInBlocksReadBackWhole) {
  std::string file = path("f32.npy");
  std::string error;
  NpyWriter writer;
  ASSERT_TRUE(writer.open(file, ref::ElementType::F32, {2, 3}, error)) << error;
  std::vector<float> values(5 * 6);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = 0.5f * static_cast<float>(i) - 3;
  ASSERT_TRUE(writer.append(values.data(), 2, error)) << error;
  ASSERT_TRUE(writer.append(values.data() + 12, 3, error)) << error;
  EXPECT_EQ(writer.rows(), 5);
  ASSERT_TRUE(writer.close(error)) << error;

  std::optional<NpyArray> array = NpyArray::open(file, error);
  ASSERT_TRUE(array) << error;
  EXPECT_EQ(array->shape(), (std::vector<int64_t>{5, 2, 3}));
  EXPECT_EQ(array->dtype(), "<f4");
  for (int64_t i = 0; i < array->numElements(); ++i)
    EXPECT_EQ(array->at(i), values[i]) << "element " << i;

  // numpy's layout: the data start at a multiple of 64 bytes.
  std::ifstream in(file, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  size_t headerLength = static_cast<unsigned char>(bytes[8]) |
                        static_cast<unsigned char>(bytes[9]) << 8;
  EXPECT_EQ((10 + headerLength) % 64, 0u);
  EXPECT_EQ(bytes.size(), 10 + headerLength + values.size() * sizeof(float));
  EXPECT_EQ(bytes[10 + headerLength - 1], '\n');
}

TEST_F(NpyWriterTest, IntegersAndOneDimension) {
  std::string file = path("i32.npy");
  std::string error;
  NpyWriter writer;
  ASSERT_TRUE(writer.open(file, ref::ElementType::I32, {}, error)) << error;
  std::vector<int32_t> classes = {3, 0, 9, 7};
  ASSERT_TRUE(writer.append(classes.data(), 4, error)) << error;
  ASSERT_TRUE(writer.close(error)) << error;
  std::optional<NpyArray> array = NpyArray::open(file, error);
  ASSERT_TRUE(array) << error;
  EXPECT_EQ(array->shape(), (std::vector<int64_t>{4}));
  EXPECT_EQ(array->dtype(), "<i4");
  for (int64_t i = 0; i < 4; ++i)
    EXPECT_EQ(array->at(i), classes[i]);
}

TEST_F(NpyWriterTest, Bf16IsWrittenAsFloat32) {
  std::string file = path("bf16.npy");
  std::string error;
  NpyWriter writer;
  ASSERT_TRUE(writer.open(file, ref::ElementType::BF16, {2}, error)) << error;
  // bf16 is the top half of a float32: 1.5, -2, 0.25, 3.
  std::vector<uint16_t> bits = {0x3fc0, 0xc000, 0x3e80, 0x4040};
  ASSERT_TRUE(writer.append(bits.data(), 2, error)) << error;
  ASSERT_TRUE(writer.close(error)) << error;
  std::optional<NpyArray> array = NpyArray::open(file, error);
  ASSERT_TRUE(array) << error;
  EXPECT_EQ(array->dtype(), "<f4");
  EXPECT_EQ(array->shape(), (std::vector<int64_t>{2, 2}));
  std::vector<double> expected = {1.5, -2, 0.25, 3};
  for (int64_t i = 0; i < 4; ++i)
    EXPECT_EQ(array->at(i), expected[i]);
}

// A run that fails after it opened its outputs leaves the files of the run
// before it, and no temporary file; one that closes them replaces them.
TEST_F(NpyWriterTest, FileIsReplacedOnlyWhenClosed) {
  std::string file = path("kept.npy");
  std::ofstream(file) << "the earlier output";
  std::string error;
  std::vector<float> row = {1, 2, 3};
  fs::path temporary = fs::path(file).parent_path() /
                       ("." + fs::path(file).filename().string() + ".tmp");
  {
    NpyWriter writer;
    ASSERT_TRUE(writer.open(file, ref::ElementType::F32, {3}, error)) << error;
    ASSERT_TRUE(writer.append(row.data(), 1, error)) << error;
  }
  std::ifstream in(file);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}),
            "the earlier output");
  EXPECT_FALSE(fs::exists(temporary));

  NpyWriter writer;
  ASSERT_TRUE(writer.open(file, ref::ElementType::F32, {3}, error)) << error;
  ASSERT_TRUE(writer.append(row.data(), 1, error)) << error;
  ASSERT_TRUE(writer.close(error)) << error;
  std::optional<NpyArray> array = NpyArray::open(file, error);
  ASSERT_TRUE(array) << error;
  EXPECT_EQ(array->shape(), (std::vector<int64_t>{1, 3}));
}

TEST_F(NpyWriterTest, FileThatCannotBeMadeIsAClearError) {
  std::string error;
  NpyWriter writer;
  EXPECT_FALSE(writer.open("/nonexistent-dir/logits.npy", ref::ElementType::F32,
                           {10}, error));
  EXPECT_NE(error.find("cannot create /nonexistent-dir/logits.npy"),
            std::string::npos)
      << error;
}

} // namespace
