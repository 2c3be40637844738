//===- LowerToRuntime.cpp - per-rank functions to runtime calls -----------===//
//
// Implements tessel-lower-to-runtime. Every tessel op becomes one call of
// tessel_rt_execute with a descriptor of the op, or a collective two calls,
// tessel_rt_start where the op is and tessel_rt_wait before its first
// user, so that the ops in between run while its data moves; this pass
// decides the buffers: one per op result, allocated before the op and
// freed after the op that uses it last (a started collective's operand
// after its wait), but for a rename or reshape of a dying operand, whose
// result keeps the operand's buffer.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "dialect/StartedCollectives.h"

#include "codegen/Descriptors.h"

#include <cassert>
#include <cstdint>

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELLOWERTORUNTIME
#include "codegen/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Runtime calls per basic block of a compiled function (see lower()).
constexpr int64_t kOpsPerBlock = 256;

/// Returns the bytes of one element as the runtime stores it (i1 as a byte).
int64_t elementBytes(Type type) {
  if (type.isInteger(1))
    return 1;
  return (type.getIntOrFloatBitWidth() + 7) / 8;
}

int64_t bufferBytes(Type type) {
  auto tensor = cast<NamedTensorType>(type);
  return std::max<int64_t>(1, tensor.getNumElements()) *
         elementBytes(tensor.getElementType());
}

/// Builds the LLVM dialect side of the module: the runtime's declarations,
/// read-only strings and one compiled function per tessel function.
class RuntimeLowering {
public:
  RuntimeLowering(ModuleOp module, bool overlapCommunication)
      : overlapCommunication(overlapCommunication), module(module),
        builder(module.getContext()),
        ptrType(LLVM::LLVMPointerType::get(module.getContext())),
        i64Type(builder.getI64Type()), i32Type(builder.getI32Type()) {}

  LogicalResult run();

private:
  void declareRuntime();
  LLVM::GlobalOp addString(StringRef name, StringRef value,
                           LLVM::Linkage linkage);
  LLVM::GlobalOp addCacheSlot(StringRef name);
  Value constantI64(int64_t value, Location loc) {
    return LLVM::ConstantOp::create(builder, loc, i64Type,
                                    builder.getI64IntegerAttr(value));
  }
  /// Returns the address of element `index` of a pointer array.
  Value element(Value array, int64_t index, Location loc) {
    // A constant GEP index is 32 bits; arrays here hold a function's
    // arguments, results or one op's operands.
    assert(index >= 0 && index <= INT32_MAX && "array index out of range");
    return LLVM::GEPOp::create(
        builder, loc, ptrType, ptrType, array,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index)});
  }
  LogicalResult lower(func::FuncOp func);
  void addFunctionTable(ArrayRef<func::FuncOp> functions);

  bool overlapCommunication;
  ModuleOp module;
  OpBuilder builder;
  Type ptrType, i64Type, i32Type;
  LLVM::LLVMFuncOp allocFn, freeFn, executeFn, startFn, waitFn;
  unsigned numGlobals = 0;
};

void RuntimeLowering::declareRuntime() {
  builder.setInsertionPointToStart(module.getBody());
  MLIRContext *context = module.getContext();
  Type voidType = LLVM::LLVMVoidType::get(context);
  Location loc = module.getLoc();
  allocFn = LLVM::LLVMFuncOp::create(
      builder, loc, "tessel_rt_alloc",
      LLVM::LLVMFunctionType::get(ptrType, {ptrType, i64Type}));
  freeFn = LLVM::LLVMFuncOp::create(
      builder, loc, "tessel_rt_free",
      LLVM::LLVMFunctionType::get(voidType, {ptrType, ptrType}));
  executeFn = LLVM::LLVMFuncOp::create(
      builder, loc, "tessel_rt_execute",
      LLVM::LLVMFunctionType::get(
          voidType, {ptrType, ptrType, ptrType, ptrType, i32Type, ptrType}));
  startFn = LLVM::LLVMFuncOp::create(
      builder, loc, "tessel_rt_start",
      LLVM::LLVMFunctionType::get(
          voidType, {ptrType, ptrType, ptrType, ptrType, i32Type, ptrType}));
  waitFn = LLVM::LLVMFuncOp::create(
      builder, loc, "tessel_rt_wait",
      LLVM::LLVMFunctionType::get(voidType, {ptrType, ptrType}));
}

