//===- MetadataFuzzer.cpp - libFuzzer target for program metadata ---------===//
//
// Feeds arbitrary bytes, as the JSON a compiled program exports about
// itself (tessel_program_metadata), to the driver's parseMetadata. A
// program's metadata is written by tessel compile, but a damaged or
// hand-edited executable hands the driver whatever it holds, so any error
// is a correct answer; a crash, a sanitizer report or an exception that
// escapes the reader is a bug. Beyond not crashing, a refusal must say that
// it is about the metadata, and accepted metadata must describe a mesh of 1
// to 2^31 ranks whose every value's local type is its block under its
// layout, with byte counts the driver can allocate.
//
//===----------------------------------------------------------------------===//

#include "Require.h"
#include "driver/Metadata.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace tessel;
using namespace tessel::driver;

namespace {

/// Aborts, naming this fuzzer, when the reader breaks the promise `what`.
void require(bool condition, const char *what) {
  tessel::fuzz::requireOrAbort(condition, "MetadataFuzzer", what);
}

void checkValue(const layout::Mesh &mesh, const ValueSpec &value) {
  require(value.local.shape == layout::localShape(mesh, value.tensorLayout()),
          "an accepted value's local shape is not its block");
  // The driver allocates every block and copies whole tensors.
  require(value.global.numBytes() >= 0 && value.local.numBytes() >= 0,
          "an accepted value has a negative byte count");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // The program exports a NUL-terminated string.
  std::string text(reinterpret_cast<const char *>(data), size);
  std::string error;
  std::optional<ProgramMetadata> metadata = parseMetadata(text.c_str(), error);
  if (!metadata) {
    require(error.rfind("the program's metadata: ", 0) == 0,
            "a refusal does not say it is about the metadata");
    return 0;
  }
  int64_t ranks = metadata->mesh.numRanks();
  require(ranks >= 1 && ranks <= layout::Mesh::kMaxRanks,
          "an accepted mesh has a rank count outside 1 to 2^31");
  for (const FunctionSpec &function : metadata->functions) {
    for (const ValueSpec &argument : function.arguments)
      checkValue(metadata->mesh, argument);
    for (const ValueSpec &result : function.results)
      checkValue(metadata->mesh, result);
  }
  return 0;
}
