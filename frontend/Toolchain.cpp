//===- Toolchain.cpp - the tessel command on a front-end model ------------===//

#include "tessel/frontend/Toolchain.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <fmt/format.h>

#include <cstdlib>
#include <dlfcn.h>

namespace tessel {

namespace {

/// A temporary file that is removed when it goes out of scope.
class TemporaryFile {
public:
  TemporaryFile(const char *prefix, const char *suffix) {
    if (std::error_code code =
            llvm::sys::fs::createTemporaryFile(prefix, suffix, path))
      throw Error(fmt::format("no temporary file: {}", code.message()));
  }
  ~TemporaryFile() { llvm::sys::fs::remove(path); }
  std::string str() const { return std::string(path.str()); }

private:
  llvm::SmallString<128> path;
};

std::string readWhole(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

void addLayout(std::vector<std::string> &args, const Layout &layout) {
  if (layout.file.empty() == layout.mesh.empty())
    throw Error("a layout is a file or a mesh (with rules), one of them");
  if (!layout.file.empty()) {
    args.push_back("--layout=" + layout.file);
  } else {
    args.push_back("--mesh=" + layout.mesh);
    if (!layout.rules.empty())
      args.push_back("--rules=" + layout.rules);
  }
  if (layout.padUneven)
    args.push_back("--pad-uneven");
}

void addCompileOptions(std::vector<std::string> &args,
                       const CompileOptions &options) {
  args.push_back("--optimizer=" + options.optimizer);
  args.push_back("--precision=" + options.precision);
  args.insert(args.end(), options.extraFlags.begin(), options.extraFlags.end());
}

/// Runs the tessel tool with `args`; stdout goes to `stdoutPath` when it is
/// given, stderr to `stderrPath` when given. Returns the exit status.
int runTool(const std::vector<std::string> &args,
            std::optional<std::string> stdoutPath = std::nullopt,
            std::optional<std::string> stderrPath = std::nullopt) {
  std::string tool = toolPath();
  std::vector<llvm::StringRef> argv{tool};
  argv.insert(argv.end(), args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[3] = {std::nullopt, std::nullopt,
                                                 std::nullopt};
  if (stdoutPath)
    redirects[1] = llvm::StringRef(*stdoutPath);
  if (stderrPath)
    redirects[2] = llvm::StringRef(*stderrPath);
  std::string message;
  int status = llvm::sys::ExecuteAndWait(tool, argv, std::nullopt, redirects,
                                         0, 0, &message);
  if (status < 0)
    throw Error(fmt::format("cannot run {}: {}", tool, message));
  return status;
}

/// The tool's stderr, trimmed, for an Error.
std::string failure(const char *command, const std::string &stderrText) {
  llvm::StringRef text = llvm::StringRef(stderrText).trim();
  return fmt::format("tessel {} failed{}{}", command, text.empty() ? "" : ": ",
                     text.str());
}

} // namespace

std::string toolPath() {
  if (const char *fromEnv = std::getenv("TESSEL_TOOL"))
    return fromEnv;
  // Beside the library: <prefix>/lib/libTesselFrontend.so ->
  // <prefix>/bin/tessel, in the build tree and in an installation alike.
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&toolPath), &info) && info.dli_fname) {
    llvm::SmallString<256> candidate(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(
            info.dli_fname)));
    llvm::sys::path::append(candidate, "bin", "tessel");
    if (llvm::sys::fs::can_execute(candidate))
      return std::string(candidate.str());
  }
  if (llvm::sys::fs::can_execute(TESSEL_BUILD_TOOL))
    return TESSEL_BUILD_TOOL;
  if (auto onPath = llvm::sys::findProgramByName("tessel"))
    return *onPath;
  throw Error("cannot find the tessel executable: set TESSEL_TOOL");
}

std::string explain(const Model &model, const Layout &layout,
                    const std::string &function) {
  TemporaryFile source("tessel-model", "mlir");
  TemporaryFile out("tessel-explain", "json");
  TemporaryFile err("tessel-explain", "err");
  model.write(source.str(), /*locations=*/true);
  std::vector<std::string> args{"explain", source.str(), "--format=json",
                                "--function=" + function};
  addLayout(args, layout);
  if (runTool(args, out.str(), err.str()) != 0)
    throw Error(failure("explain", readWhole(err.str())));
  return readWhole(out.str());
}

void compile(const Model &model, const Layout &layout,
             const std::string &output, const CompileOptions &options) {
  TemporaryFile source("tessel-model", "mlir");
  TemporaryFile err("tessel-compile", "err");
  model.write(source.str(), /*locations=*/true);
  std::vector<std::string> args{"compile", source.str(), "-o", output};
  addLayout(args, layout);
  addCompileOptions(args, options);
  if (runTool(args, std::nullopt, err.str()) != 0)
    throw Error(failure("compile", readWhole(err.str())));
}

RunResult run(const Model &model, const Layout &layout, int ranks,
              const std::vector<std::string> &programArgs,
              const CompileOptions &options) {
  TemporaryFile source("tessel-model", "mlir");
  TemporaryFile metrics("tessel-metrics", "jsonl");
  model.write(source.str(), /*locations=*/true);
  std::vector<std::string> args{"run", source.str()};
  addLayout(args, layout);
  addCompileOptions(args, options);
  if (ranks > 0)
    args.push_back("-n=" + std::to_string(ranks));
  args.push_back("--");
  args.insert(args.end(), programArgs.begin(), programArgs.end());
  args.push_back("--metrics");
  args.push_back(metrics.str());
  RunResult result;
  result.exitCode = runTool(args);
  llvm::SmallVector<llvm::StringRef> lines;
  std::string text = readWhole(metrics.str());
  llvm::StringRef(text).split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines)
    result.metrics.push_back(line.str());
  return result;
}

} // namespace tessel
