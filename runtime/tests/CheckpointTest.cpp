//===- CheckpointTest.cpp - Damaged and foreign checkpoints ---------------===//
//
// Writes a checkpoint with the driver's writer, then damages it the ways a
// crash, a full disk or a hand edit would (truncation, a header whose names,
// dtypes, shapes, dims or byte ranges disagree with the program, flipped
// data bytes, a header that is not JSON) or reads it as another program.
// Each must be an error that names the file and the tensor, never a crash
// or a silently wrong tensor; a failed write must leave the checkpoint
// before it as it was. Runs under mpirun on one rank (the writer gathers
// over MPI_COMM_WORLD).
//
//===----------------------------------------------------------------------===//

#include "driver/Checkpoint.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace tessel;
using namespace tessel::driver;
using nlohmann::json;

namespace {

/// A replicated tensor of the one-rank mesh.
ValueSpec replicated(const std::string &name, std::vector<std::string> dims,
                     std::vector<int64_t> shape, ref::ElementType type) {
  TensorType tensorType{dims, shape, type};
  return {name, tensorType, tensorType,
          std::vector<layout::AxisList>(dims.size())};
}

/// The state of a small program, its values, and a directory for its files.
class CheckpointTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("tessel-checkpoint-test-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (size_t i = 0; i < weights.size(); ++i)
      weights[i] = 0.5f * static_cast<float>(i) - 1;
  }
  void TearDown() override { fs::remove_all(dir); }

  std::vector<StateTensor> state() {
    return {{&weightSpec, weights.data()}, {&stepSpec, &stepCount}};
  }

  /// Writes the state as the checkpoint after `step` steps; returns its path.
  std::string write(int64_t step) {
    std::string error;
    EXPECT_TRUE(writeCheckpoint(dir.string(), step, state(), mesh, 0, error))
        << error;
    return checkpointPath(dir.string(), step);
  }

  /// Reads `path` into fresh buffers; returns the error, empty on success.
  std::string read(const std::string &path, std::vector<StateTensor> tensors) {
    std::string error;
    int64_t step = -1;
    bool ok = readCheckpoint(path, tensors, mesh, 0, step, error);
    EXPECT_EQ(ok, error.empty()) << error;
    return error;
  }
  std::string read(const std::string &path) {
    std::vector<float> w(weights.size());
    int64_t s = 0;
    return read(path, {{&weightSpec, w.data()}, {&stepSpec, &s}});
  }

  layout::Mesh mesh{{"data"}, {1}};
  ValueSpec weightSpec =
      replicated("w", {"pixels", "classes"}, {4, 3}, ref::ElementType::F32);
  ValueSpec stepSpec = replicated("step", {}, {}, ref::ElementType::I64);
  std::vector<float> weights = std::vector<float>(12);
  int64_t stepCount = 7;
  fs::path dir;
};

std::string contents(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), {}};
}

