//===- CheckpointFuzzer.cpp - libFuzzer target for checkpoint files -------===//
//
// Feeds arbitrary bytes, as the contents of a checkpoint file, to the
// driver's reader (readCheckpoint) for a small fixed program on rank 1 of a
// 2-rank mesh: a weight split over the mesh, a replicated bias, a bf16
// optimizer state and an i64 step count. Any error is a correct answer; a
// crash, a sanitizer report or an exception that escapes the reader is a
// bug. Beyond not crashing, a refusal must name the file (every message
// starts "checkpoint PATH: "), and an accepted file must have given a step
// count of at least 0.
//
//===----------------------------------------------------------------------===//

#include "Require.h"
#include "driver/Checkpoint.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using namespace tessel;
using namespace tessel::driver;

namespace {

/// Aborts, naming this fuzzer, when the reader breaks the promise `what`.
void require(bool condition, const char *what) {
  tessel::fuzz::requireOrAbort(condition, "CheckpointFuzzer", what);
}

/// A value of the program; `axes` splits its dims over the mesh.
ValueSpec value(const layout::Mesh &mesh, const std::string &name,
                std::vector<std::string> dims, std::vector<int64_t> shape,
                std::vector<layout::AxisList> axes, ref::ElementType type) {
  layout::TensorLayout tensorLayout{dims, shape, axes};
  TensorType global{dims, shape, type};
  TensorType local{dims, layout::localShape(mesh, tensorLayout), type};
  return {name, global, local, axes};
}

/// The program: its mesh, its state and a buffer for each tensor's block.
struct Program {
  layout::Mesh mesh{{"data"}, {2}};
  std::vector<ValueSpec> specs = {
      value(mesh, "w", {"pixels", "classes"}, {4, 3}, {{"data"}, {}},
            ref::ElementType::F32),
      value(mesh, "b", {"classes"}, {3}, {{}}, ref::ElementType::F32),
      value(mesh, "w.adam_m", {"pixels", "classes"}, {4, 3}, {{"data"}, {}},
            ref::ElementType::BF16),
      value(mesh, "step", {}, {}, {}, ref::ElementType::I64)};
  std::vector<std::vector<unsigned char>> blocks;
  std::vector<StateTensor> tensors;

  Program() {
    for (const ValueSpec &spec : specs)
      blocks.emplace_back(static_cast<size_t>(spec.local.numBytes()));
    for (size_t i = 0; i < specs.size(); ++i)
      tensors.push_back({&specs[i], blocks[i].data()});
  }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static Program program;
  std::istringstream file(
      std::string(reinterpret_cast<const char *>(data), size));
  int64_t step = -1;
  std::string error;
  bool ok = readCheckpoint(file, size, "fuzz.safetensors", program.tensors,
                           program.mesh, /*rank=*/1, step, error);
  if (!ok)
    require(error.rfind("checkpoint fuzz.safetensors: ", 0) == 0,
            "refused a file without a message naming it");
  else
    require(step >= 0, "accepted a negative step count");
  return 0;
}
