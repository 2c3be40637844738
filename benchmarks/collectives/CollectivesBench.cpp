//===- CollectivesBench.cpp - runtime collectives against plain MPI -------===//
//
// Times each collective of the runtime's C API (tessel/runtime/comm.h) on a
// one-axis mesh of all ranks, and the MPI call it stands for on the same
// buffers, over a range of message sizes:
//
//   mpirun -n 4 tessel-bench-collectives --min-bytes 1024 --max-bytes 16777216
//
// prints one JSON line per (collective, size) on rank 0 with the median
// time of each side and its bus bandwidth, and for all_reduce, all_gather
// and reduce_scatter the runtime's started call waited for at once
// (`tessel_started_us`: what a compiled program's collective costs when no
// op runs while it moves, on the algorithm tessel_comm_choose_mpi_algorithms
// picks, as in compiled programs; the MPI side's blocking calls keep Open
// MPI's own choice). Bus bandwidth follows the usual
// convention of collective benchmarks: the algorithm bandwidth (size /
// time) scaled by what a ring sends per rank, 2 (n-1)/n for all_reduce and
// (n-1)/n for the others, so that figures of different collectives and rank
// counts compare against the same link speed. `size` is the all_reduce's
// buffer, all_gather's output, reduce_scatter's input and all_to_all's
// buffer (the whole tensor every rank holds at the larger end).
//
// The sides alternate repetition by repetition, so that load from
// other processes on the machine falls on both alike; each repetition
// counts the slowest rank's time. A repetition of a small message is a
// batch of back-to-back calls (at least --batch-bytes in all), timed
// together and divided: a single call of a few microseconds would be
// measured against the barrier's own skew between ranks.
//
//===----------------------------------------------------------------------===//

#include "tessel/runtime/comm.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

/// Stops the job when a runtime call fails: a benchmark has nothing to
/// recover.
void check(tessel_status_t status, const char *what) {
  if (status == TESSEL_STATUS_OK)
    return;
  std::fprintf(stderr, "%s: %s: %s\n", what, tessel_status_name(status),
               tessel_last_error_message());
  MPI_Abort(MPI_COMM_WORLD, 1);
}

/// Returns the slowest rank's seconds per call over `calls` back-to-back
/// calls of `op`, started together after a barrier.
double timeBatch(const std::function<void()> &op, int64_t calls) {
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (int64_t i = 0; i < calls; ++i)
    op();
  double mine = (MPI_Wtime() - start) / calls, slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// The factor from algorithm to bus bandwidth for `ranks` ranks.
double busFactor(const std::string &collective, int ranks) {
  double share = static_cast<double>(ranks - 1) / ranks;
  return collective == "all_reduce" ? 2 * share : share;
}

/// A 1-D f32 tensor over `data` with `shape` kept alive by the caller.
tessel_tensor_t vector(std::vector<float> &data, const int64_t &shape) {
  return tessel_tensor_t{data.data(), TESSEL_ELEMENT_TYPE_F32, 1, &shape};
}

} // namespace

