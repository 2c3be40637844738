//===- ModelFuzzer.cpp - libFuzzer target for model files -----------------===//
//
// Parses arbitrary bytes as an MLIR module in a context with the tessel and
// func dialects, the way the tools read a model (tools/support/ModelFile),
// and verifies it. A module that parses and verifies is then laid out on a
// fixed 2 x 2 mesh (tessel-apply-layout), partitioned (tessel-partition) and
// its communication optimised (tessel-optimize-comm), as `tessel explain`
// and `tessel compile` do, and also partitioned and optimised as it is, and
// optimised alone. On the same mesh it is then explained as `tessel explain
// --mesh` explains each of its functions: the cost report (tensors, FLOPs,
// bytes, collectives) of the laid-out function and of its partitioned
// program, the runtime memory with the machine profile that ships, the step
// time that profile predicts (`tessel search`'s), and both report formats.
// Errors are correct answers; crashes and sanitizer reports are bugs.
//
//===----------------------------------------------------------------------===//

#include "analysis/CostReport.h"
#include "analysis/MachineProfile.h"
#include "analysis/StepTime.h"
#include "codegen/Pipeline.h" // kDefaultBucketBytes only: not linked
#include "dialect/TesselDialect.h"
#include "passes/Passes.h"
#include "tools/support/ModelFile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdint>

using namespace mlir;

namespace {

/// The dimension names of the examples (batch, hidden) and of the lit tests
/// (k) are split, so that those seeds and their mutants reach the
/// partitioner's rules.
constexpr const char *kMesh = "data:2;model:2";
constexpr const char *kRules = "batch:data;hidden:model;k:model";

const DialectRegistry &registry() {
  static const DialectRegistry *dialects = [] {
    auto *r = new DialectRegistry();
    r->insert<mlir::tessel::TesselDialect, func::FuncDialect>();
    return r;
  }();
  return *dialects;
}

/// Runs the analyses of `tessel explain` (tools/tessel/Explain.cpp) on the
/// module laid out on the fixed mesh, for each function in turn, as
/// `--function` names it. explain fails with the passes' diagnostics where
/// they fail; so does this.
void explainEachFunction(ModuleOp input, MLIRContext &context) {
  namespace analysis = ::tessel::analysis;
  OwningOpRef<ModuleOp> laidOut(input.clone());
  PassManager layout(&context);
  layout.addPass(mlir::tessel::createTesselDecomposeEinsum());
  mlir::tessel::TesselApplyLayoutOptions options;
  options.meshSpec = kMesh;
  options.rulesSpec = kRules;
  layout.addPass(mlir::tessel::createTesselApplyLayout(options));
  if (failed(layout.run(*laidOut)))
    return;
  OwningOpRef<ModuleOp> partitioned(laidOut->clone());
  // codegen's buildPartitionPipeline with explain's default --bucket-bytes,
  // spelt out so that the fuzzer need not link the code generator (LLVM's
  // back end).
  PassManager partition(&context);
  partition.addPass(mlir::tessel::createTesselPartition());
  partition.addPass(mlir::tessel::createTesselOptimizeComm());
  partition.addPass(createCSEPass());
  mlir::tessel::TesselBucketAllReducesOptions bucket;
  bucket.maxBytes = mlir::tessel::kDefaultBucketBytes;
  partition.addNestedPass<func::FuncOp>(
      mlir::tessel::createTesselBucketAllReduces(bucket));
  if (failed(partition.run(*partitioned)))
    return;
  // explain counts partitioned costs before fusion, and the runtime memory
  // and the step time after it (and after the overlap passes, which live
  // in the codegen library this fuzzer does not link: the fused program
  // is a step in another order, as good an input).
  OwningOpRef<ModuleOp> fused(partitioned->clone());
  PassManager fuse(&context);
  fuse.addNestedPass<func::FuncOp>(mlir::tessel::createTesselFuseElementwise());
  if (failed(fuse.run(*fused)))
    return;
  const analysis::MachineProfile &profile = analysis::defaultMachineProfile();
  for (func::FuncOp func : laidOut->getOps<func::FuncOp>()) {
    StringRef name = func.getSymName();
    analysis::CostReport report = analysis::buildCostReport(func);
    analysis::addPartitionedCosts(
        report, partitioned->lookupSymbol<func::FuncOp>(name));
    analysis::addRuntimeMemory(report, fused->lookupSymbol<func::FuncOp>(name),
                               name == "train_step"
                                   ? fused->lookupSymbol<func::FuncOp>("init")
                                   : func::FuncOp(),
                               profile);
    (void)analysis::memoryBytesPerRank(report);
    (void)analysis::predictStepTime(fused->lookupSymbol<func::FuncOp>(name),
                                    report, profile);
    (void)analysis::formatText(report);
    (void)analysis::formatJson(report);
  }
}

} // namespace

/// Turns off AddressSanitizer's user poisoning. LLVM's BumpPtrAllocator
/// poisons the slabs it allocates when it is compiled with ASan, as its
/// inline code in tessel's instrumented objects is, and unpoisons each
/// allocation; but libMLIR.so is not instrumented, so what MLIR allocates
/// in the same slabs (types and attributes it uniques) stays poisoned, and
/// tessel's first read of one is a false use-after-poison (in ConcatOp's
/// parser on the first seed). Everything else ASan checks stays on. As a
/// default option it also applies when a crash file is replayed by hand.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A fresh context per input, so that no uniqued type or attribute of one
  // input changes how the next one is handled and memory does not grow over
  // a long run. Threading off: the fuzzer runs one input at a time.
  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  // Errors are expected; swallow them rather than print thousands a second.
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });

  // The bytes are copied into a buffer of their own, as the tools read a
  // model file (ModelFile: a null-terminated MemoryBuffer in a SourceMgr).
  // MLIR's lexer relies on the null terminator that a MemoryBuffer
  // guarantees; parseSourceString on libFuzzer's bare, unterminated bytes
  // read one byte past their end.
  StringRef text(reinterpret_cast<const char *>(data), size);
  // The tools refuse brackets nested past kMaxModelNesting before parsing
  // (MLIR's recursive parser would overflow the stack); so does the harness.
  if (mlir::tessel::tooDeeplyNested(text))
    return 0;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.mlir"), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module || failed(verify(*module)))
    return 0;

  // Three pipelines, each on its own copy, as the tools and the lit tests
  // run them: a model laid out on the fixed mesh and partitioned; a model
  // that carries its own mesh and layouts, partitioned; a per-rank program
  // whose communication is optimised.
  auto run = [&](ModuleOp input, bool applyLayout, bool partition) {
    OwningOpRef<ModuleOp> copy(input.clone());
    PassManager pm(&context);
    if (applyLayout) {
      mlir::tessel::TesselApplyLayoutOptions layout;
      layout.meshSpec = kMesh;
      layout.rulesSpec = kRules;
      pm.addPass(mlir::tessel::createTesselApplyLayout(layout));
    }
    if (partition)
      pm.addPass(mlir::tessel::createTesselPartition());
    pm.addPass(mlir::tessel::createTesselOptimizeComm());
    (void)pm.run(*copy);
  };
  run(*module, /*applyLayout=*/true, /*partition=*/true);
  run(*module, /*applyLayout=*/false, /*partition=*/true);
  run(*module, /*applyLayout=*/false, /*partition=*/false);
  explainEachFunction(*module, context);
  return 0;
}
