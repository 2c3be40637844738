//===- CheckpointTest.cpp - Damaged and foreign checkpoints ---------------===//
//
// Writes a checkpoint with the driver's writer (a sharded checkpoint of one
// shard on one rank), then damages it the ways a crash, a full disk or a
// hand edit would (truncation, a header whose names, dtypes, shapes, dims or
// byte ranges disagree with the program, flipped data bytes, a header that
// is not JSON, a missing shard, an index naming a tensor twice) or reads it
// as another program. Each must be an error that names the file and the
// tensor, never a crash or a silently wrong tensor; a failed write must
// leave the checkpoint before it as it was. Single-file checkpoints (written
// before checkpoints were sharded, and by `tessel import-weights`) must
// still read. Runs under mpirun on one rank (the writer moves blocks over
// MPI_COMM_WORLD); reads of other ranks' blocks need no MPI.
//
//===----------------------------------------------------------------------===//

#include "driver/Checkpoint.h"
#include "driver/Blocks.h"
#include "safetensors/CheckpointDirectory.h"

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

  /// Writes the state as the checkpoint after `step` steps; returns the
  /// path of its one shard file.
  std::string write(int64_t step) {
    std::string error;
    EXPECT_TRUE(writeCheckpoint(dir.string(), step, state(), mesh, 0, error))
        << error;
    return (fs::path(checkpointDirectory(dir.string(), step)) /
            safetensors::shardFileName(1, 1))
        .string();
  }

  /// Writes the state as a single-file checkpoint, as tessel wrote them
  /// before they were sharded; returns its path.
  std::string writeSingleFile(int64_t step) {
    std::vector<safetensors::CheckpointTensor> tensors;
    for (const StateTensor &tensor : state())
      tensors.push_back(
          {tensor.spec->name, tensor.spec->global.spec(), tensor.local});
    std::string error;
    EXPECT_TRUE(
        safetensors::writeCheckpointFile(dir.string(), step, tensors, error))
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

/// The sharded checkpoint a shard file belongs to: its directory.
std::string checkpointOf(const std::string &shard) {
  return fs::path(shard).parent_path().string();
}

std::string indexIn(const std::string &checkpoint) {
  return (fs::path(checkpoint) / safetensors::kIndexFileName).string();
}

/// The index of the sharded checkpoint a shard file belongs to.
std::string indexOf(const std::string &shard) {
  return indexIn(checkpointOf(shard));
}

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
  ASSERT_TRUE(readCheckpoint(checkpointOf(path),
                             {{&weightSpec, w.data()}, {&stepSpec, &s}}, mesh,
                             0, step, error))
      << error;
  EXPECT_EQ(step, 5);
  EXPECT_EQ(w, weights);
  EXPECT_EQ(s, 7);
}

TEST_F(CheckpointTest, TruncatedDataNamesTheTensor) {
  std::string path = write(1);
  std::string bytes = contents(path);
  overwrite(path, bytes.substr(0, bytes.size() - 3));
  EXPECT_ERROR(read(checkpointOf(path)), path,
               "tensor 'step' ends at byte 56 of the data, but the file holds "
               "53 bytes of data (truncated?)");
}

TEST_F(CheckpointTest, TruncatedHeaderIsAnError) {
  std::string path = write(1);
  overwrite(path, contents(path).substr(0, 40));
  EXPECT_ERROR(read(checkpointOf(path)), path,
               "runs past the end of its 40 bytes");
  overwrite(path, "abc");
  EXPECT_ERROR(read(checkpointOf(path)), path, "it has 3 bytes, too few");
  overwrite(path, "");
  EXPECT_ERROR(read(checkpointOf(path)), path, "it has 0 bytes, too few");
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
  EXPECT_ERROR(read(checkpointOf(path)), path,
               "its header is not a JSON object");
}