void overwrite(const std::string &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

/// Splits a checkpoint into its JSON header and its data.
std::pair<json, std::string> split(const std::string &bytes) {
  uint64_t length = 0;
  for (int i = 7; i >= 0; --i)
    length = length << 8 | static_cast<unsigned char>(bytes[i]);
  return {json::parse(bytes.substr(8, length)), bytes.substr(8 + length)};
}

/// Puts a checkpoint back together from a header and data.
std::string join(const json &header, const std::string &data) {
  std::string text = header.dump(), bytes(8, '\0');
  for (int i = 0; i < 8; ++i)
    bytes[i] = static_cast<char>(uint64_t(text.size()) >> (8 * i));
  return bytes + text + data;
}

/// Rewrites the header of the checkpoint at `path` with `edit`.
template <typename Edit> void editHeader(const std::string &path, Edit edit) {
  auto [header, data] = split(contents(path));
  edit(header);
  overwrite(path, join(header, data));
}

#define EXPECT_ERROR(error, path, text)                                        \
  do {                                                                         \
    std::string message = (error);                                             \
    EXPECT_NE(message.find("checkpoint " + (path) + ": "), std::string::npos)  \
        << message;                                                            \
    EXPECT_NE(message.find(text), std::string::npos) << message;               \
  } while (false)

TEST_F(CheckpointTest, WhatIsWrittenReadsBack) {
  std::string path = write(5);
  std::vector<float> w(weights.size());
  int64_t s = 0, step = 0;
  std::string error;
  ASSERT_TRUE(readCheckpoint(path, {{&weightSpec, w.data()}, {&stepSpec, &s}},
                             mesh, 0, step, error))
      << error;
  EXPECT_EQ(step, 5);
  EXPECT_EQ(w, weights);
  EXPECT_EQ(s, 7);
}

TEST_F(CheckpointTest, TruncatedDataNamesTheTensor) {
  std::string path = write(1);
  std::string bytes = contents(path);
  overwrite(path, bytes.substr(0, bytes.size() - 3));
  EXPECT_ERROR(read(path), path,
               "tensor 'step' ends at byte 56 of the data, but the file holds "
               "53 bytes of data (truncated?)");
}

TEST_F(CheckpointTest, TruncatedHeaderIsAnError) {
  std::string path = write(1);
  overwrite(path, contents(path).substr(0, 40));
  EXPECT_ERROR(read(path), path, "runs past the end of its 40 bytes");
  overwrite(path, "abc");
  EXPECT_ERROR(read(path), path, "it has 3 bytes, too few");
  overwrite(path, "");
  EXPECT_ERROR(read(path), path, "it has 0 bytes, too few");
}

TEST_F(CheckpointTest, MissingFileIsAnError) {
  std::string path = (dir / "step-00000009.safetensors").string();
  EXPECT_ERROR(read(path), path, "cannot read it");
}

// Opening a FIFO would wait for a writer forever (this test would time
// out); a directory has no bytes to read.
TEST_F(CheckpointTest, SpecialFileIsAnError) {
  std::string fifo = (dir / "step-00000009.safetensors").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_ERROR(read(fifo), fifo, "cannot read it: it is not a regular file");
  EXPECT_ERROR(read(dir.string()), dir.string(),
               "cannot read it: it is not a regular file");
}

TEST_F(CheckpointTest, HeaderThatIsNotJsonIsAnError) {
  std::string path = write(1);
  std::string bytes = contents(path);
  bytes[8] = '[';
  bytes[9] = '}';
  overwrite(path, bytes);
  EXPECT_ERROR(read(path), path, "its header is not a JSON object");
}

TEST_F(CheckpointTest, DtypeThatDisagreesNamesTheTensor) {
  std::string path = write(1);
  editHeader(path, [](json &header) { header["w"]["dtype"] = "F16"; });
  EXPECT_ERROR(read(path), path,
               "tensor 'w' is F16, but the program has it as F32");
  editHeader(path, [](json &header) { header["w"]["dtype"] = 32; });
  EXPECT_ERROR(read(path), path, "tensor 'w' is of no dtype");
}

TEST_F(CheckpointTest, ShapeOrDimsThatDisagreeNameTheTensor) {
  std::string path = write(1);
  editHeader(path, [](json &header) { header["w"]["shape"] = {3, 4}; });
  EXPECT_ERROR(read(path), path,
               "tensor 'w' has shape [3, 4], but the program has it as "
               "[pixels:4, classes:3] f32");
  editHeader(path, [](json &header) {
    header["w"]["shape"] = {4, 3};
    header["__metadata__"]["dims.w"] = "classes,pixels";
  });
  EXPECT_ERROR(read(path), path, "tensor 'w' has dims [classes,pixels]");
  editHeader(path, [](json &header) { header["w"]["shape"] = {4.5, 3}; });
  EXPECT_ERROR(read(path), path, "tensor 'w' has no valid shape");
}

TEST_F(CheckpointTest, SizesThatDisagreeNameTheTensor) {
  std::string path = write(1);
  editHeader(path, [](json &header) { header["w"]["data_offsets"] = {0, 40}; });
  EXPECT_ERROR(read(path), path,
               "tensor 'w' has data_offsets [0, 40] that do not hold its 48 "
               "bytes");
  // A range that runs backwards must not wrap around to the right length.
  editHeader(path, [](json &header) {
    header["w"]["data_offsets"] = {uint64_t(1) << 63, (uint64_t(1) << 63) + 48};
  });
  EXPECT_ERROR(read(path), path,
               "tensor 'w' has no valid shape or data_offsets");
  editHeader(path, [](json &header) {
    header["w"]["data_offsets"] = {-48, 0};
  });
  EXPECT_ERROR(read(path), path, "tensor 'w' has data_offsets [-48, 0]");
  editHeader(path, [](json &header) {
    header["w"]["data_offsets"] = {1000, 1048};
  });
  EXPECT_ERROR(read(path), path, "tensor 'w' ends at byte 1048 of the data");
}

TEST_F(CheckpointTest, DamagedDataFailTheChecksum) {
  std::string path = write(1);
  std::string bytes = contents(path);
  bytes[bytes.size() - 20] ^= 0x10;
  overwrite(path, bytes);
  EXPECT_ERROR(read(path), path,
               "tensor 'w' fails its CRC-32 check: its data are damaged");
}

TEST_F(CheckpointTest, MetadataThatIsNotTesselsIsAnError) {
  std::string path = write(1);
  editHeader(path, [](json &header) { header["__metadata__"]["step"] = 3; });
  EXPECT_ERROR(read(path), path, "its __metadata__ has no step number");
  editHeader(path, [](json &header) { header["__metadata__"]["step"] = "-1"; });
  EXPECT_ERROR(read(path), path, "its __metadata__ has no step number");
  editHeader(path, [](json &header) { header["__metadata__"] = "x"; });
  EXPECT_ERROR(read(path), path, "its header has no __metadata__ object");
  editHeader(path, [](json &header) {
    header["__metadata__"] = {{"step", "1"}};
    header["w"] = 5;
  });
  EXPECT_ERROR(read(path), path,
               "tensor 'w' is not described by a JSON object");
}

TEST_F(CheckpointTest, RenamedTensorIsAnError) {
  std::string path = write(1);
  editHeader(path, [](json &header) {
    header["w2"] = header["w"];
    header.erase("w");
  });
  EXPECT_ERROR(read(path), path,
               "it has tensor 'w2', which the program does not have");
}

TEST_F(CheckpointTest, CheckpointOfAnotherModelIsAnError) {
  std::string path = write(1);
  // Another model: the same step counter, but a parameter 'v' instead of
  // 'w'.
  ValueSpec other = replicated("v", {"pixels"}, {4}, ref::ElementType::F32);
  std::vector<float> v(4);
  int64_t s = 0;
  EXPECT_ERROR(read(path, {{&other, v.data()}, {&stepSpec, &s}}), path,
               "it has tensor 'w', which the program does not have (a "
               "different model or optimizer?)");
  // A model with more state than the checkpoint holds.
  std::vector<float> w(weights.size());
  EXPECT_ERROR(
      read(path,
           {{&weightSpec, w.data()}, {&stepSpec, &s}, {&other, v.data()}}),
      path, "it has no tensor 'v', which the program needs");
}

TEST_F(CheckpointTest, FailedWriteLeavesTheLastCheckpoint) {
  std::string good = write(2);
  std::string before = contents(good);
  // A directory where the writer's temporary file would go makes the write
  // fail (permissions would not stop root).
  fs::create_directories(dir / ".step-00000004.safetensors.tmp");
  std::string error;
  weights[0] = 42;
  EXPECT_FALSE(writeCheckpoint(dir.string(), 4, state(), mesh, 0, error));
  EXPECT_NE(error.find("cannot create"), std::string::npos) << error;
  EXPECT_NE(error.find(".step-00000004.safetensors.tmp"), std::string::npos)
      << error;
  EXPECT_FALSE(fs::exists(checkpointPath(dir.string(), 4)));
  EXPECT_EQ(contents(good), before);
  EXPECT_EQ(latestCheckpoint(dir.string()), good);
  EXPECT_EQ(read(good), "");
}

} // namespace

