//===- SafetensorsTest.cpp - The safetensors reader and writer ------------===//
//
// The format's own checks, below tessel's checkpoints (CheckpointTest): a
// file as PyTorch writes it (no tessel metadata) reads back, every dtype
// decodes to its values and encodes back to its bytes, and headers that lie
// about sizes (overflowing shapes, ranges past the data, a __metadata__ that
// is not an object) are errors, never a crash.
//
//===----------------------------------------------------------------------===//

#include "safetensors/Safetensors.h"

#include <gtest/gtest.h>

#include <cstring>
#include <sstream>

using namespace tessel::safetensors;

namespace {

/// A safetensors file: the length, `header`, then `data`.
std::string fileOf(const std::string &header, const std::string &data = "") {
  std::string bytes(8, '\0');
  for (int i = 0; i < 8; ++i)
    bytes[i] = static_cast<char>(uint64_t(header.size()) >> (8 * i));
  return bytes + header + data;
}

/// Opens `bytes` with a reader; returns the error, empty on success.
std::string open(Reader &reader, std::istringstream &stream,
                 const std::string &bytes) {
  stream.str(bytes);
  std::string why;
  reader.open(stream, bytes.size(), why);
  return why;
}

std::vector<unsigned char> bytesOf(const void *data, size_t size) {
  const auto *at = static_cast<const unsigned char *>(data);
  return {at, at + size};
}

} // namespace

TEST(SafetensorsTest, APyTorchFileReadsBack) {
  float values[] = {1.5f, -2.0f, 0.25f, 8.0f, 0.0f, -0.5f};
  std::string data(reinterpret_cast<const char *>(values), sizeof(values));
  std::string bytes = fileOf(
      R"({"__metadata__":{"format":"pt"},"fc.weight":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]}})",
      data);
  Reader reader;
  std::istringstream stream;
  ASSERT_EQ(open(reader, stream, bytes), "");
  EXPECT_EQ(reader.names(), std::vector<std::string>{"fc.weight"});
  EXPECT_EQ(reader.metadataString("format"), "pt");
  TensorEntry entry;
  std::string why;
  ASSERT_TRUE(reader.entry("fc.weight", entry, why)) << why;
  EXPECT_EQ(entry.shape, (std::vector<int64_t>{2, 3}));
  ASSERT_TRUE(reader.checkExtent(entry, why)) << why;
  std::vector<unsigned char> read;
  ASSERT_TRUE(reader.read(entry, read, why)) << why;
  std::vector<double> decoded;
  ASSERT_TRUE(decode("F32", read, decoded));
  EXPECT_EQ(decoded, (std::vector<double>{1.5, -2, 0.25, 8, 0, -0.5}));
}

TEST(SafetensorsTest, EveryDtypeDecodesAndEncodesBack) {
  // 1.5, -2 and 0.25 in f16 (0x3e00, 0xc000, 0x3400) and bf16 (0x3fc0,
  // 0xc000, 0x3e80), little-endian.
  const uint16_t f16[] = {0x3e00, 0xc000, 0x3400};
  const uint16_t bf16[] = {0x3fc0, 0xc000, 0x3e80};
  const double f64[] = {1.5, -2, 0.25};
  const int64_t i64[] = {3, -7, int64_t(1) << 40};
  const int32_t i32[] = {3, -7, 100000};
  const uint8_t flags[] = {1, 0, 1};
  struct Case {
    const char *dtype;
    std::vector<unsigned char> bytes;
    std::vector<double> values;
  } cases[] = {
      {"F16", bytesOf(f16, sizeof(f16)), {1.5, -2, 0.25}},
      {"BF16", bytesOf(bf16, sizeof(bf16)), {1.5, -2, 0.25}},
      {"F64", bytesOf(f64, sizeof(f64)), {1.5, -2, 0.25}},
      {"I64", bytesOf(i64, sizeof(i64)), {3, -7, 1099511627776.0}},
      {"I32", bytesOf(i32, sizeof(i32)), {3, -7, 100000}},
      {"BOOL", bytesOf(flags, sizeof(flags)), {1, 0, 1}},
  };
  for (const Case &c : cases) {
    std::vector<double> values;
    ASSERT_TRUE(decode(c.dtype, c.bytes, values)) << c.dtype;
    EXPECT_EQ(values, c.values) << c.dtype;
    std::vector<unsigned char> bytes;
    ASSERT_TRUE(encode(c.dtype, values, bytes)) << c.dtype;
    EXPECT_EQ(bytes, c.bytes) << c.dtype;
  }
  std::vector<double> values;
  EXPECT_FALSE(decode("F8_E4M3", {0x38}, values));
}

TEST(SafetensorsTest, HeadersThatLieAreErrors) {
  Reader reader;
  std::istringstream stream;
  EXPECT_NE(open(reader, stream, fileOf(R"({"__metadata__":[1]})"))
                .find("its header has no __metadata__ object"),
            std::string::npos);
  EXPECT_EQ(open(reader, stream, fileOf("[1, 2]")),
            "its header is not a JSON object");
  // A length within a large file but past the format's limit is refused
  // before anything is read (here the stream holds 8 bytes of the 1 TiB).
  std::string length(8, '\0');
  length[4] = 1; // 2^32 bytes
  stream.str(length);
  std::string why;
  EXPECT_FALSE(reader.open(stream, uint64_t(1) << 40, why));
  EXPECT_EQ(why, "its header length 4294967296 is more than the 100000000 "
                 "bytes safetensors allows (not a safetensors file?)");

  // A shape whose byte count overflows 64 bits, and a range past the data.
  ASSERT_EQ(
      open(
          reader, stream,
          fileOf(
              R"({"a":{"dtype":"F64","shape":[4294967296,4294967296],"data_offsets":[0,0]},)"
              R"("b":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
              R"("c":{"dtype":"F32","shape":[2],"data_offsets":[0,"8"]},)"
              R"("d":{"dtype":"Q7","shape":[2],"data_offsets":[8,16]}})",
              "1234")),
      "");
  TensorEntry entry;
  ASSERT_TRUE(reader.entry("a", entry, why)) << why;
  EXPECT_FALSE(reader.checkExtent(entry, why));
  EXPECT_EQ(why, "tensor 'a' has shape [4294967296, 4294967296], which no "
                 "file holds");
  ASSERT_TRUE(reader.entry("b", entry, why)) << why;
  EXPECT_FALSE(reader.checkExtent(entry, why));
  EXPECT_EQ(why, "tensor 'b' ends at byte 8 of the data, but the file holds "
                 "4 bytes of data (truncated?)");
  EXPECT_FALSE(reader.entry("c", entry, why));
  EXPECT_EQ(why, "tensor 'c' has no valid shape or data_offsets");
  ASSERT_TRUE(reader.entry("d", entry, why)) << why;
  EXPECT_FALSE(reader.checkExtent(entry, why));
  EXPECT_EQ(why, "tensor 'd' has dtype 'Q7', which safetensors does not "
                 "define");
  EXPECT_FALSE(reader.entry("e", entry, why));
  EXPECT_EQ(why, "it has no tensor 'e'");
}