TEST_F(CheckpointTest, DtypeThatDisagreesNamesTheTensor) {
  std::string path = write(1);
  editHeader(path, [](json &header) { header["w"]["dtype"] = "F16"; });
  EXPECT_ERROR(read(checkpointOf(path)), path,
               "tensor 'w' is F16, but the program has it as F32");
  editHeader(path, [](json &header) { header["w"]["dtype"] = 32; });
  EXPECT_ERROR(read(checkpointOf(path)), path, "tensor 'w' is of no dtype");
}

TEST_F(CheckpointTest, ShapeOrDimsThatDisagreeNameTheTensor) {
  std::string path = write(1);
  editHeader(path, [](json &header) { header["w"]["shape"] = {3, 4}; });
  EXPECT_ERROR(read(checkpointOf(path)), path,
               "tensor 'w' has shape [3, 4], but the program has it as "
               "[pixels:4, classes:3] f32");
  editHeader(path, [](json &header) {
    header["w"]["shape"] = {4, 3};
    header["__metadata__"]["dims.w"] = "classes,pixels";
  });
  EXPECT_ERROR(read(checkpointOf(path)), path,
               "tensor 'w' has dims [classes,pixels]");
  editHeader(path, [](json &header) { header["w"]["shape"] = {4.5, 3}; });
  EXPECT_ERROR(read(checkpointOf(path)), path, "tensor 'w' has no valid shape");
}

TEST_F(CheckpointTest, SizesThatDisagreeNameTheTensor) {
  std::string path = write(1);
  editHeader(path, [](json &header) { header["w"]["data_offsets"] = {0, 40}; });
  EXPECT_ERROR(read(checkpointOf(path)), path,
               "tensor 'w' has data_offsets [0, 40] that do not hold its 48 "
               "bytes");
  // A range that runs backwards must not wrap around to the right length.
  editHeader(path, [](json &header) {
    header["w"]["data_offsets"] = {uint64_t(1) << 63, (uint64_t(1) << 63) + 48};
  });
  EXPECT_ERROR(read(checkpointOf(path)), path,
               "tensor 'w' has no valid shape or data_offsets");
  editHeader(path, [](json &header) {
    header["w"]["data_offsets"] = {-48, 0};
  });
  EXPECT_ERROR(read(checkpointOf(path)), path,
               "tensor 'w' has data_offsets [-48, 0]");
  editHeader(path, [](json &header) {
    header["w"]["data_offsets"] = {1000, 1048};
  });
  EXPECT_ERROR(read(checkpointOf(path)), path,
               "tensor 'w' ends at byte 1048 of the data");
}

TEST_F(CheckpointTest, DamagedDataFailTheChecksum) {
  std::string path = write(1);
  std::string bytes = contents(path);
  bytes[bytes.size() - 20] ^= 0x10;
  overwrite(path, bytes);
  EXPECT_ERROR(read(checkpointOf(path)), path,
               "tensor 'w' fails its CRC-32 check: its data are damaged");
}

TEST_F(CheckpointTest, MetadataThatIsNotTesselsIsAnError) {
  std::string path = writeSingleFile(1);
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
  // The same in a shard, and a shard of another step than its index's.
  std::string shard = write(2);
  editHeader(shard, [](json &header) { header["w"] = 5; });
  EXPECT_ERROR(read(checkpointOf(shard)), shard,
               "tensor 'w' is not described by a JSON object");
  shard = write(2);
  editHeader(shard, [](json &header) { header["__metadata__"]["step"] = "7"; });
  EXPECT_ERROR(read(checkpointOf(shard)), shard,
               "its step '7' is not the step 2 of " + indexOf(shard) +
                   " (a shard of another checkpoint?)");
}