namespace {

// Two tensors reading the same bytes are refused even when the file has no
// checksums that would catch the second one's data.
TEST_F(CheckpointTest, OverlappingTensorsAreAnError) {
  std::string path = write(1);
  editHeader(path, [](json &header) {
    header["__metadata__"] = {{"step", "1"}};
    header["w"]["data_offsets"] = {0, 48};
    header["step"]["data_offsets"] = {40, 48};
  });
  EXPECT_ERROR(read(path), path,
               "tensors 'w' (bytes 0 to 48) and 'step' (bytes 40 to 48) "
               "overlap in its data");
}

// A tensor named like the format's metadata, or twice, would vanish from
// the file; the writer refuses it and writes nothing.
TEST_F(CheckpointTest, ReservedOrRepeatedNamesAreNotWritten) {
  ValueSpec reserved =
      replicated("__metadata__", {"pixels"}, {4}, ref::ElementType::F32);
  std::vector<float> v(4);
  std::string error;
  EXPECT_FALSE(writeCheckpoint(dir.string(), 3,
                               {{&reserved, v.data()}, {&stepSpec, &stepCount}},
                               mesh, 0, error));
  EXPECT_NE(error.find("a tensor cannot be named '__metadata__'"),
            std::string::npos)
      << error;
  error.clear();
  EXPECT_FALSE(writeCheckpoint(
      dir.string(), 3,
      {{&weightSpec, weights.data()}, {&weightSpec, weights.data()}}, mesh, 0,
      error));
  EXPECT_NE(error.find("two tensors are named 'w'"), std::string::npos)
      << error;
  EXPECT_FALSE(fs::exists(checkpointPath(dir.string(), 3)));
}

// A FIFO (or another special file) named like a newer checkpoint is not a
// checkpoint: --resume takes the newest regular file instead of waiting on
// the FIFO forever.
TEST_F(CheckpointTest, SpecialFilesAreNotCheckpoints) {
  std::string good = write(2);
  ASSERT_EQ(::mkfifo(checkpointPath(dir.string(), 9).c_str(), 0600), 0);
  fs::create_directories(checkpointPath(dir.string(), 8));
  EXPECT_EQ(latestCheckpoint(dir.string()), good);
}

// What a forward-only program or `generate` reads: the weights it takes out
// of a training checkpoint holding more (the step count here).
TEST_F(CheckpointTest, ReadBlocksTakesTheTensorsAsked) {
  std::string path = write(4);
  safetensors::CheckpointFile file;
  std::string error;
  ASSERT_TRUE(file.open(path, error)) << error;
  std::vector<float> w(weights.size());
  ASSERT_TRUE(readBlocks(file, {{&weightSpec, w.data()}}, mesh, 0, error))
      << error;
  EXPECT_EQ(w, weights);
}

TEST_F(CheckpointTest, ResolveCheckpointNamesWhatIsWrong) {
  std::string error;
  EXPECT_FALSE(resolveCheckpoint(dir.string(), error));
  EXPECT_NE(error.find("the directory holds no checkpoint"), std::string::npos)
      << error;
  std::string older = write(3), newer = write(12);
  EXPECT_EQ(resolveCheckpoint(dir.string(), error), newer);
  EXPECT_EQ(resolveCheckpoint(older, error), older);
  error.clear();
  EXPECT_FALSE(resolveCheckpoint((dir / "none").string(), error));
  EXPECT_NE(error.find("no such file or directory"), std::string::npos)
      << error;
  // A name the system refuses is an error, not an uncaught
  // std::filesystem::filesystem_error (an abort under mpirun).
  std::string tooLong = (dir / std::string(5000, 'a')).string();
  error.clear();
  EXPECT_FALSE(resolveCheckpoint(tooLong, error));
  EXPECT_NE(error.find("File name too long"), std::string::npos) << error;
}

} // namespace
