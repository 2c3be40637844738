//===- CommTestMain.cpp - GoogleTest under mpirun -------------------------===//
//
// Every rank runs every test. Rank 0 prints GoogleTest's usual report; the
// other ranks print only their failures, each line prefixed with the rank,
// so a failure on any rank is visible without four interleaved reports. The
// exit status is non-zero on every rank if a test failed on any of them.
//
//===----------------------------------------------------------------------===//

#include "tessel/runtime/comm.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>

namespace {

class FailurePrinter : public ::testing::EmptyTestEventListener {
public:
  explicit FailurePrinter(int rank) : rank(rank) {}

  void OnTestPartResult(const ::testing::TestPartResult &result) override {
    if (!result.failed())
      return;
    std::fprintf(stderr, "[rank %d] %s:%d: Failure\n%s\n", rank,
                 result.file_name() ? result.file_name() : "?",
                 result.line_number(), result.summary());
    std::fflush(stderr);
  }

  void OnTestEnd(const ::testing::TestInfo &info) override {
    if (info.result()->Failed()) {
      std::fprintf(stderr, "[rank %d] FAILED %s.%s\n", rank,
                   info.test_suite_name(), info.name());
      std::fflush(stderr);
    }
  }

private:
  int rank;
};

} // namespace

int main(int argc, char **argv) {
  // The collectives run with the algorithms compiled programs use.
  tessel_comm_choose_mpi_algorithms();
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    ::testing::TestEventListeners &listeners =
        ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailurePrinter(rank));
  }
  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  int failedAnywhere = 0;
  MPI_Allreduce(&failed, &failedAnywhere, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && failedAnywhere && !failed)
    std::fprintf(stderr, "tests failed on other ranks (see [rank N] lines)\n");
  MPI_Finalize();
  return failedAnywhere;
}