TEST_F(CheckpointTest, RenamedTensorIsAnError) {
  std::string path = write(1);
  std::string index = indexOf(path);
  editHeader(path, [](json &header) {
    header["w2"] = header["w"];
    header.erase("w");
  });
  // The shard and its index disagree: the index's 'w' is not in the shard.
  EXPECT_ERROR(read(checkpointOf(path)), path,
               "it holds tensor 'w2', which " + index + " does not name");
  // Renamed in both: a tensor the program does not have.
  json renamed = json::parse(contents(index));
  renamed["weight_map"]["w2"] = renamed["weight_map"]["w"];
  renamed["weight_map"].erase("w");
  overwrite(index, renamed.dump());
  EXPECT_ERROR(read(checkpointOf(path)), checkpointOf(path),
               "it has tensor 'w2', which the program does not have");
  // The single-file form.
  std::string single = writeSingleFile(1);
  editHeader(single, [](json &header) {
    header["w2"] = header["w"];
    header.erase("w");
  });
  EXPECT_ERROR(read(single), single,
               "it has tensor 'w2', which the program does not have");
}

TEST_F(CheckpointTest, CheckpointOfAnotherModelIsAnError) {
  std::string path = checkpointOf(write(1));
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
  std::string good = checkpointOf(write(2));
  std::string before = contents(indexIn(good));
  // Something that is not a checkpoint where the new one would go makes
  // the write fail after its shards were written (permissions would not
  // stop root); it stays, and so does the checkpoint before.
  std::string inTheWay = checkpointDirectory(dir.string(), 4);
  overwrite(inTheWay, "notes");
  std::string error;
  weights[0] = 42;
  EXPECT_FALSE(writeCheckpoint(dir.string(), 4, state(), mesh, 0, error));
  EXPECT_NE(error.find("cannot write " + inTheWay +
                       ": something that is not a checkpoint is in the way"),
            std::string::npos)
      << error;
  EXPECT_EQ(contents(inTheWay), "notes");
  EXPECT_FALSE(
      fs::exists(safetensors::temporaryCheckpointDirectory(dir.string(), 4)));
  EXPECT_EQ(contents(indexIn(good)), before);
  EXPECT_EQ(latestCheckpoint(dir.string()), good);
  EXPECT_EQ(read(good), "");
  // A directory that cannot be made: the error names it.
  error.clear();
  EXPECT_FALSE(writeCheckpoint((fs::path(inTheWay) / "sub").string(), 5,
                               state(), mesh, 0, error));
  EXPECT_NE(error.find("cannot create " + inTheWay), std::string::npos)
      << error;
  // A checkpoint of the same step is replaced whole.
  fs::remove(inTheWay);
  write(4);
  weights[0] = 43;
  std::string again = checkpointOf(write(4));
  std::vector<float> w(weights.size());
  int64_t s = 0;
  EXPECT_EQ(read(again, {{&weightSpec, w.data()}, {&stepSpec, &s}}), "");
  EXPECT_EQ(w[0], 43);
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
  EXPECT_ERROR(read(checkpointOf(path)), path,
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
  EXPECT_FALSE(fs::exists(checkpointDirectory(dir.string(), 3)));
  EXPECT_FALSE(
      fs::exists(safetensors::temporaryCheckpointDirectory(dir.string(), 3)));
}

// A FIFO (or another special file) named like a newer checkpoint is not a
// checkpoint: --resume takes the newest regular file instead of waiting on
// the FIFO forever.
TEST_F(CheckpointTest, SpecialFilesAreNotCheckpoints) {
  std::string good = checkpointOf(write(2));
  ASSERT_EQ(::mkfifo(checkpointPath(dir.string(), 9).c_str(), 0600), 0);
  fs::create_directories(checkpointPath(dir.string(), 8));
  // Directories named like newer checkpoints without an index, or whose
  // index is a FIFO, are not checkpoints either.
  ASSERT_EQ(::mkfifo(checkpointDirectory(dir.string(), 10).c_str(), 0600), 0);
  fs::create_directories(checkpointDirectory(dir.string(), 11));
  fs::create_directories(checkpointDirectory(dir.string(), 12));
  std::string fifoIndex = (fs::path(checkpointDirectory(dir.string(), 12)) /
                           safetensors::kIndexFileName)
                              .string();
  ASSERT_EQ(::mkfifo(fifoIndex.c_str(), 0600), 0);
  EXPECT_EQ(latestCheckpoint(dir.string()), good);
  EXPECT_ERROR(read(checkpointDirectory(dir.string(), 12)), fifoIndex,
               "cannot read it: it is not a regular file");
  // A single file of a step and a sharded one of a later step: the later.
  std::string single = writeSingleFile(1);
  EXPECT_EQ(latestCheckpoint(dir.string()), good);
  writeSingleFile(3);
  EXPECT_EQ(latestCheckpoint(dir.string()), checkpointPath(dir.string(), 3));
  EXPECT_EQ(read(single), "");
}

// What a forward-only program or `generate` reads: the weights it takes out
// of a training checkpoint holding more (the step count here).
TEST_F(CheckpointTest, ReadBlocksTakesTheTensorsAsked) {
  for (std::string path : {checkpointOf(write(4)), writeSingleFile(4)}) {
    safetensors::CheckpointFile file;
    std::string error;
    ASSERT_TRUE(file.open(path, error)) << error;
    std::vector<float> w(weights.size());
    ASSERT_TRUE(readBlocks(file, {{&weightSpec, w.data()}}, mesh, 0, error))
        << error;
    EXPECT_EQ(w, weights);
  }
}

TEST_F(CheckpointTest, ResolveCheckpointNamesWhatIsWrong) {
  std::string error;
  EXPECT_FALSE(resolveCheckpoint(dir.string(), error));
  EXPECT_NE(error.find("the directory holds no checkpoint"), std::string::npos)
      << error;
  std::string older = checkpointOf(write(3)), newer = checkpointOf(write(12));
  EXPECT_EQ(resolveCheckpoint(dir.string(), error), newer);
  EXPECT_EQ(resolveCheckpoint(older, error), older);
  std::string index = indexIn(older);
  EXPECT_EQ(resolveCheckpoint(index, error), index);
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

namespace {

// A shard that is gone makes the whole checkpoint unreadable on every rank,
// whichever rank would have read it: the error names the shard and a tensor
// it held.
TEST_F(CheckpointTest, MissingShardNamesTheFileAndTensor) {
  std::string shard = write(1);
  fs::remove(shard);
  EXPECT_ERROR(read(checkpointOf(shard)), indexOf(shard),
               "its shard " + shard +
                   ", which holds tensor 'step', is missing");
  // A shard replaced by a FIFO would block its reader.
  ASSERT_EQ(::mkfifo(shard.c_str(), 0600), 0);
  EXPECT_ERROR(read(checkpointOf(shard)), indexOf(shard),
               "which holds tensor 'step', is not a regular file");
}

// JSON lets a key repeat and nlohmann keeps the last value: an index (or a
// shard's header) naming a tensor twice would read one of the two silently.
TEST_F(CheckpointTest, IndexThatNamesATensorTwiceIsAnError) {
  std::string shard = write(1);
  std::string index = indexOf(shard);
  std::string file = safetensors::shardFileName(1, 1);
  overwrite(index, "{\"metadata\": {\"step\": \"1\"}, \"weight_map\": "
                   "{\"w\": \"" +
                       file + "\", \"step\": \"" + file + "\", \"w\": \"" +
                       file + "\"}}");
  EXPECT_ERROR(read(checkpointOf(shard)), index,
               "its weight_map names tensor 'w' twice");
  overwrite(index, "{\"weight_map\": {\"w\": \"../" + file + "\"}}");
  EXPECT_ERROR(read(checkpointOf(shard)), index,
               "gives tensor 'w' the file '../" + file +
                   "', which is not a file of the index's directory");
  overwrite(index, "{\"weight_map\": {\"w\": \"" + file + "\"}}");
  EXPECT_ERROR(read(checkpointOf(shard)), index,
               "its metadata has no step number");
  overwrite(index, "[1, 2]");
  EXPECT_ERROR(read(checkpointOf(shard)), index, "it is not a JSON object");
  overwrite(index, "{\"metadata\": {}}");
  EXPECT_ERROR(read(checkpointOf(shard)), index, "it has no \"weight_map\"");

  // The shard's own header naming 'w' twice (the first entry's range
  // would otherwise be dropped without a word).
  std::string bytes = contents(write(2));
  auto [header, data] = split(bytes);
  std::string text = header.dump();
  std::string entry = "\"w\":" + header["w"].dump();
  text.insert(1, entry + ",");
  std::string twice(8, '\0');
  for (int i = 0; i < 8; ++i)
    twice[i] = static_cast<char>(uint64_t(text.size()) >> (8 * i));
  shard = (fs::path(checkpointDirectory(dir.string(), 2)) /
           safetensors::shardFileName(1, 1))
              .string();
  overwrite(shard, twice + text + data);
  EXPECT_ERROR(read(checkpointOf(shard)), shard,
               "its header names tensor 'w' twice");
}

/// The global tensor of `spec` whose element i is i (as f32).
std::vector<float> counting(const ValueSpec &spec) {
  std::vector<float> values(static_cast<size_t>(spec.global.numElements()));
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<float>(i);
  return values;
}

ValueSpec split(const layout::Mesh &mesh, const std::string &name,
                std::vector<std::string> dims, std::vector<int64_t> shape,
                std::vector<layout::AxisList> axes) {
  layout::TensorLayout tensorLayout{dims, shape, axes};
  TensorType global{dims, shape, ref::ElementType::F32};
  TensorType local{dims, layout::localShape(mesh, tensorLayout),
                   ref::ElementType::F32};
  return {name, global, local, axes};
}

// Two shards of a 4-rank job, read by each rank of it (and of a 2-rank
// one): the blocks are those of the whole tensors, and a rank reads and
// checks only the CRC chunks of its own block, so a damaged byte in rank
// 3's rows is an error for rank 3 (naming the chunk), not for the others.
TEST_F(CheckpointTest, EachRankReadsItsBlocksOfTheShards) {
  layout::Mesh four{{"data"}, {4}};
  // 4 MiB split by rows (a 1 MiB block each, one CRC chunk), and a tensor
  // split by columns that does not divide (padded blocks).
  ValueSpec rows = split(four, "rows", {"r", "c"}, {4, 262144}, {{"data"}, {}});
  ValueSpec cols = split(four, "cols", {"r", "c"}, {300, 1001}, {{}, {"data"}});
  std::vector<float> rowValues = counting(rows), colValues = counting(cols);
  std::string error;
  ASSERT_TRUE(safetensors::startCheckpointDirectory(dir.string(), 6, error))
      << error;
  std::string temporary =
      safetensors::temporaryCheckpointDirectory(dir.string(), 6);
  std::string first = safetensors::shardFileName(1, 2),
              second = safetensors::shardFileName(2, 2);
  ASSERT_TRUE(safetensors::writeCheckpointTensors(
      (fs::path(temporary) / first).string(), 6,
      {{"rows", rows.global.spec(), rowValues.data()}}, error))
      << error;
  ASSERT_TRUE(safetensors::writeCheckpointTensors(
      (fs::path(temporary) / second).string(), 6,
      {{"cols", cols.global.spec(), colValues.data()}}, error))
      << error;
  ASSERT_TRUE(safetensors::publishCheckpointDirectory(
      dir.string(), 6, {{"rows", first}, {"cols", second}},
      4 * (rowValues.size() + colValues.size()), error))
      << error;
  std::string path = checkpointDirectory(dir.string(), 6);

  auto readAs = [&](const layout::Mesh &mesh, const ValueSpec &spec,
                    int64_t rank, std::vector<float> &block) {
    block.assign(static_cast<size_t>(spec.local.numElements()), -1);
    safetensors::CheckpointFile file;
    std::string why;
    bool ok = file.open(path, why) &&
              readBlocks(file, {{&spec, block.data()}}, mesh, rank, why);
    return ok ? std::string() : why;
  };
  for (const layout::Mesh &mesh : {four, layout::Mesh{{"data"}, {2}}}) {
    ValueSpec rowSpec =
        split(mesh, "rows", {"r", "c"}, {4, 262144}, {{"data"}, {}});
    ValueSpec colSpec =
        split(mesh, "cols", {"r", "c"}, {300, 1001}, {{}, {"data"}});
    for (int64_t rank = 0; rank < mesh.numRanks(); ++rank) {
      for (auto [spec, values] :
           {std::pair{&rowSpec, &rowValues}, std::pair{&colSpec, &colValues}}) {
        std::vector<float> block,
            expected(static_cast<size_t>(spec->local.numElements()));
        ASSERT_EQ(readAs(mesh, *spec, rank, block), "");
        extractBlock(values->data(), spec->global.shape,
                     layout::shardOffset(mesh, spec->tensorLayout(), rank),
                     spec->local.shape, 4, expected.data());
        EXPECT_EQ(block, expected) << spec->name << " on rank " << rank;
      }
    }
  }
  // A flipped byte in the last row (rank 3's block, the tensor's fourth
  // chunk).
  std::string shard = (fs::path(path) / first).string();
  std::string bytes = contents(shard);
  bytes[bytes.size() - 100] ^= 0x01;
  overwrite(shard, bytes);
  std::vector<float> block;
  for (int64_t rank = 0; rank < 3; ++rank)
    EXPECT_EQ(readAs(four, rows, rank, block), "") << "rank " << rank;
  EXPECT_ERROR(readAs(four, rows, 3, block), shard,
               "tensor 'rows' fails its CRC-32 check (bytes 3145728 to "
               "4194304): its data are damaged");
  // Reading the whole tensor (tessel-eval, export-weights) checks all of it.
  safetensors::CheckpointFile file;
  std::vector<unsigned char> whole;
  ASSERT_TRUE(file.open(path, error)) << error;
  EXPECT_FALSE(file.read("rows", rows.global.spec(), whole, error));
  EXPECT_ERROR(error, shard, "tensor 'rows' fails its CRC-32 check");
}

// A pipelined program's tensors are held by the ranks of their stages
// (StateTensor::holders): each is assembled and written by one of them,
// the largest first to the holder with the fewest bytes so far, and a
// rank reads the blocks of the tensors it holds only.
TEST_F(CheckpointTest, TensorsHeldBySomeRanksAreWrittenAndReadByThem) {
  ValueSpec big = replicated("big", {"r"}, {1000}, ref::ElementType::F32);
  ValueSpec middle = replicated("middle", {"r"}, {600}, ref::ElementType::F32);
  ValueSpec small = replicated("small", {"r"}, {10}, ref::ElementType::F32);
  ValueSpec shared = replicated("shared", {"r"}, {500}, ref::ElementType::F32);
  std::vector<StateTensor> tensors = {{&big, nullptr, {0, 1}},
                                      {&middle, nullptr, {0, 1}},
                                      {&small, nullptr, {2, 3}},
                                      {&shared, nullptr, {}}};
  EXPECT_TRUE(tensors[0].heldBy(1));
  EXPECT_FALSE(tensors[0].heldBy(2));
  EXPECT_TRUE(tensors[3].heldBy(3));
  // big to rank 0, middle to rank 1 (0 has more), shared to rank 2 (the
  // first holder with no bytes), small to rank 3.
  EXPECT_EQ(checkpointOwners(tensors, 4), (std::vector<int64_t>{0, 1, 3, 2}));

  // Written on one rank, read back by a rank that holds only `w`: the step
  // count it does not hold is left alone, and needs no buffer.
  write(3);
  std::vector<float> w(weights.size(), -1);
  std::string error;
  int64_t step = -1;
  ASSERT_TRUE(
      readCheckpoint(checkpointDirectory(dir.string(), 3),
                     {{&weightSpec, w.data(), {0}}, {&stepSpec, nullptr, {1}}},
                     mesh, 0, step, error))
      << error;
  EXPECT_EQ(w, weights);
  EXPECT_EQ(step, 3);
}

} // namespace
