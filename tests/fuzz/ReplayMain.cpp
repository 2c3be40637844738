//===- ReplayMain.cpp - Runs a fuzz target over files, without libFuzzer --===//
//
// main() for a fuzz target built without libFuzzer (any compiler): calls
// LLVMFuzzerTestOneInput once per file named on the command line, so that
// the normal test suite replays every seed and every kept crash input of
// tests/fuzz/corpus. A target reports a bug by crashing or aborting, as
// under libFuzzer.
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    std::ifstream file(argv[i], std::ios::binary);
    if (!file) {
      std::fprintf(stderr, "replay: cannot read %s\n", argv[i]);
      return 1;
    }
    std::string bytes((std::istreambuf_iterator<char>(file)), {});
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()),
                           bytes.size());
  }
  std::printf("replay: %d inputs, no crash\n", argc - 1);
  return 0;
}
