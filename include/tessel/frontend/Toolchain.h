//===- Toolchain.h - explain, compile and run a front-end model -*- C++ -*-===//
//
// A model built with the front end goes through exactly the pipeline of the
// `tessel` command: these functions write the module to a temporary file
// and run `tessel explain`, `tessel compile` or `tessel run` on it. The
// `tessel` executable is found through $TESSEL_TOOL, then beside the
// installed front-end library, then the build tree, then $PATH.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_FRONTEND_TOOLCHAIN_H
#define TESSEL_FRONTEND_TOOLCHAIN_H

#include "tessel/frontend/Model.h"

namespace tessel {

/// Where the model is split: a YAML layout file, or a mesh and rules string
/// (`"data:2;model:2"`, `"batch:data;hidden:model"`).
struct Layout {
  std::string file;
  std::string mesh;
  std::string rules;
  bool padUneven = false;

  static Layout fromFile(std::string path) {
    Layout layout;
    layout.file = std::move(path);
    return layout;
  }
  static Layout fromMesh(std::string mesh, std::string rules) {
    Layout layout;
    layout.mesh = std::move(mesh);
    layout.rules = std::move(rules);
    return layout;
  }
};

/// `tessel explain --format json`: what the layout costs per rank.
/// Returns the JSON text; throws Error with the tool's message on failure.
std::string explain(const Model &model, const Layout &layout,
                    const std::string &function = "forward");

struct CompileOptions {
  std::string optimizer = "sgd";
  std::string precision = "f32";
  /// Any further `tessel compile` flags ("--clip-norm=1").
  std::vector<std::string> extraFlags;
};

/// `tessel compile`: the SPMD executable at `output`.
void compile(const Model &model, const Layout &layout,
             const std::string &output, const CompileOptions &options = {});

struct RunResult {
  int exitCode = 0;
  /// The program's metrics file: one JSON object per line.
  std::vector<std::string> metrics;
};

/// `tessel run`: compiles, then runs the program on `ranks` ranks (0: the
/// mesh's) under mpirun with `programArgs` (`--steps 100`, `--data DIR`).
/// Output goes to this process's stdout and stderr.
RunResult run(const Model &model, const Layout &layout, int ranks,
              const std::vector<std::string> &programArgs,
              const CompileOptions &options = {});

/// The path of the `tessel` executable these functions run.
std::string toolPath();

} // namespace tessel

#endif // TESSEL_FRONTEND_TOOLCHAIN_H