LLVM::GlobalOp RuntimeLowering::addString(StringRef name, StringRef value,
                                          LLVM::Linkage linkage) {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module.getBody());
  std::string text = (value + Twine('\0')).str();
  auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), text.size());
  return LLVM::GlobalOp::create(builder, module.getLoc(), type,
                                /*isConstant=*/true, linkage, name,
                                builder.getStringAttr(text));
}

// A slot the runtime fills with its parsed form of one op's descriptor.
LLVM::GlobalOp RuntimeLowering::addCacheSlot(StringRef name) {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module.getBody());
  auto slot = LLVM::GlobalOp::create(
      builder, module.getLoc(), ptrType,
      /*isConstant=*/false, LLVM::Linkage::Internal, name, Attribute());
  Block *init = builder.createBlock(&slot.getInitializerRegion());
  builder.setInsertionPointToStart(init);
  Value null = LLVM::ZeroOp::create(builder, module.getLoc(), ptrType);
  LLVM::ReturnOp::create(builder, module.getLoc(), null);
  return slot;
}

// tessel_program_functions: the compiled functions in the metadata's order,
// so that the driver calls any function the metadata names (a forward-only
// program's `predict`, say) without a symbol fixed in advance.
void RuntimeLowering::addFunctionTable(ArrayRef<func::FuncOp> functions) {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module.getBody());
  Location loc = module.getLoc();
  auto type = LLVM::LLVMArrayType::get(ptrType, functions.size());
  auto table = LLVM::GlobalOp::create(builder, loc, type, /*isConstant=*/true,
                                      LLVM::Linkage::External,
                                      "tessel_program_functions", Attribute());
  builder.setInsertionPointToStart(
      builder.createBlock(&table.getInitializerRegion()));
  Value entries = LLVM::UndefOp::create(builder, loc, type);
  for (int64_t index = 0, e = functions.size(); index < e; ++index) {
    func::FuncOp func = functions[index];
    Value address = LLVM::AddressOfOp::create(
        builder, loc, ptrType, compiledFunctionSymbol(func.getSymName()));
    entries = LLVM::InsertValueOp::create(builder, loc, entries, address,
                                          ArrayRef<int64_t>{index});
  }
  LLVM::ReturnOp::create(builder, loc, entries);
}