int main(int argc, char **argv) {
  // The started calls' algorithms, as compiled programs run them.
  tessel_comm_choose_mpi_algorithms();
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);

  int64_t minBytes = 4096, maxBytes = 16 << 20, batchBytes = 1 << 20;
  int repetitions = 20, warmup = 3;
  std::vector<std::string> collectives = {"all_reduce", "all_gather",
                                          "reduce_scatter", "all_to_all"};
  CLI::App app{"Times the runtime's collectives against plain MPI calls."};
  app.add_option("--min-bytes", minBytes, "Smallest message")
      ->capture_default_str();
  app.add_option("--max-bytes", maxBytes, "Largest message (x4 each size)")
      ->capture_default_str();
  app.add_option("--repetitions", repetitions, "Timed calls of each side")
      ->capture_default_str();
  app.add_option("--warmup", warmup, "Untimed calls of each side first")
      ->capture_default_str();
  app.add_option("--batch-bytes", batchBytes,
                 "Bytes one timed repetition moves at least (back-to-back "
                 "calls of a small message)")
      ->capture_default_str();
  app.add_option("--collectives", collectives, "Which collectives")
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &error) {
    int status = rank == 0 ? app.exit(error) : 0;
    MPI_Finalize();
    return status;
  }

  const char *axis = "ranks";
  const int64_t axisSize = ranks;
  tessel_comm_t *comm = nullptr;
  check(tessel_comm_create(1, &axis, &axisSize, &comm), "tessel_comm_create");

  for (const std::string &collective : collectives) {
    for (int64_t bytes = minBytes; bytes <= maxBytes; bytes *= 4) {
      // Every message is a whole number of f32 chunks, one per rank.
      int64_t chunk = std::max<int64_t>(1, bytes / 4 / ranks);
      int64_t whole = chunk * ranks;
      bool gathers = collective == "all_gather";
      bool scatters = collective == "reduce_scatter";
      int64_t inElems = gathers ? chunk : whole;
      int64_t outElems = scatters ? chunk : whole;
      std::vector<float> input(inElems, 1.0f + rank), output(outElems, 0.0f);
      tessel_tensor_t in = vector(input, inElems);
      tessel_tensor_t out = vector(output, outElems);
      int count = static_cast<int>(collective == "all_reduce" ? whole : chunk);

      std::function<void()> runtimeCall, startedCall, mpiCall;
      // Starts a collective with `start` and waits for it at once.
      auto startAndWait = [](const char *what, const auto &start) {
        return [what, start] {
          tessel_comm_request_t *request = nullptr;
          check(start(&request), what);
          check(tessel_comm_wait(request), what);
        };
      };
      if (collective == "all_reduce") {
        runtimeCall = [&] {
          check(tessel_comm_all_reduce(comm, 1, &axis, TESSEL_REDUCTION_SUM,
                                       &in, &out),
                "all_reduce");
        };
        startedCall = startAndWait("all_reduce_start", [&](auto request) {
          return tessel_comm_all_reduce_start(
              comm, 1, &axis, TESSEL_REDUCTION_SUM, &in, &out, request);
        });
        mpiCall = [&] {
          MPI_Allreduce(input.data(), output.data(), count, MPI_FLOAT, MPI_SUM,
                        MPI_COMM_WORLD);
        };
      } else if (gathers) {
        runtimeCall = [&] {
          check(tessel_comm_all_gather(comm, 1, &axis, 0, &in, &out),
                "all_gather");
        };
        startedCall = startAndWait("all_gather_start", [&](auto request) {
          return tessel_comm_all_gather_start(comm, 1, &axis, 0, &in, &out,
                                              request);
        });
        mpiCall = [&] {
          MPI_Allgather(input.data(), count, MPI_FLOAT, output.data(), count,
                        MPI_FLOAT, MPI_COMM_WORLD);
        };
      } else if (scatters) {
        runtimeCall = [&] {
          check(tessel_comm_reduce_scatter(comm, 1, &axis, TESSEL_REDUCTION_SUM,
                                           0, &in, &out),
                "reduce_scatter");
        };
        startedCall = startAndWait("reduce_scatter_start", [&](auto request) {
          return tessel_comm_reduce_scatter_start(
              comm, 1, &axis, TESSEL_REDUCTION_SUM, 0, &in, &out, request);
        });
        mpiCall = [&] {
          MPI_Reduce_scatter_block(input.data(), output.data(), count,
                                   MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        };
      } else if (collective == "all_to_all") {
        runtimeCall = [&] {
          check(tessel_comm_all_to_all(comm, 1, &axis, 0, 0, &in, &out),
                "all_to_all");
        };
        mpiCall = [&] {
          MPI_Alltoall(input.data(), count, MPI_FLOAT, output.data(), count,
                       MPI_FLOAT, MPI_COMM_WORLD);
        };
      } else {
        if (rank == 0)
          std::fprintf(stderr, "unknown collective '%s'\n", collective.c_str());
        MPI_Abort(MPI_COMM_WORLD, 2);
      }

      for (int i = 0; i < warmup; ++i) {
        runtimeCall();
        if (startedCall)
          startedCall();
        mpiCall();
      }
      int64_t calls = std::max<int64_t>(1, batchBytes / bytes);
      std::vector<double> runtimeSeconds, startedSeconds, mpiSeconds;
      for (int i = 0; i < repetitions; ++i) {
        runtimeSeconds.push_back(timeBatch(runtimeCall, calls));
        if (startedCall)
          startedSeconds.push_back(timeBatch(startedCall, calls));
        mpiSeconds.push_back(timeBatch(mpiCall, calls));
      }
      if (rank != 0)
        continue;
      double size = static_cast<double>(whole) * sizeof(float);
      double factor = busFactor(collective, ranks);
      double runtimeTime = median(runtimeSeconds);
      double mpiTime = median(mpiSeconds);
      nlohmann::json line = {
          {"collective", collective},
          {"ranks", ranks},
          {"bytes", static_cast<int64_t>(size)},
          {"calls_per_repetition", calls},
          {"tessel_us", runtimeTime * 1e6},
          {"mpi_us", mpiTime * 1e6},
          {"tessel_busbw_gbps", size / runtimeTime * factor / 1e9},
          {"mpi_busbw_gbps", size / mpiTime * factor / 1e9},
      };
      if (startedCall) {
        double startedTime = median(startedSeconds);
        line["tessel_started_us"] = startedTime * 1e6;
        line["tessel_started_busbw_gbps"] = size / startedTime * factor / 1e9;
      }
      fmt::print("{}\n", line.dump());
      std::fflush(stdout);
    }
  }
  check(tessel_comm_destroy(comm), "tessel_comm_destroy");
  MPI_Finalize();
  return 0;
}
