//===- GemmBench.cpp - the machine's large-GEMM rate through oneDNN -------===//
//
// Multiplies square f32 matrices with dnnl_sgemm, the GEMM of the oneDNN
// build the runtime links, and prints the best and median GFLOP/s as one
// JSON line:
//
//   tessel-bench-gemm --size 2048 --repetitions 10
//
// The best of several repetitions is the machine's attainable rate, the
// yardstick benchmarks/run.sh sets a training step's GFLOP/s against; oneDNN
// uses its default threads (all cores), as the runtime does.
//
//===----------------------------------------------------------------------===//

#include <CLI/CLI.hpp>
#include <dnnl.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <vector>

int main(int argc, char **argv) {
  int64_t size = 2048;
  int repetitions = 10;
  CLI::App app{"Times square f32 GEMMs through oneDNN."};
  app.add_option("--size", size, "M = N = K")->capture_default_str();
  app.add_option("--repetitions", repetitions, "Timed GEMMs")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  std::vector<float> a(size * size, 0.5f), b(size * size, 0.25f),
      c(size * size, 0.0f);
  auto gemm = [&] {
    dnnl_status_t status =
        dnnl_sgemm('N', 'N', size, size, size, 1.0f, a.data(), size, b.data(),
                   size, 0.0f, c.data(), size);
    if (status != dnnl_success) {
      fmt::print(stderr, "dnnl_sgemm failed with status {}\n",
                 static_cast<int>(status));
      std::exit(1);
    }
  };
  gemm(); // The first call also creates oneDNN's threads and kernels.
  std::vector<double> gflops;
  for (int i = 0; i < repetitions; ++i) {
    auto start = std::chrono::steady_clock::now();
    gemm();
    std::chrono::duration<double> seconds =
        std::chrono::steady_clock::now() - start;
    gflops.push_back(2.0 * size * size * size / seconds.count() / 1e9);
  }
  std::sort(gflops.begin(), gflops.end());
  nlohmann::json line = {{"size", size},
                         {"repetitions", repetitions},
                         {"best_gflops", gflops.back()},
                         {"median_gflops", gflops[gflops.size() / 2]}};
  fmt::print("{}\n", line.dump());
  return 0;
}
