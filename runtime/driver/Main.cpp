//===- Main.cpp - main() of every compiled program ------------------------===//
//
// A program made by tessel compile is an object file that defines
// tessel_program_metadata and tessel_program_functions (its functions, such
// as init and train_step, in the metadata's order); linking it with this
// library gives the executable that mpirun starts, one process per rank of
// the program's mesh. It trains (Trainer.h) a program that has a train_step,
// pipelined (PipelineTrainer.h) one that has pipeline stages, and runs any
// other (tessel compile --mode infer) on data (Inference.h).
//
//===----------------------------------------------------------------------===//

#include "driver/Agreement.h"
#include "driver/Denormals.h"
#include "driver/Generation.h"
#include "driver/Inference.h"
#include "driver/Metadata.h"
#include "driver/Options.h"
#include "driver/PipelineTrainer.h"
#include "driver/Threads.h"
#include "driver/Trainer.h"
#include "executor/Context.h"
#include "tessel/runtime/comm.h"

#include <fmt/format.h>
#include <mpi.h>

#include <cstdio>
#include <cstring>

extern "C" {
extern const char tessel_program_metadata[];
// The compiled functions, in the order the metadata lists them.
extern const tessel_function_t tessel_program_functions[];
}

using namespace tessel;
using namespace tessel::driver;

namespace {

/// The compiled function that the metadata calls `name`, or null.
tessel_function_t functionNamed(const ProgramMetadata &metadata,
                                const std::string &name) {
  for (size_t i = 0; i < metadata.functions.size(); ++i)
    if (metadata.functions[i].name == name)
      return tessel_program_functions[i];
  return nullptr;
}

int run(int argc, char **argv, int64_t rank, int64_t ranks) {
  std::string error;
  std::optional<ProgramMetadata> metadata =
      parseMetadata(tessel_program_metadata, error);
  if (anyRankFailed(rank, metadata ? std::nullopt
                                   : std::optional<std::string>(error)))
    return 1;
  // A training program has a train_step, or stage functions when it is
  // pipelined; a forward-only one (tessel compile --mode infer) has
  // neither, and takes the command line of inference.
  bool pipelined = metadata->pipeline.has_value();
  bool training = pipelined || metadata->findFunction("train_step") != nullptr;
  // `PROGRAM generate ...` continues prompts with a language model's decode
  // function (Generation.h), in a program of either kind.
  bool generating = argc > 1 && std::strcmp(argv[1], "generate") == 0;
  int status = 0;
  std::optional<Options> options;
  std::optional<InferenceOptions> inferenceOptions;
  std::optional<GenerationOptions> generationOptions;
  if (generating)
    generationOptions =
        parseGenerationOptions(argc - 1, argv + 1, rank == 0, status);
  else if (training)
    options = parseOptions(argc, argv, rank == 0, status);
  else
    inferenceOptions = parseInferenceOptions(argc, argv, rank == 0, status);
  if (!options && !inferenceOptions && !generationOptions)
    return status;
  const layout::Mesh &mesh = metadata->mesh;
  if (mesh.numRanks() != ranks) {
    if (rank == 0)
      std::fprintf(stderr,
                   "tessel: the program's mesh %s needs %lld ranks, but "
                   "mpirun started %lld\n",
                   describeMesh(mesh).c_str(),
                   static_cast<long long>(mesh.numRanks()),
                   static_cast<long long>(ranks));
    return 1;
  }

  shareCoresAmongLocalRanks();
  flushDenormalsUnlessKept();
  std::vector<const char *> axes;
  for (const std::string &axis : mesh.axisNames())
    axes.push_back(axis.c_str());
  tessel_comm_t *comm = nullptr;
  if (tessel_comm_create(static_cast<int32_t>(axes.size()), axes.data(),
                         mesh.axisSizes().data(), &comm) != TESSEL_STATUS_OK) {
    error = tessel_last_error_message();
    anyRankFailed(rank, error);
    return 1;
  }
  runtime::ContextPtr context = runtime::createContext(comm, mesh, error);
  if (anyRankFailed(rank, context ? std::nullopt
                                  : std::optional<std::string>(error))) {
    tessel_comm_destroy(comm);
    return 1;
  }
  if (generating)
    status = generate(*generationOptions, *metadata,
                      functionNamed(*metadata, "decode"), context.get(), rank);
  else if (pipelined)
    status = trainPipelined(
        *options, *metadata,
        [&](const std::string &name) { return functionNamed(*metadata, name); },
        context.get(), rank);
  else if (training)
    status = train(*options,
                   {&*metadata, functionNamed(*metadata, "init"),
                    functionNamed(*metadata, "train_step"),
                    functionNamed(*metadata, "evaluate")},
                   context.get(), rank);
  else
    status = infer(*inferenceOptions, *metadata, tessel_program_functions,
                   context.get(), rank);
  context.reset();
  tessel_comm_destroy(comm);
  return status;
}

} // namespace

int main(int argc, char **argv) {
  tessel_comm_choose_mpi_algorithms();
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int status = run(argc, argv, rank, ranks);
  MPI_Finalize();
  return status;
}
