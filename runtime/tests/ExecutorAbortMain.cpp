//===- ExecutorAbortMain.cpp - An op that fails while others wait ---------===//
//
// Rank 1 looks up an id outside its table while rank 0 already waits in an
// all_reduce that rank 1 will never join. The job must end at once with the
// failing op's message and a non-zero status, not hang.
//
//===----------------------------------------------------------------------===//

#include "executor/Context.h"

#include <mpi.h>

#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const char *axes[] = {"x"};
  int64_t sizes[] = {ranks};
  tessel_comm_t *comm = nullptr;
  if (tessel_comm_create(1, axes, sizes, &comm) != TESSEL_STATUS_OK) {
    std::fprintf(stderr, "%s\n", tessel_last_error_message());
    return 2;
  }
  std::string error;
  tessel::runtime::ContextPtr context = tessel::runtime::createContext(
      comm, tessel::layout::Mesh({"x"}, {ranks}), error);
  int64_t rank = context->rank;

  static void *gatherSite = nullptr, *reduceSite = nullptr;
  float table[] = {1, 2, 3}, value = 1, out[1];
  int32_t ids[] = {rank == 1 ? 3 : 0};
  if (rank == 1) {
    void *operands[] = {table, ids};
    tessel_rt_execute(context.get(), &gatherSite,
                      R"({"op": "tessel.gather", "loc": "model.mlir:7:3",
            "operands": [{"dims": ["v"], "shape": [3], "type": "f32"},
                         {"dims": ["n"], "shape": [1], "type": "i32"}],
            "result": {"dims": ["n"], "shape": [1], "type": "f32"},
            "attrs": {"dim": "v"}})",
                      operands, 2, out);
  }
  void *operands[] = {&value};
  tessel_rt_execute(context.get(), &reduceSite,
                    R"({"op": "tessel.all_reduce", "loc": "model.mlir:8:3",
          "operands": [{"dims": [], "shape": [], "type": "f32"}],
          "result": {"dims": [], "shape": [], "type": "f32"},
          "attrs": {"kind": "sum", "axes": ["x"]}})",
                    operands, 1, out);
  std::printf("rank %lld: not stopped\n", static_cast<long long>(rank));
  context.reset();
  tessel_comm_destroy(comm);
  MPI_Finalize();
  return 0;
}
