//===- GemmBench.cpp - the machine's large-GEMM rate through oneDNN -------===//
//
// Multiplies square f32 matrices with dnnl_sgemm, the GEMM of the oneDNN
// build the runtime links, and prints the best and median GFLOP/s as one
// JSON line:
//
//   tessel-bench-gemm --size 2048 --repetitions 10 [--type bf16]
//
// With --type bf16 the matrices are bf16 and the product f32, on oneDNN's
// matmul primitive (it has no bf16 GEMM call): the rate a bf16 einsum could
// reach, against which a mixed-precision step's speed-up is judged (on a CPU
// without AMX it is below the f32 rate; docs/benchmarks.md).
//
// The best of several repetitions is the machine's attainable rate, the
// yardstick benchmarks/run.sh sets a training step's GFLOP/s against; oneDNN
// uses its default threads (all cores), as the runtime does.
//
//===----------------------------------------------------------------------===//

#include <CLI/CLI.hpp>
#include <dnnl.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

/// C = A B for square f32 matrices, through dnnl_sgemm.
std::function<void()> f32Gemm(int64_t size) {
  auto a = std::make_shared<std::vector<float>>(size * size, 0.5f);
  auto b = std::make_shared<std::vector<float>>(size * size, 0.25f);
  auto c = std::make_shared<std::vector<float>>(size * size, 0.0f);
  return [=] {
    dnnl_status_t status =
        dnnl_sgemm('N', 'N', size, size, size, 1.0f, a->data(), size,
                   b->data(), size, 0.0f, c->data(), size);
    if (status != dnnl_success) {
      fmt::print(stderr, "dnnl_sgemm failed with status {}\n",
                 static_cast<int>(status));
      std::exit(1);
    }
  };
}

/// C (f32) = A B for square bf16 matrices, through the matmul primitive.
std::function<void()> bf16Matmul(int64_t size) {
  using dt = dnnl::memory::data_type;
  using tag = dnnl::memory::format_tag;
  auto engine = std::make_shared<dnnl::engine>(dnnl::engine::kind::cpu, 0);
  auto stream = std::make_shared<dnnl::stream>(*engine);
  dnnl::memory::desc a({size, size}, dt::bf16, tag::ab),
      b({size, size}, dt::bf16, tag::ab), c({size, size}, dt::f32, tag::ab);
  dnnl::matmul::primitive_desc descriptor(dnnl::matmul::desc(a, b, c),
                                          *engine);
  auto args = std::make_shared<std::unordered_map<int, dnnl::memory>>();
  (*args)[DNNL_ARG_SRC] = dnnl::memory(a, *engine);
  (*args)[DNNL_ARG_WEIGHTS] = dnnl::memory(b, *engine);
  (*args)[DNNL_ARG_DST] = dnnl::memory(c, *engine);
  // 0x3f00 and 0x3e80 are bf16's 0.5 and 0.25.
  for (auto [arg, bits] : {std::pair{DNNL_ARG_SRC, uint16_t(0x3f00)},
                           std::pair{DNNL_ARG_WEIGHTS, uint16_t(0x3e80)}}) {
    auto *data = static_cast<uint16_t *>((*args)[arg].get_data_handle());
    std::fill(data, data + size * size, bits);
  }
  auto matmul = std::make_shared<dnnl::matmul>(descriptor);
  return [=] {
    matmul->execute(*stream, *args);
    stream->wait();
  };
}

} // namespace

int main(int argc, char **argv) {
  int64_t size = 2048;
  int repetitions = 10;
  std::string type = "f32";
  CLI::App app{"Times square f32 (or bf16) GEMMs through oneDNN."};
  app.add_option("--size", size, "M = N = K")->capture_default_str();
  app.add_option("--repetitions", repetitions, "Timed GEMMs")
      ->capture_default_str();
  app.add_option("--type", type, "The matrices' element type")
      ->check(CLI::IsMember({"f32", "bf16"}))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  std::function<void()> gemm = type == "f32" ? f32Gemm(size) : bf16Matmul(size);
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
                         {"type", type},
                         {"repetitions", repetitions},
                         {"best_gflops", gflops.back()},
                         {"median_gflops", gflops[gflops.size() / 2]}};
  fmt::print("{}\n", line.dump());
  return 0;
}