/// The runtime computes a fused body's floats (f32, bf16, f16) in f32
/// registers, with i1 conditions: anything else is refused here, at compile
/// time, rather than when the program first runs the op.
static LogicalResult checkFusedTypes(FusedOp fused) {
  auto isFloat = [](Type type) {
    Type element = cast<NamedTensorType>(type).getElementType();
    return element.isF32() || element.isBF16() || element.isF16();
  };
  auto isComputable = [&](Type type) {
    return isFloat(type) ||
           cast<NamedTensorType>(type).getElementType().isInteger(1);
  };
  for (Type type : fused.getResultTypes())
    if (!isFloat(type))
      return fused.emitError() << "tessel-lower-to-runtime: the runtime "
                                  "computes fused ops in f32, bf16 or f16, "
                                  "but this one gives "
                               << type;
  WalkResult walk = fused.getBody().walk([&](Operation *op) {
    for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults()))
      if (isa<NamedTensorType>(value.getType()) &&
          !isComputable(value.getType())) {
        op->emitError() << "tessel-lower-to-runtime: the runtime computes "
                           "fused bodies in f32, bf16 or f16 (with i1 "
                           "conditions), but '"
                        << op->getName() << "' here has " << value.getType();
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult RuntimeLowering::lower(func::FuncOp func) {
  Location loc = func.getLoc();
  Block &body = func.getBody().front();
  for (Operation &op : body.without_terminator())
    if (!isLoweredAsOneCall(&op))
      return op.emitError()
             << "tessel-lower-to-runtime cannot lower '" << op.getName() << "'";
  for (auto fused : body.getOps<FusedOp>())
    if (failed(checkFusedTypes(fused)))
      return failure();

  // Each started collective is waited for right before its first user
  // (the terminator when only returned): the ops in between overlap it.
  // Each buffer is freed after the op that uses it last.
  BufferLifetimes lifetimes = bufferLifetimes(body, overlapCommunication);

  builder.setInsertionPointToEnd(module.getBody());
  auto compiled = LLVM::LLVMFuncOp::create(
      builder, loc, compiledFunctionSymbol(func.getSymName()),
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(func.getContext()),
                                  {ptrType, ptrType, ptrType}));
  Block *entry = compiled.addEntryBlock(builder);
  builder.setInsertionPointToStart(entry);
  Value context = entry->getArgument(0);
  Value arguments = entry->getArgument(1);
  Value results = entry->getArgument(2);

  // One operand array, as large as the largest op needs, reused by every
  // call: an op's operands, then the buffers of its results after the
  // first (program.h).
  int64_t maxOperands = 1;
  for (Operation &op : body)
    maxOperands = std::max<int64_t>(
        maxOperands,
        op.getNumOperands() + std::max<int64_t>(op.getNumResults(), 1) - 1);
  Value operandArray = LLVM::AllocaOp::create(
      builder, loc, ptrType, LLVM::LLVMArrayType::get(ptrType, maxOperands),
      constantI64(1, loc));

  llvm::DenseMap<Value, Value> buffers;
  // The call site slot of each started collective, which its wait names.
  llvm::DenseMap<Operation *, LLVM::GlobalOp> startSites;
  auto emitWaitsBefore = [&](Operation *user) {
    for (Operation *collective : lifetimes.waitsBefore.lookup(user)) {
      Location waitLoc = collective->getLoc();
      LLVM::CallOp::create(
          builder, waitLoc, waitFn,
          ValueRange{context,
                     LLVM::AddressOfOp::create(builder, waitLoc,
                                               startSites.lookup(collective))});
    }
  };
  // Frees the buffers whose last use is `op` (arguments are the caller's).
  auto freeDeadAfter = [&](Operation *op) {
    for (Value dead : lifetimes.deadAfter.lookup(op))
      if (!isa<BlockArgument>(dead))
        LLVM::CallOp::create(builder, op->getLoc(), freeFn,
                             ValueRange{context, buffers.lookup(dead)});
  };
  for (BlockArgument argument : body.getArguments())
    buffers[argument] =
        LLVM::LoadOp::create(builder, loc, ptrType,
                             element(arguments, argument.getArgNumber(), loc));

  // The calls go in blocks of kOpsPerBlock ops, each branching to the next:
  // the backend's fast register allocator takes time that grows with the
  // square of a block's length (one block of a 96-block Transformer's
  // step took 3.4 times as long as one of 48 blocks), and linearly with
  // the number of blocks.
  int64_t opsInBlock = 0;
  for (Operation &op : body.without_terminator()) {
    Location opLoc = op.getLoc();
    if (++opsInBlock > kOpsPerBlock) {
      opsInBlock = 1;
      Block *next = builder.createBlock(&compiled.getBody());
      builder.setInsertionPointToEnd(next->getPrevNode());
      LLVM::BrOp::create(builder, opLoc, ValueRange{}, next);
      builder.setInsertionPointToStart(next);
    }
    emitWaitsBefore(&op);
    // A rename or reshape that keeps its dying operand's buffer runs no
    // kernel (BufferLifetimes::reusesOperand).
    if (lifetimes.reusesOperand.count(&op)) {
      buffers[op.getResult(0)] = buffers.lookup(op.getOperand(0));
      freeDeadAfter(&op);
      continue;
    }
    std::string descriptor;
    llvm::raw_string_ostream os(descriptor);
    os << llvm::json::Value(describeOp(&op));
    unsigned id = numGlobals++;
    LLVM::GlobalOp text = addString(("tessel_op_" + Twine(id)).str(),
                                    descriptor, LLVM::Linkage::Internal);
    LLVM::GlobalOp slot = addCacheSlot(("tessel_site_" + Twine(id)).str());

    for (Value value : op.getResults())
      buffers[value] =
          LLVM::CallOp::create(
              builder, opLoc, allocFn,
              ValueRange{context,
                         constantI64(bufferBytes(value.getType()), opLoc)})
              .getResult();
    Value result = buffers.lookup(op.getResult(0));
    SmallVector<Value> passed(op.getOperands());
    llvm::append_range(passed, op.getResults().drop_front());
    for (auto [index, value] : llvm::enumerate(passed))
      LLVM::StoreOp::create(builder, opLoc, buffers.lookup(value),
                            element(operandArray, index, opLoc));
    Value count = LLVM::ConstantOp::create(
        builder, opLoc, i32Type, builder.getI32IntegerAttr(passed.size()));
    bool started = lifetimes.waitBefore.count(&op) != 0;
    if (started)
      startSites[&op] = slot;
    LLVM::CallOp::create(
        builder, opLoc, started ? startFn : executeFn,
        ValueRange{context, LLVM::AddressOfOp::create(builder, opLoc, slot),
                   LLVM::AddressOfOp::create(builder, opLoc, text),
                   operandArray, count, result});
    freeDeadAfter(&op);
  }

  // The caller owns every result buffer, so an argument or a value returned
  // twice is handed out as a copy.
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  emitWaitsBefore(ret);
  for (Value dead : lifetimes.deadAtReturn)
    if (!isa<BlockArgument>(dead))
      LLVM::CallOp::create(builder, ret.getLoc(), freeFn,
                           ValueRange{context, buffers.lookup(dead)});
  llvm::DenseSet<Value> handedOut;
  for (auto [index, value] : llvm::enumerate(ret.getOperands())) {
    Value buffer = buffers.lookup(value);
    if (isa<BlockArgument>(value) || !handedOut.insert(value).second) {
      Value bytes = constantI64(bufferBytes(value.getType()), ret.getLoc());
      Value copy = LLVM::CallOp::create(builder, ret.getLoc(), allocFn,
                                        ValueRange{context, bytes})
                       .getResult();
      LLVM::MemcpyOp::create(builder, ret.getLoc(), copy, buffer, bytes,
                             /*isVolatile=*/false);
      buffer = copy;
    }
    LLVM::StoreOp::create(builder, ret.getLoc(), buffer,
                          element(results, index, ret.getLoc()));
  }
  LLVM::ReturnOp::create(builder, ret.getLoc(), ValueRange{});
  return success();
}

LogicalResult RuntimeLowering::run() {
  SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
  // The metadata describes the functions as they are before lowering.
  std::string metadata;
  llvm::raw_string_ostream os(metadata);
  os << llvm::json::Value(describeProgram(module));
  declareRuntime();
  addString("tessel_program_metadata", metadata, LLVM::Linkage::External);
  for (func::FuncOp func : functions) {
    if (func.isExternal())
      return func.emitError() << "tessel-lower-to-runtime: function '"
                              << func.getSymName() << "' has no body";
    if (failed(lower(func)))
      return failure();
  }
  addFunctionTable(functions);
  for (func::FuncOp func : functions)
    func.erase();
  // The mesh and the layouts now live in the metadata.
  module->removeAttr("tessel.mesh");
  return success();
}

struct TesselLowerToRuntimePass
    : mlir::tessel::impl::TesselLowerToRuntimeBase<TesselLowerToRuntimePass> {
  using TesselLowerToRuntimeBase::TesselLowerToRuntimeBase;
  void runOnOperation() final {
    if (failed(RuntimeLowering(getOperation(), overlapCommunication).run()))
      signalPassFailure();
  }
};

} // namespace
