//===- Generation.h - Text generation with a decode function ----*- C++ -*-===//
//
// `PROGRAM generate --checkpoint-dir DIR --prompt TEXT ...` continues
// prompts with a language model that defines
//
//   decode(token [batch], position (integer scalar), state...)
//       -> (logits [batch, vocab], state...)
//
// one position of every sequence in a batch (examples/gpt's decode, whose
// state is each block's key/value cache). The driver reads the parameters
// (the arguments with a role) from a checkpoint written under any layout,
// feeds each prompt's bytes one position at a time, then the tokens it
// picks from the logits (Sampling.h), carrying every argument that decode
// also returns, by name, from call to call (zeros at first; the same
// global tensor under the same layout, CarriedState.h); the context
// ends at the size of that state's `key` dimension. Rank 0 assembles the
// logits and picks the tokens (each prompt drawing from its own generator,
// seeded with --seed and its index), and every rank feeds the same ones, so
// the text depends on the model, the prompt and the options, never on the
// layout or on the prompts that share its batch.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_GENERATION_H
#define TESSEL_RUNTIME_DRIVER_GENERATION_H

#include "driver/Metadata.h"
#include "driver/Sampling.h"
#include "tessel/runtime/program.h"

#include <optional>
#include <string>
#include <vector>

namespace tessel::driver {

struct GenerationOptions {
  std::vector<std::string> prompts;
  /// A file of prompts, one per line (added after `prompts`).
  std::string promptFile;
  /// A checkpoint file, or a directory whose latest checkpoint is read.
  std::string checkpoint;
  /// Tokens to generate per prompt (fewer where the context ends first).
  int64_t maxTokens = 64;
  SamplingOptions sampling;
  uint64_t seed = 0;
  /// Write one JSON line per prompt (prompt, text, tokens, context_full)
  /// and one of the totals to this file.
  std::string outputFile;
  /// Print only the generated text, not the prompts before it.
  bool quiet = false;
};

/// Parses the command line after `generate` (argv[0] is "generate").
/// Returns the options, or the exit status when the program should stop.
std::optional<GenerationOptions>
parseGenerationOptions(int argc, char **argv, bool print, int &exitStatus);

/// Generates text as the options say with the program's `decode`;
/// collective over MPI_COMM_WORLD. Returns the exit status (errors agreed
/// on by every rank and printed once).
int generate(const GenerationOptions &options, const ProgramMetadata &metadata,
             tessel_function_t decode, tessel_context_t *context, int64_t rank);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_GENERATION_H
