//===- DriverTest.cpp - Training jobs of the hand-compiled classifier -----===//
//
// Starts the LinearClassifier program (linked with tessel_driver) under
// mpirun, as a user would, and checks what the jobs print and write: the
// loss going down, one and two ranks agreeing, the mesh/rank mismatch, and a
// checkpoint from two ranks resuming on one. The tests that train need
// Fashion-MNIST and are skipped, saying so, when it is not installed.
//
//===----------------------------------------------------------------------===//

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <regex>
#include <string>
#include <sys/wait.h>
#include <utility>
#include <vector>
#include <zlib.h>

namespace fs = std::filesystem;

namespace {

const char *kDataDir = "/usr/share/datasets/fashion-mnist";

struct Job {
  int status;
  std::string output;
};

/// Runs `program` under mpirun with `ranks` ranks; stdout and stderr
/// together.
Job runJob(int ranks, const char *program, const std::string &arguments) {
  std::string command = std::string(TESSEL_MPIEXEC) + " -n " +
                        std::to_string(ranks) +
                        " --oversubscribe --allow-run-as-root --bind-to none " +
                        program + " " + arguments + " 2>&1";
  Job job{-1, ""};
  std::FILE *pipe = ::popen(command.c_str(), "r");
  if (!pipe)
    return job;
  char chunk[4096];
  size_t read;
  while ((read = std::fread(chunk, 1, sizeof chunk, pipe)) > 0)
    job.output.append(chunk, read);
  int status = ::pclose(pipe);
  job.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return job;
}

/// Whether `job` printed `text`. The message names the text and quotes all
/// the job printed, so that a failing EXPECT_TRUE (the text is missing) or
/// EXPECT_FALSE (the text is there) shows what the job said instead.
::testing::AssertionResult printed(const Job &job, const std::string &text) {
  bool found = job.output.find(text) != std::string::npos;
  return (found ? ::testing::AssertionSuccess() : ::testing::AssertionFailure())
         << (found ? "printed '" : "did not print '") << text
         << "'; all it printed:\n"
         << job.output;
}

/// A fresh directory for one test's files.
fs::path scratch(const std::string &name) {
  fs::path dir = fs::path(TESSEL_TEST_SCRATCH) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

/// The losses of a metrics file, by step.
std::map<int64_t, double> lossesOf(const fs::path &metrics) {
  std::map<int64_t, double> losses;
  std::ifstream file(metrics);
  std::string line;
  while (std::getline(file, line)) {
    nlohmann::json entry = nlohmann::json::parse(line);
    // The run's summary (peak memory, time) and the evaluations are lines
    // without a step.
    if (!entry.contains("step")) {
      EXPECT_TRUE(entry.contains("peak_rss_mib") || entry.contains("split"))
          << line;
      continue;
    }
    for (const char *key : {"step", "loss", "samples_per_s", "step_ms", "lr"})
      EXPECT_TRUE(entry.contains(key)) << key << " missing in " << line;
    losses[entry["step"].get<int64_t>()] = entry["loss"].get<double>();
  }
  return losses;
}

/// The progress lines a job printed ("step 5/10  loss 1.2345"), without
/// their timings.
std::vector<std::string> progressOf(const std::string &output) {
  std::vector<std::string> lines;
  std::regex progress(R"(step \d+/\d+  loss [0-9.]+)");
  for (auto it = std::sregex_iterator(output.begin(), output.end(), progress);
       it != std::sregex_iterator(); ++it)
    lines.push_back(it->str());
  return lines;
}

bool haveData() {
  return fs::exists(fs::path(kDataDir) / "train-images-idx3-ubyte.gz") ||
         fs::exists(fs::path(kDataDir) / "train-images-idx3-ubyte");
}

#define REQUIRE_DATA()                                                         \
  if (!haveData())                                                             \
  GTEST_SKIP() << "Fashion-MNIST is not installed in " << kDataDir             \
               << " (Debian package dataset-fashion-mnist): skipped"

TEST(Driver, HelpListsTheOptions) {
  Job job = runJob(1, TESSEL_LINEAR_NP1, "--help");
  EXPECT_EQ(job.status, 0) << job.output;
  for (const char *option :
       {"--steps", "--data", "--lr", "--schedule", "--warmup-steps", "--seed",
        "--metrics", "--log-every", "--checkpoint-dir", "--checkpoint-every",
        "--resume"})
    EXPECT_TRUE(printed(job, option)) << option;
}

TEST(Driver, MeshThatDoesNotMatchTheJobIsAClearError) {
  Job job = runJob(3, TESSEL_LINEAR_NP2, "--steps 1");
  EXPECT_EQ(job.status, 1) << job.output;
  EXPECT_TRUE(printed(job, "tessel: the program's mesh data:2 needs 2 ranks, "
                           "but mpirun started 3"));
}

TEST(Driver, TrainingLowersTheLoss) {
  REQUIRE_DATA();
  fs::path dir = scratch("loss");
  Job job = runJob(1, TESSEL_LINEAR_NP1,
                   "--steps 60 --log-every 20 --schedule cosine "
                   "--warmup-steps 5 --metrics " +
                       (dir / "metrics.jsonl").string());
  ASSERT_EQ(job.status, 0) << job.output;
  std::cout << job.output;
  EXPECT_EQ(progressOf(job.output).size(), 3u) << job.output;
  EXPECT_TRUE(printed(job, "trained steps 1-60"));
  std::map<int64_t, double> losses = lossesOf(dir / "metrics.jsonl");
  ASSERT_EQ(losses.size(), 60u);
  // Ten classes: the untrained model is near log(10) = 2.30.
  EXPECT_NEAR(losses[1], 2.30, 0.1);
  double last = 0;
  for (int64_t step = 51; step <= 60; ++step)
    last += losses[step] / 10;
  EXPECT_LT(last, 1.2) << "the loss did not go down";
}

TEST(Driver, ProfilePrintsTheTimeOfEachKindOfOp) {
  REQUIRE_DATA();
  Job job = runJob(1, TESSEL_LINEAR_NP1, "--steps 5 --profile");
  ASSERT_EQ(job.status, 0) << job.output;
  EXPECT_TRUE(printed(job, "op profile of rank 0: "));
  // The linear classifier's step: its matmul and its loss, each a row with
  // one call per step, and its costliest call site with its location.
  for (const char *row : {" tessel.einsum\n", " tessel.softmax_cross_entropy"})
    EXPECT_TRUE(printed(job, row)) << row;
  EXPECT_TRUE(printed(job, "costliest call sites:"));
  EXPECT_TRUE(printed(job, " at linear.mlir:"));
  // Every op of its step runs on a fast kernel.
  EXPECT_TRUE(printed(job, "reference kernels (slow paths): none"));
}

TEST(Driver, ProfileShowsEveryRanksWait) {
  // Data parallel on 2 ranks: every step waits for its gradient's sum, and
  // both ranks' waits are printed beside rank 0's profile.
  REQUIRE_DATA();
  Job job = runJob(2, TESSEL_LINEAR_NP2, "--steps 5 --profile");
  ASSERT_EQ(job.status, 0) << job.output;
  const std::string line = "waited per rank, ms per step: ";
  size_t at = job.output.find(line);
  ASSERT_NE(at, std::string::npos) << job.output;
  double first = -1, second = -1;
  char rest[32] = {};
  ASSERT_EQ(std::sscanf(job.output.c_str() + at + line.size(),
                        "%lf, %lf (ranks 0 to %31[0-9])", &first, &second,
                        rest),
            3)
      << job.output.substr(at, 120);
  EXPECT_GT(first, 0);
  EXPECT_GT(second, 0);
  EXPECT_STREQ(rest, "1");
}

TEST(Driver, ProfileListsAsManyCallSitesAsAsked) {
  REQUIRE_DATA();
  auto sitesListed = [](const Job &job) {
    size_t count = 0;
    for (size_t at = job.output.find(" at linear.mlir:");
         at != std::string::npos;
         at = job.output.find(" at linear.mlir:", at + 1))
      ++count;
    return count;
  };
  Job one =
      runJob(1, TESSEL_LINEAR_NP1, "--steps 3 --profile --profile-sites 1");
  ASSERT_EQ(one.status, 0) << one.output;
  EXPECT_EQ(sitesListed(one), 1u) << one.output;
  // 0 lists every site: the linear step has more than one.
  Job all =
      runJob(1, TESSEL_LINEAR_NP1, "--steps 3 --profile --profile-sites 0");
  ASSERT_EQ(all.status, 0) << all.output;
  EXPECT_GT(sitesListed(all), 1u) << all.output;
  Job bad = runJob(1, TESSEL_LINEAR_NP1, "--steps 3 --profile-sites -2");
  EXPECT_NE(bad.status, 0);
  EXPECT_TRUE(printed(bad, "--profile-sites")) << bad.output;
}

TEST(Driver, OneAndTwoRanksPrintTheSameLosses) {
  REQUIRE_DATA();
  fs::path dir = scratch("ranks");
  std::string arguments = "--steps 12 --log-every 3 --seed 5 --metrics ";
  Job one =
      runJob(1, TESSEL_LINEAR_NP1, arguments + (dir / "one.jsonl").string());
  Job two =
      runJob(2, TESSEL_LINEAR_NP2, arguments + (dir / "two.jsonl").string());
  ASSERT_EQ(one.status, 0) << one.output;
  ASSERT_EQ(two.status, 0) << two.output;
  std::cout << one.output << two.output;
  EXPECT_EQ(progressOf(one.output), progressOf(two.output));
  EXPECT_EQ(progressOf(one.output).size(), 4u);
  std::map<int64_t, double> a = lossesOf(dir / "one.jsonl"),
                            b = lossesOf(dir / "two.jsonl");
  ASSERT_EQ(a.size(), 12u);
  ASSERT_EQ(b.size(), 12u);
  for (auto [step, loss] : a)
    EXPECT_NEAR(loss, b[step], 1e-5) << "step " << step;
}

TEST(Driver, CheckpointFromTwoRanksResumesOnOne) {
  REQUIRE_DATA();
  fs::path dir = scratch("checkpoint");
  fs::path checkpoints = dir / "checkpoints";
  std::string common =
      "--seed 3 --log-every 1 --checkpoint-dir " + checkpoints.string();
  Job first =
      runJob(2, TESSEL_LINEAR_NP2, "--steps 4 --checkpoint-every 2 " + common);
  ASSERT_EQ(first.status, 0) << first.output;
  // Sharded checkpoints: the two ranks each wrote a shard (w on rank 0; b
  // and the step count on rank 1), and no temporary directory is left.
  for (const char *step : {"step-00000002", "step-00000004"})
    for (const char *file :
         {"model.safetensors.index.json", "model-00001-of-00002.safetensors",
          "model-00002-of-00002.safetensors"})
      EXPECT_TRUE(fs::is_regular_file(checkpoints / step / file))
          << step << "/" << file;
  for (const fs::directory_entry &entry : fs::directory_iterator(checkpoints))
    EXPECT_EQ(entry.path().filename().string().rfind("step-", 0), 0u)
        << "left behind: " << entry.path();

  Job resumed = runJob(1, TESSEL_LINEAR_NP1,
                       "--steps 7 --resume --metrics " +
                           (dir / "resumed.jsonl").string() + " " + common);
  ASSERT_EQ(resumed.status, 0) << resumed.output;
  std::cout << resumed.output;
  EXPECT_TRUE(printed(resumed, "resumed from " +
                                   (checkpoints / "step-00000004").string() +
                                   " after step 4"));

  Job straight = runJob(1, TESSEL_LINEAR_NP1,
                        "--steps 7 --seed 3 --metrics " +
                            (dir / "straight.jsonl").string());
  ASSERT_EQ(straight.status, 0) << straight.output;
  std::map<int64_t, double> after = lossesOf(dir / "resumed.jsonl"),
                            reference = lossesOf(dir / "straight.jsonl");
  ASSERT_EQ(after.size(), 3u);
  for (int64_t step = 5; step <= 7; ++step)
    EXPECT_NEAR(after[step], reference[step], 1e-5) << "step " << step;
}

/// Writes a safetensors file with one f32 tensor "w" of the given shape.
void writeCheckpoint(const fs::path &path, std::vector<int64_t> shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  nlohmann::json header = {
      {"w",
       {{"dtype", "F32"}, {"shape", shape}, {"data_offsets", {0, 4 * count}}}},
      {"__metadata__", {{"step", "3"}}}};
  std::string text = header.dump();
  uint64_t length = text.size();
  std::ofstream file(path, std::ios::binary);
  for (int i = 0; i < 8; ++i)
    file.put(static_cast<char>(length >> (8 * i)));
  file << text;
  std::vector<float> zeros(count);
  file.write(reinterpret_cast<const char *>(zeros.data()), 4 * count);
}

TEST(Driver, CheckpointThatDisagreesIsAClearError) {
  REQUIRE_DATA();
  fs::path dir = scratch("mismatch");
  fs::path path = dir / "step-00000003.safetensors";
  writeCheckpoint(path, {10, 784});
  Job job = runJob(2, TESSEL_LINEAR_NP2,
                   "--steps 5 --resume --checkpoint-dir " + dir.string());
  EXPECT_EQ(job.status, 1) << job.output;
  EXPECT_TRUE(
      printed(job, "checkpoint " + path.string() +
                       ": tensor 'w' has shape [10, 784], but the "
                       "program has it as [pixels:784, classes:10] f32"));
}

/// Writes an idx file of unsigned bytes with the given sizes, holding
/// `bytes` bytes of data (fewer than the sizes promise for a truncated one).
void writeIdx(const fs::path &path, std::vector<uint32_t> sizes, size_t bytes) {
  std::ofstream file(path, std::ios::binary);
  file.put(0).put(0).put(0x08).put(static_cast<char>(sizes.size()));
  for (uint32_t size : sizes)
    for (int shift = 24; shift >= 0; shift -= 8)
      file.put(static_cast<char>(size >> shift));
  std::vector<char> data(bytes, 1);
  file.write(data.data(), static_cast<std::streamsize>(data.size()));
}

/// Runs a two-rank job on the data in `dir`, with a metrics file that
/// already holds a line from an earlier run, and checks that the job fails
/// with `expected` and leaves the metrics file as it was.
void expectDataError(const fs::path &dir, const std::string &expected) {
  fs::path metrics = dir.parent_path() / (dir.filename().string() + ".jsonl");
  std::ofstream(metrics) << "{\"step\": 1, \"loss\": 2.3}\n";
  Job job = runJob(2, TESSEL_LINEAR_NP2,
                   "--steps 2 --data " + dir.string() + " --metrics " +
                       metrics.string());
  EXPECT_EQ(job.status, 1) << job.output;
  EXPECT_TRUE(printed(job, "tessel: " + expected));
  std::ifstream file(metrics);
  std::string kept((std::istreambuf_iterator<char>(file)), {});
  EXPECT_EQ(kept, "{\"step\": 1, \"loss\": 2.3}\n") << "metrics overwritten";
}

TEST(Driver, MissingDataIsAClearError) {
  fs::path dir = scratch("no-data");
  expectDataError(dir, "no Fashion-MNIST in " + dir.string() +
                           ": train-images-idx3-ubyte(.gz) or "
                           "train-labels-idx1-ubyte(.gz) is missing");
}

TEST(Driver, TruncatedDataIsAClearError) {
  fs::path dir = scratch("truncated-data");
  writeIdx(dir / "train-images-idx3-ubyte", {100, 28, 28}, 100 * 784 - 10);
  writeIdx(dir / "train-labels-idx1-ubyte", {100}, 100);
  expectDataError(dir, (dir / "train-images-idx3-ubyte").string() +
                           " holds 78390 bytes of data, its header promises "
                           "78400");
  // A gzip file cut short: zlib returns what it inflated, which the idx
  // header then shows to be too little. The stream is one stored (not
  // compressed) deflate block of 1000 bytes, cut after 500 of them.
  fs::path gz = scratch("truncated-gz");
  writeIdx(gz / "train-labels-idx1-ubyte", {100}, 100);
  std::string stream("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10);
  stream += std::string("\x00\xe8\x03\x17\xfc", 5);
  std::string idxHeader("\x00\x00\x08\x03\x00\x00\x00\x64\x00\x00\x00\x1c"
                        "\x00\x00\x00\x1c",
                        16);
  stream += idxHeader + std::string(484, '\x01');
  std::ofstream(gz / "train-images-idx3-ubyte.gz", std::ios::binary) << stream;
  expectDataError(gz, (gz / "train-images-idx3-ubyte.gz").string() +
                          " holds 484 bytes of data, its header promises "
                          "78400");
}

TEST(Driver, DataOfAnotherShapeIsAClearError) {
  fs::path dir = scratch("shape-data");
  writeIdx(dir / "train-images-idx3-ubyte", {100, 27, 27}, 100 * 729);
  writeIdx(dir / "train-labels-idx1-ubyte", {100}, 100);
  expectDataError(dir, "train_step's 'images' is [batch:64, pixels:784] f32; "
                       "the data are 729 pixels per image");
  fs::path labels = scratch("label-count");
  writeIdx(labels / "train-images-idx3-ubyte", {100, 28, 28}, 100 * 784);
  writeIdx(labels / "train-labels-idx1-ubyte", {90}, 90);
  expectDataError(labels, (labels / "train-images-idx3-ubyte").string() +
                              " has 100 images but " +
                              (labels / "train-labels-idx1-ubyte").string() +
                              " has 90 labels");
}

} // namespace

namespace {

/// A directory of 100 synthetic training images of 10 classes (pixels and
/// labels from the example's index), enough for the jobs below without
/// Fashion-MNIST.
fs::path syntheticData(const std::string &name) {
  fs::path dir = scratch(name);
  writeIdx(dir / "train-images-idx3-ubyte", {100, 28, 28}, 0);
  writeIdx(dir / "train-labels-idx1-ubyte", {100}, 0);
  std::ofstream images(dir / "train-images-idx3-ubyte",
                       std::ios::binary | std::ios::app);
  std::ofstream labels(dir / "train-labels-idx1-ubyte",
                       std::ios::binary | std::ios::app);
  for (int example = 0; example < 100; ++example) {
    labels.put(static_cast<char>(example % 10));
    for (int pixel = 0; pixel < 784; ++pixel)
      images.put(static_cast<char>((example * 31 + pixel * 7) % 256));
  }
  return dir;
}

std::string readAll(const fs::path &path) {
  std::ifstream file(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(file)), {});
}

} // namespace

// The NaN policy: a learning rate of 1e36 makes the loss infinite at step
// 2, which stops the job naming the step; --skip-nonfinite drops such steps
// and says so in the metrics.
TEST(Driver, NonFiniteLossStopsTrainingNamingTheStep) {
  fs::path data = syntheticData("nonfinite-data");
  std::string common = "--steps 6 --lr 1e36 --log-every 1 --no-evaluate "
                       "--data " +
                       data.string();
  Job stopped = runJob(2, TESSEL_LINEAR_NP2, common);
  EXPECT_EQ(stopped.status, 1) << stopped.output;
  EXPECT_TRUE(printed(stopped, "tessel: step 2: the loss is inf; stopping "
                               "(the weights are those after step 1"));
  EXPECT_FALSE(printed(stopped, "step 3/6"));

  fs::path metrics = data.parent_path() / "nonfinite.jsonl";
  Job skipped =
      runJob(2, TESSEL_LINEAR_NP2,
             common + " --skip-nonfinite --metrics " + metrics.string());
  EXPECT_EQ(skipped.status, 0) << skipped.output;
  EXPECT_TRUE(printed(skipped, "tessel: step 2: the loss is inf; step "
                               "skipped"));
  std::ifstream file(metrics);
  std::string line;
  int skippedLines = 0;
  while (std::getline(file, line)) {
    nlohmann::json entry = nlohmann::json::parse(line);
    if (entry.contains("skipped")) {
      ++skippedLines;
      EXPECT_TRUE(entry["loss"].is_null()) << line;
    }
    if (entry.contains("skipped_steps")) {
      EXPECT_EQ(entry["skipped_steps"], 5) << line;
    }
  }
  EXPECT_EQ(skippedLines, 5);
}

// An update that overflows (1e308 times a finite gradient) leaves the loss
// and gradient norm of its step finite but the weights infinite or NaN.
// After the last step nothing noticed: they were checkpointed and the job
// exited 0; before another step, "the weights are those after step 1" was
// untrue, and --skip-nonfinite skipped every later step.
TEST(Driver, AnUpdateThatOverflowsIsNeverKept) {
  fs::path data = syntheticData("overflow-data");
  fs::path checkpoints = data.parent_path() / "overflow-checkpoints";
  std::string common = "--lr 1e308 --no-evaluate --data " + data.string() + " ";
  Job last =
      runJob(2, TESSEL_LINEAR_NP2,
             common + "--steps 1 --checkpoint-dir " + checkpoints.string());
  EXPECT_EQ(last.status, 1) << last.output;
  EXPECT_TRUE(printed(last, "tessel: after step 1: the trained state is "
                            "not finite: '"));
  EXPECT_TRUE(printed(last, "an update overflowed (a learning rate too "
                            "large?); no checkpoint written"));
  EXPECT_FALSE(fs::exists(checkpoints / "step-00000001")) << last.output;
  for (const char *skip : {"", "--skip-nonfinite"}) {
    Job next = runJob(2, TESSEL_LINEAR_NP2, common + "--steps 3 " + skip);
    EXPECT_EQ(next.status, 1) << skip << "\n" << next.output;
    EXPECT_TRUE(printed(next, "tessel: step 2: the loss is "));
    EXPECT_TRUE(printed(next, ": the trained state is not finite: '"));
    EXPECT_FALSE(printed(next, "the weights are those after step 1"));
  }
}

// NaN and infinite hyperparameters are refused, not trained with.
TEST(Driver, NonFiniteOptionsAreRefused) {
  for (const char *option :
       {"--lr nan", "--lr inf", "--step-timeout nan", "--holdout nan"}) {
    Job job = runJob(1, TESSEL_LINEAR_NP1, std::string("--steps 1 ") + option);
    EXPECT_NE(job.status, 0) << option << "\n" << job.output;
    EXPECT_TRUE(printed(job, "is not a finite number")) << option;
  }
}

// An empty --metrics or --checkpoint-dir was read as not given (no metrics,
// no checkpoints, without a word), and --seed -1 wrapped to 2^64 - 1 (the
// seed is unsigned): all are refused; the largest seed still trains.
TEST(Driver, EmptyPathsAndSeedsOutOfRangeAreRefused) {
  fs::path data = syntheticData("empty-paths-data");
  std::string common = "--steps 1 --no-evaluate --data " + data.string() + " ";
  for (auto [option, message] :
       {std::pair<std::string, std::string>{
            "--metrics ''", "--metrics: an empty path names nothing"},
        {"--checkpoint-dir ''", "--checkpoint-dir: an empty path names "
                                "nothing; give a path or leave the option "
                                "out"},
        {"--metrics=", "--metrics: an empty path names nothing"},
        {"--checkpoint-dir=", "--checkpoint-dir: an empty path names "
                              "nothing"},
        {"--seed -1", "--seed: Value -1 is not a seed: a whole number from 0 "
                      "to 18446744073709551615"},
        {"--seed 18446744073709551616",
         "--seed: Value 18446744073709551616 is not a seed"}}) {
    Job job = runJob(1, TESSEL_LINEAR_NP1, common + option);
    EXPECT_NE(job.status, 0) << option << "\n" << job.output;
    EXPECT_TRUE(printed(job, message)) << option;
    EXPECT_FALSE(printed(job, "step 1/1")) << option;
  }
  Job largest =
      runJob(1, TESSEL_LINEAR_NP1, common + "--seed 18446744073709551615");
  EXPECT_EQ(largest.status, 0) << largest.output;
}

// An option that qualifies another one it lacks was ignored, and a
// checkpoint directory that is a file failed only at the first checkpoint,
// after the training before it; all are refused before the first step.
TEST(Driver, OptionsThatWouldBeIgnoredAreRefused) {
  fs::path dir = scratch("ignored-options");
  fs::path notADirectory = dir / "a-file";
  std::ofstream(notADirectory) << "not a directory\n";
  for (auto [option, message] :
       {std::pair<std::string, std::string>{
            "--checkpoint-every 5",
            "tessel: --checkpoint-every needs --checkpoint-dir"},
        {"--warmup-steps 50",
         "tessel: --warmup-steps applies to --schedule warmup or cosine"},
        {"--checkpoint-dir " + notADirectory.string(),
         "tessel: --checkpoint-dir " + notADirectory.string() +
             " exists and is not a directory"}}) {
    Job job = runJob(1, TESSEL_LINEAR_NP1, "--steps 1 " + option);
    EXPECT_EQ(job.status, 1) << option << "\n" << job.output;
    EXPECT_TRUE(printed(job, message)) << option;
    EXPECT_FALSE(printed(job, "step 1"));
  }
  EXPECT_EQ(readAll(notADirectory), "not a directory\n");
}

// --metrics never truncates a file that is not a metrics file, and a
// metrics file that cannot be written (a full disk: /dev/full) ends the job
// with an error instead of exit 0.
TEST(Driver, MetricsNeverOverwriteOtherFilesAndFailOnAFullDisk) {
  fs::path data = syntheticData("metrics-data");
  std::string common = "--steps 3 --no-evaluate --data " + data.string();
  fs::path images = data / "train-images-idx3-ubyte";
  std::string before = readAll(images);
  Job refused =
      runJob(1, TESSEL_LINEAR_NP1, common + " --metrics " + images.string());
  EXPECT_EQ(refused.status, 1) << refused.output;
  EXPECT_TRUE(
      printed(refused, "tessel: --metrics " + images.string() +
                           ": the file exists and is not a metrics "
                           "file (JSON lines); refusing to overwrite it"));
  EXPECT_EQ(readAll(images), before) << "the data file was overwritten";

  Job full = runJob(2, TESSEL_LINEAR_NP2, common + " --metrics /dev/full");
  EXPECT_EQ(full.status, 1) << full.output;
  EXPECT_TRUE(printed(full, "tessel: cannot write metrics to /dev/full: No "
                            "space left on device"));
}

namespace {

// An idx file without images used to divide by zero in the batch order,
// and sizes whose product overflows to the file's length passed the check.
TEST(Driver, EmptyOrOverflowingDataIsAClearError) {
  fs::path empty = scratch("empty-data");
  writeIdx(empty / "train-images-idx3-ubyte", {0, 28, 28}, 0);
  writeIdx(empty / "train-labels-idx1-ubyte", {0}, 0);
  expectDataError(empty, (empty / "train-labels-idx1-ubyte").string() +
                             " holds no labels");
  fs::path huge = scratch("overflowing-data");
  writeIdx(huge / "train-images-idx3-ubyte",
           {0xffffffffu, 0xffffffffu, 0xffffffffu}, 0);
  writeIdx(huge / "train-labels-idx1-ubyte", {100}, 100);
  expectDataError(huge, (huge / "train-images-idx3-ubyte").string() +
                            ": its header's sizes overflow");
}

/// Writes a gzipped idx file of unsigned bytes with the given sizes, holding
/// `bytes` zero bytes of data (compressed about 1000:1).
void writeGzipIdx(const fs::path &path, std::vector<uint32_t> sizes,
                  size_t bytes) {
  gzFile file = gzopen(path.c_str(), "wb9");
  ASSERT_NE(file, nullptr) << path;
  std::string header("\x00\x00\x08", 3);
  header += static_cast<char>(sizes.size());
  for (uint32_t size : sizes)
    for (int shift = 24; shift >= 0; shift -= 8)
      header += static_cast<char>(size >> shift);
  gzwrite(file, header.data(), static_cast<unsigned>(header.size()));
  std::vector<char> zeros(1 << 20, 0);
  for (size_t written = 0; written < bytes; written += zeros.size())
    gzwrite(file, zeros.data(),
            static_cast<unsigned>(std::min(zeros.size(), bytes - written)));
  ASSERT_EQ(gzclose(file), Z_OK) << path;
}

// The reader reads no more of an idx file than its header promises: a small
// .gz that inflates to far more (a "gzip bomb") is refused after the
// promised bytes and one more, and a header that promises more than the
// file can hold (its size, or 1032 times it for gzip, deflate's largest
// expansion) is refused before the data are read.
TEST(Driver, DataBeyondWhatItsHeaderPromisesIsNotRead) {
  // 200 MB of zeros in about 200 KB, behind a header of 100 images.
  fs::path bomb = scratch("gzip-bomb");
  writeGzipIdx(bomb / "train-images-idx3-ubyte.gz", {100, 28, 28}, 200u << 20);
  writeIdx(bomb / "train-labels-idx1-ubyte", {100}, 100);
  expectDataError(bomb, (bomb / "train-images-idx3-ubyte.gz").string() +
                            " holds more data than its header promises "
                            "(78400 bytes)");
  fs::path surplus = scratch("surplus-data");
  writeIdx(surplus / "train-images-idx3-ubyte", {100, 28, 28}, 100 * 784);
  writeIdx(surplus / "train-labels-idx1-ubyte", {100}, 101);
  expectDataError(surplus, (surplus / "train-labels-idx1-ubyte").string() +
                               " holds more data than its header promises "
                               "(100 bytes)");

  fs::path plain = scratch("promise-past-file");
  writeIdx(plain / "train-images-idx3-ubyte", {4000000, 28, 28}, 10);
  writeIdx(plain / "train-labels-idx1-ubyte", {4000000}, 10);
  expectDataError(plain, (plain / "train-images-idx3-ubyte").string() +
                             " holds 10 bytes of data, its header promises "
                             "3136000000");
  fs::path gz = scratch("promise-past-gzip");
  fs::path images = gz / "train-images-idx3-ubyte.gz";
  writeGzipIdx(images, {4000000, 28, 28}, 10);
  writeIdx(gz / "train-labels-idx1-ubyte", {4000000}, 10);
  uintmax_t gzipBytes = fs::file_size(images);
  expectDataError(gz, images.string() + " is " + std::to_string(gzipBytes) +
                          " bytes of gzip, which inflate to at most " +
                          std::to_string(gzipBytes * 1032) +
                          " bytes, but its header promises 3136000000 "
                          "bytes of data");
}

} // namespace

namespace {

/// Writes a version 1.0 .npy file of `descr` ("<f4", "<i8") and `shape`
/// holding `data`.
void writeNpy(const fs::path &path, const std::string &descr,
              const std::string &shape, const std::string &data) {
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  header.append(63 - (10 + header.size()) % 64, ' ');
  header += '\n';
  std::string bytes("\x93NUMPY\x01\x00", 8);
  bytes += static_cast<char>(header.size() & 0xff);
  bytes += static_cast<char>(header.size() >> 8);
  std::ofstream(path, std::ios::binary) << bytes << header << data;
}

// int64 labels beyond i32 would wrap into other, valid-looking classes in
// the program's i32 'labels'; the data loader refuses them by element.
TEST(Driver, IntegersTheModelCannotHoldAreAnError) {
  fs::path dir = scratch("int64-labels");
  writeNpy(dir / "images.npy", "<f4", "(64, 784)",
           std::string(64 * 784 * 4, '\0'));
  std::string labels;
  for (int64_t i = 0; i < 64; ++i) {
    int64_t label = i == 17 ? (int64_t(1) << 32) + 3 : i % 10;
    labels.append(reinterpret_cast<const char *>(&label), 8);
  }
  writeNpy(dir / "labels.npy", "<i8", "(64,)", labels);
  Job job = runJob(1, TESSEL_LINEAR_NP1,
                   "--steps 1 --no-evaluate --data " + dir.string());
  EXPECT_EQ(job.status, 1) << job.output;
  EXPECT_TRUE(printed(job, "tessel: " + (dir / "labels.npy").string() +
                               ": element 17 is 4294967299, which the model's "
                               "'labels' ([batch:64] i32) cannot hold"));
}

// A NaN in the data is named by file and element before training, not met
// at whichever step first draws its example.
TEST(Driver, NonFiniteDataAreAnError) {
  fs::path dir = scratch("nan-data");
  std::string images(64 * 784 * 4, '\0');
  float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(&images[(5 * 784 + 3) * 4], &nan, 4);
  writeNpy(dir / "images.npy", "<f4", "(64, 784)", images);
  std::string labels;
  for (int32_t i = 0; i < 64; ++i) {
    int32_t label = i % 10;
    labels.append(reinterpret_cast<const char *>(&label), 4);
  }
  writeNpy(dir / "labels.npy", "<i4", "(64,)", labels);
  Job job = runJob(1, TESSEL_LINEAR_NP1,
                   "--steps 1 --no-evaluate --data " + dir.string());
  EXPECT_EQ(job.status, 1) << job.output;
  EXPECT_TRUE(
      printed(job, "tessel: " + (dir / "images.npy").string() +
                       ": element 3923 is nan; the data must be finite"));
}

} // namespace

// Pipelined training (runtime/driver/PipelineTrainer), on the classifier
// hand-compiled as two stages (LinearPipeline.cpp).
namespace {

TEST(Driver, PipelinedTrainingHasTheUnpipelinedLosses) {
  REQUIRE_DATA();
  fs::path dir = scratch("pipeline");
  std::string arguments = "--steps 20 --log-every 5 --seed 7 --metrics ";
  Job reference =
      runJob(1, TESSEL_LINEAR_NP1, arguments + (dir / "one.jsonl").string());
  ASSERT_EQ(reference.status, 0) << reference.output;
  std::map<int64_t, double> expected = lossesOf(dir / "one.jsonl");
  ASSERT_EQ(expected.size(), 20u);
  // 4 micro-batches of 16 on stage:2 under both schedules, and 2 of 32
  // on data:2 x stage:2: the same 64 examples per step, the same update.
  struct Run {
    const char *program;
    int ranks;
    const char *says;
  };
  for (Run run :
       {Run{TESSEL_LINEAR_PIPELINE_1F1B, 2,
            "pipeline: 2 stages over 'stage', 4 micro-batches of 16 "
            "(1f1b)"},
        Run{TESSEL_LINEAR_PIPELINE_GPIPE, 2, "4 micro-batches of 16 (gpipe)"},
        Run{TESSEL_LINEAR_PIPELINE_DATA, 4, "2 micro-batches of 32 (1f1b)"}}) {
    fs::path metrics = dir / (std::to_string(run.ranks) + "-ranks.jsonl");
    fs::remove(metrics);
    Job job = runJob(run.ranks, run.program, arguments + metrics.string());
    ASSERT_EQ(job.status, 0) << job.output;
    std::cout << job.output;
    EXPECT_TRUE(printed(job, run.says));
    EXPECT_EQ(progressOf(job.output), progressOf(reference.output));
    std::map<int64_t, double> losses = lossesOf(metrics);
    ASSERT_EQ(losses.size(), 20u) << run.program;
    for (auto [step, loss] : expected)
      EXPECT_NEAR(losses[step], loss, 1e-5 * std::abs(loss))
          << run.program << ", step " << step;
    EXPECT_LT(losses[20], losses[1]);
  }
}

// The pipelined trainer keeps the NaN policy of the unpipelined one: an
// update that overflows (1e308 times a finite gradient) stops the job after
// the last step, or at the next step's loss naming the state, --skip-nonfinite
// or not (was: exit 0 with infinite weights, or every later step skipped).
TEST(Driver, PipelinedUpdateThatOverflowsIsNeverKept) {
  fs::path data = syntheticData("pipeline-overflow-data");
  std::string common = "--lr 1e308 --data " + data.string() + " ";
  Job last = runJob(2, TESSEL_LINEAR_PIPELINE_1F1B, common + "--steps 1");
  EXPECT_EQ(last.status, 1) << last.output;
  EXPECT_TRUE(printed(last, "tessel: after step 1: the trained state is "
                            "not finite: '"));
  EXPECT_TRUE(printed(last, "an update overflowed (a learning rate too "
                            "large?); training failed"));
  EXPECT_FALSE(printed(last, "trained steps"));
  for (const char *skip : {"", "--skip-nonfinite"}) {
    Job next =
        runJob(2, TESSEL_LINEAR_PIPELINE_1F1B, common + "--steps 3 " + skip);
    EXPECT_EQ(next.status, 1) << skip << "\n" << next.output;
    EXPECT_TRUE(printed(next, "tessel: step 2: the loss is nan: the trained "
                              "state is not finite: '"));
    EXPECT_TRUE(printed(next, "; stopping\n"));
    EXPECT_FALSE(printed(next, "step skipped"));
  }
}

// What a pipelined program cannot do is refused before the first step: a
// program without evaluate (this model has none) cannot validate, and the
// batch is the compiled one.
TEST(Driver, PipelinedTrainingRefusesWhatItCannotDo) {
  for (auto [option, message] :
       {std::pair<std::string, std::string>{
            "--eval-every 5",
            "--eval-every: the program has no evaluate function"},
        {"--batch 32", "--batch 32: this program was compiled for a batch of "
                       "64 (4 micro-batches of 16)"}}) {
    Job job =
        runJob(2, TESSEL_LINEAR_PIPELINE_1F1B,
               "--steps 2 --data " + std::string(kDataDir) + " " + option);
    EXPECT_NE(job.status, 0) << option << "\n" << job.output;
    EXPECT_TRUE(printed(job, message)) << option;
    EXPECT_FALSE(printed(job, "step 1/2"));
  }
}

} // namespace
