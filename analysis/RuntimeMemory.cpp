//===- RuntimeMemory.cpp - the memory a rank's runtime holds --------------===//

#include "analysis/RuntimeMemory.h"

#include "analysis/CostReport.h"
#include "dialect/StartedCollectives.h"
#include "layouts/CheckedArithmetic.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::tessel;

namespace {

// Counts saturate at 2^63 - 1 instead of wrapping (layouts/
// CheckedArithmetic.h), as tessel explain's other counts do.
using ::tessel::kSaturatedCount;
using ::tessel::saturatingAdd;
using ::tessel::saturatingMul;
using ::tessel::saturatingSub;

/// The alignment (and size granule) of runtime/executor/BufferCache.
constexpr int64_t kBufferAlignment = 64;

/// Counts the buffers alive at once, in total and per buffer size.
class BufferLedger {
public:
  void allocate(int64_t bytes) {
    live = saturatingAdd(live, bytes);
    livePeak = std::max(livePeak, live);
    Count &count = counts[bytes];
    count.now += 1;
    count.most = std::max(count.most, count.now);
  }
  void release(int64_t bytes) {
    live = saturatingSub(live, bytes);
    counts[bytes].now -= 1;
  }
  int64_t peak() const { return livePeak; }
  /// For every size, the size times the most buffers of it alive at once.
  int64_t held() const {
    int64_t total = 0;
    for (const auto &[bytes, count] : counts)
      total = saturatingAdd(total, saturatingMul(bytes, count.most));
    return total;
  }
  /// For every size, the most buffers of it alive at once.
  std::map<int64_t, int64_t> mostBySize() const {
    std::map<int64_t, int64_t> most;
    for (const auto &[bytes, count] : counts)
      if (count.most > 0)
        most[bytes] = count.most;
    return most;
  }

private:
  struct Count {
    int64_t now = 0, most = 0;
  };
  std::map<int64_t, Count> counts;
  int64_t live = 0, livePeak = 0;
};

/// Bytes of one element as the runtime stores it (i1 as a byte).
int64_t elementBytes(NamedTensorType type) {
  Type element = type.getElementType();
  return element.isInteger(1) ? 1 : (element.getIntOrFloatBitWidth() + 7) / 8;
}

bool isStateRole(StringAttr role) {
  return role &&
         (role.getValue() == "parameter" ||
          role.getValue() == "optimizer_state" || role.getValue() == "buffer");
}

} // namespace

namespace tessel::analysis {

int64_t RuntimeMemory::totalBytes() const {
  return saturatingAdd(saturatingAdd(saturatingAdd(heldBytes, constantBytes),
                                     saturatingAdd(scratchBytes, stagingBytes)),
                       saturatingAdd(widenedCopyBytes, inFlightBytes));
}

int64_t runtimeBufferBytes(NamedTensorType type) {
  int64_t bytes = saturatingMul(std::max<int64_t>(1, type.getNumElements()),
                                elementBytes(type));
  if (bytes > kSaturatedCount - kBufferAlignment)
    return kSaturatedCount;
  return (bytes + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
}

/// Whether the executor keeps `constant`'s bytes for the process's life: a
/// dense constant's, which each call copies; a splat fills its result with
/// one value instead.
static bool keepsItsBytes(ConstantOp constant) {
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  return dense && !dense.isSplat();
}

/// Whether the CPU runtime computes `op` on its f32 kernel between
/// conversions where one of its tensors has element type `element`
/// (runtime/executor/WidenedOps.cpp): an f16 tensor of an op that
/// computes, which oneDNN 2.6 has no fast kernels for; a bf16 tensor of
/// the ops with no bf16 kernel (one_hot, the fused softmax cross-entropy,
/// cumsum), of a reduction or a pooling (oneDNN's bf16 ones are slower),
/// and of an einsum or convolution where `bf16` says so (their bf16
/// kernels are slower than the f32 ones on a CPU without AMX, other than
/// AMD's; a filter gradient's on every CPU without AMX).
static bool runsWidened(Operation *op, Type element, Bf16Kernels bf16) {
  if (element.isBF16())
    return isa<OneHotOp, SoftmaxCrossEntropyOp, CumsumOp, ReduceOp, PoolOp,
               PoolBackwardOp>(op) ||
           (bf16.products == Bf16Products::Widened &&
            isa<EinsumOp, Conv2DOp, Conv2DBackwardInputOp>(op)) ||
           (bf16.filterGradients == Bf16Products::Widened &&
            isa<Conv2DBackwardFilterOp>(op));
  if (!element.isF16())
    return false;
  return isa<EinsumOp, ReduceOp, SoftmaxOp, LogSoftmaxOp, SoftmaxCrossEntropyOp,
             LayerNormOp, CumsumOp, Conv2DOp, Conv2DBackwardInputOp,
             Conv2DBackwardFilterOp, PoolOp, PoolBackwardOp, OneHotOp>(op) ||
         (isFusibleElementwiseOp(op) && !isa<ConstantOp, CastOp>(op));
}

/// The element type `value` has in `op`'s kernel: f32 where the runtime
/// widens it.
static int64_t kernelElementBytes(Operation *op, NamedTensorType type,
                                  Bf16Kernels bf16) {
  return runsWidened(op, type.getElementType(), bf16) ? 4 : elementBytes(type);
}

/// The bytes of `value` in the type `op`'s kernel computes in.
static int64_t kernelBytes(Operation *op, Value value, Bf16Kernels bf16) {
  auto type = dyn_cast<NamedTensorType>(value.getType());
  return type ? saturatingMul(type.getNumElements(),
                              kernelElementBytes(op, type, bf16))
              : 0;
}

/// Whether the dims `run` (in that order; those of size 1 left out) lie in
/// `type`'s memory as one run, each stepping over exactly the ones after it.
static bool isOneRun(NamedTensorType type, ArrayRef<StringRef> run) {
  SmallVector<StringRef> addressed;
  for (auto [name, size] : llvm::zip(type.getDimNames(), type.getShape()))
    if (size != 1)
      addressed.push_back(name.getValue());
  SmallVector<StringRef> wanted;
  for (StringRef dim : run)
    if (llvm::is_contained(addressed, dim))
      wanted.push_back(dim);
  if (wanted.empty())
    return true;
  auto first = llvm::find(addressed, wanted.front());
  if (static_cast<size_t>(addressed.end() - first) < wanted.size())
    return false;
  return std::equal(wanted.begin(), wanted.end(), first);
}

/// The dims of `from` (in its order) that `with` has or lacks, as `has`.
static SmallVector<StringRef> dimsOf(NamedTensorType from, NamedTensorType with,
                                     bool has) {
  SmallVector<StringRef> dims;
  for (StringAttr name : from.getDimNames())
    if (with.hasDim(name.getValue()) == has)
      dims.push_back(name.getValue());
  return dims;
}

/// The bytes the CPU runtime's einsum of two operands copies besides its
/// result buffer (runtime/kernels/Einsum.cpp): it reads each operand and
/// writes the result in place, through one stride per class of dims, where
/// the dims of each class (M, N, K) lie in that tensor as one run in the
/// order the matmul reads them (M and N as in the result, K as in the lhs);
/// batch dims may lie anywhere, each with its own stride. Any other tensor
/// is permuted into a dense copy. (oneDNN's brgemm, reading a transposed
/// operand in place, keeps blocks of it in a scratchpad of well under a
/// MiB, which is not counted.)
static int64_t einsumCopiedBytes(EinsumOp einsum, Bf16Kernels bf16) {
  Operation *op = einsum;
  auto lhs = cast<NamedTensorType>(einsum.getInputs()[0].getType());
  auto rhs = cast<NamedTensorType>(einsum.getInputs()[1].getType());
  auto result = cast<NamedTensorType>(einsum.getResult().getType());
  SmallVector<StringRef> m, n, k;
  for (StringRef dim : dimsOf(result, lhs, /*has=*/true))
    if (!rhs.hasDim(dim))
      m.push_back(dim);
  for (StringRef dim : dimsOf(result, rhs, /*has=*/true))
    if (!lhs.hasDim(dim))
      n.push_back(dim);
  for (StringRef dim : dimsOf(lhs, result, /*has=*/false))
    if (rhs.hasDim(dim))
      k.push_back(dim);
  int64_t bytes = 0;
  if (!isOneRun(lhs, m) || !isOneRun(lhs, k))
    bytes = saturatingAdd(bytes, kernelBytes(op, einsum.getInputs()[0], bf16));
  if (!isOneRun(rhs, k) || !isOneRun(rhs, n))
    bytes = saturatingAdd(bytes, kernelBytes(op, einsum.getInputs()[1], bf16));
  if (!isOneRun(result, m) || !isOneRun(result, n))
    bytes = saturatingAdd(bytes, kernelBytes(op, einsum.getResult(), bf16));
  return bytes;
}

/// The bytes `op`'s kernel copies besides its result buffer (see
/// RuntimeMemory::scratchBytes), in the types the kernel computes in: an
/// einsum of two operands what einsumCopiedBytes says; any other einsum and
/// the collectives that pack their chunks every operand and the result
/// once, at most.
static int64_t kernelScratchBytes(Operation *op, Bf16Kernels bf16) {
  if (auto einsum = dyn_cast<EinsumOp>(op);
      einsum && einsum.getInputs().size() == 2)
    return einsumCopiedBytes(einsum, bf16);
  if (!isa<EinsumOp, AllGatherOp, ReduceScatterOp, AllToAllOp>(op))
    return 0;
  int64_t bytes = 0;
  for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults()))
    bytes = saturatingAdd(bytes, kernelBytes(op, value, bf16));
  return bytes;
}

/// Grows `slots` (bytes per operand position, then one for the result at
/// position `op`'s operand count) to hold the f32 copies of `op`'s widened
/// tensors, as the runtime's per-position buffers grow
/// (RuntimeMemory::widenedCopyBytes).
static void growWidenedCopies(Operation *op, SmallVectorImpl<int64_t> &slots,
                              Bf16Kernels bf16) {
  auto grow = [&](size_t slot, Value value) {
    auto type = dyn_cast<NamedTensorType>(value.getType());
    if (!type || !runsWidened(op, type.getElementType(), bf16))
      return;
    if (slots.size() <= slot)
      slots.resize(slot + 1, 0);
    slots[slot] =
        std::max(slots[slot],
                 saturatingMul(std::max<int64_t>(1, type.getNumElements()), 4));
  };
  for (auto [index, operand] : llvm::enumerate(op->getOperands()))
    grow(index, operand);
  if (op->getNumResults() == 1)
    grow(op->getNumOperands(), op->getResult(0));
}

/// The product of the sizes of `type`'s dims before `dim`: 1 where `dim`
/// is outermost but for dims of size 1, the runtime's test of whether a
/// collective along it must pack or unpack its chunks.
static int64_t sizeOutside(NamedTensorType type, StringRef dim) {
  int64_t outer = 1;
  for (auto [name, size] : llvm::zip(type.getDimNames(), type.getShape())) {
    if (name.getValue() == dim)
      break;
    outer = saturatingMul(outer, size);
  }
  return outer;
}

/// What a started collective holds besides its operand and result, as the
/// runtime (runtime/comm/Collectives.cpp) and Open MPI 4.1's non-blocking
/// collectives (libnbc) allocate it; bf16 and f16 data move in f32.
struct CollectiveTemporaries {
  /// The runtime's copies, written at the start and freed at the wait,
  /// and a started all_reduce's libnbc buffer:
  /// - all_reduce: libnbc's temporary, the data's size; bf16 and f16
  ///   widened into f32 scratch first;
  /// - reduce_scatter: the input packed chunk after chunk where the
  ///   scattered dim is not outermost; bf16 and f16 widened, with the f32
  ///   sums of this rank's chunk;
  /// - all_gather: a buffer for the members' chunks, unpacked at the wait,
  ///   where the gathered dim is not outermost.
  int64_t heldBytes = 0;
  /// libnbc's reduce-scatter temporaries, malloc'd at the start but
  /// written only as the data arrives, and freed as the collective
  /// completes: resident while it moves its data. The data of a step's
  /// collectives moves one collective after another on each link as MPI's
  /// progress engine reaches them (between the runtime's ops, and in the
  /// waits), so the replay counts, of those in flight at once, the largest
  /// two for each link the group's first member receives on (ceil(log2 p)
  /// links: one collective receiving, the one before still scattering),
  /// not their sum. Its binomial reduce to that member
  /// mallocs a left and a right buffer, each the whole input's size, but
  /// only a member that receives writes into them: the first member
  /// receives ceil(log2 p) times, into one buffer and then the other (they
  /// swap after each reduction), the others at most once fewer. So the
  /// most any member holds is one buffer in a group of 2, both in larger
  /// ones. (A started all_reduce's libnbc buffer is held from its start:
  /// measured so in data-parallel steps.)
  int64_t transferBytes = 0;
};

static CollectiveTemporaries collectiveTemporaries(Operation *op,
                                                   int64_t groupSize) {
  auto input = cast<NamedTensorType>(op->getOperand(0).getType());
  auto result = cast<NamedTensorType>(op->getResult(0).getType());
  int64_t elements = std::max<int64_t>(1, input.getNumElements());
  int64_t inputBytes = saturatingMul(elements, elementBytes(input));
  bool half = reducesWidenedToF32(input);
  int64_t movedBytes = half ? saturatingMul(elements, 4) : inputBytes;
  CollectiveTemporaries temporaries;
  if (isa<AllReduceOp>(op)) {
    temporaries.heldBytes = half ? saturatingMul(movedBytes, 2) : movedBytes;
    return temporaries;
  }
  if (auto reduceScatter = dyn_cast<ReduceScatterOp>(op)) {
    if (sizeOutside(input, reduceScatter.getDim()) != 1)
      temporaries.heldBytes = inputBytes;
    if (half)
      temporaries.heldBytes = saturatingAdd(
          temporaries.heldBytes,
          saturatingAdd(movedBytes, saturatingMul(result.getNumElements(), 4)));
    temporaries.transferBytes =
        saturatingMul(movedBytes, groupSize > 2 ? 2 : 1);
    return temporaries;
  }
  auto allGather = cast<AllGatherOp>(op);
  if (sizeOutside(input, allGather.getDim()) != 1)
    temporaries.heldBytes = saturatingMul(
        std::max<int64_t>(1, result.getNumElements()), elementBytes(result));
  return temporaries;
}

/// The runtime calls tessel-lower-to-runtime makes of `block`, whose
/// buffers `lifetimes` describes: one per op but a rename or reshape that
/// keeps its operand's buffer (which runs nothing).
static int64_t callSitesOf(Block &block, const BufferLifetimes &lifetimes) {
  auto body = block.without_terminator();
  return static_cast<int64_t>(std::distance(body.begin(), body.end())) -
         static_cast<int64_t>(lifetimes.reusesOperand.size());
}

/// Replays the allocations and frees of `func`'s body in `ledger`, as
/// tessel-lower-to-runtime makes them: a value is freed after the op that
/// uses it last, an unused result right after its op; arguments and
/// returned values are never freed (the caller owns them). A started
/// collective (dialect/StartedCollectives.h) is waited for before its first
/// user, so a value it uses lives until then, and one it makes and nothing
/// uses until its wait; when that wait is at the return, both are freed
/// there, before the results are handed out. Adds the bytes of its
/// tessel.constant ops, its largest kernel scratch and its call sites to
/// `memory`.
static void replay(func::FuncOp func, BufferLedger &ledger,
                   RuntimeMemory &memory,
                   SmallVectorImpl<int64_t> &widenedSlots, Bf16Kernels bf16) {
  auto bytesOf = [](Value value) -> int64_t {
    auto type = dyn_cast<NamedTensorType>(value.getType());
    return type ? runtimeBufferBytes(type) : 0;
  };
  // A declaration allocates nothing.
  if (func.isExternal())
    return;
  Block &body = func.getBody().front();
  Operation *terminator = body.getTerminator();
  // Where tessel-lower-to-runtime frees each buffer, collectives started.
  BufferLifetimes lifetimes = bufferLifetimes(body, /*startCollectives=*/true);
  memory.callSites =
      saturatingAdd(memory.callSites, callSitesOf(body, lifetimes));
  // A started collective over more than one rank holds memory of its own
  // (collectiveTemporaries): the runtime's copies from its start until its
  // wait, so a step that starts many at once (the gradients of a
  // data-parallel or ZeRO step, waited for after the backward pass) holds
  // all of them, and libnbc's while it moves its data, a few collectives'
  // at a time. That memory is MPI's and the runtime's heap, not the buffer
  // cache's: the cache keeps its buffers through the whole step, so the
  // most the collectives hold at once comes on top of them.
  MeshAttr mesh = getEnclosingMesh(func);
  // The ranks of `op`'s group where it is a started collective; 1 for
  // any other op (a group of one rank does not call MPI).
  auto groupOf = [&](Operation *op) -> int64_t {
    ArrayAttr names;
    if (auto allReduce = dyn_cast<AllReduceOp>(op))
      names = allReduce.getAxes();
    else if (auto reduceScatter = dyn_cast<ReduceScatterOp>(op))
      names = reduceScatter.getAxes();
    else if (auto allGather = dyn_cast<AllGatherOp>(op))
      names = allGather.getAxes();
    if (!names || !lifetimes.waitBefore.count(op))
      return 1;
    SmallVector<StringAttr> axes;
    for (Attribute axis : names)
      axes.push_back(cast<StringAttr>(axis));
    std::optional<int64_t> group =
        mesh ? mesh.getGroupSize(axes) : std::nullopt;
    return group.value_or(1);
  };
  llvm::DenseMap<Operation *, SmallVector<CollectiveTemporaries>>
      temporariesUntil;
  // The runtime's copies of the collectives in flight, and libnbc's
  // temporaries of each (the largest counts).
  int64_t held = 0;
  std::multiset<int64_t> transfers;
  auto releaseTemporaries = [&](Operation *waiter) {
    for (const CollectiveTemporaries &temporaries :
         temporariesUntil.lookup(waiter)) {
      held = saturatingSub(held, temporaries.heldBytes);
      if (auto moving = transfers.find(temporaries.transferBytes);
          moving != transfers.end())
        transfers.erase(moving);
    }
  };
  int64_t constants = 0;
  for (Operation &op : body.without_terminator()) {
    releaseTemporaries(&op);
    if (int64_t group = groupOf(&op); group > 1) {
      CollectiveTemporaries temporaries = collectiveTemporaries(&op, group);
      held = saturatingAdd(held, temporaries.heldBytes);
      transfers.insert(temporaries.transferBytes);
      // The first member of the group receives over ceil(log2 p) links at
      // once, one collective's data at a time on each, while the one
      // before on that link still sends its chunks back out of its buffers
      // (the scatter after the reduction): two collectives a link. (The
      // links are those of the group just started; on a mesh of several
      // axes the collectives in flight may have other groups.)
      int64_t resident = 0;
      for (int64_t members = group; members > 1; members = (members + 1) / 2)
        resident += 2;
      int64_t moving = 0;
      for (auto largest = transfers.rbegin();
           largest != transfers.rend() && resident > 0; ++largest, --resident)
        moving = saturatingAdd(moving, *largest);
      memory.inFlightBytes =
          std::max(memory.inFlightBytes, saturatingAdd(held, moving));
      temporariesUntil[lifetimes.waitBefore.lookup(&op)].push_back(temporaries);
    }
    memory.scratchBytes =
        std::max(memory.scratchBytes, kernelScratchBytes(&op, bf16));
    growWidenedCopies(&op, widenedSlots, bf16);
    // A rename or reshape of a dying operand keeps its buffer.
    bool keepsOperandsBuffer = lifetimes.reusesOperand.count(&op) != 0;
    for (Value result : op.getResults())
      if (int64_t bytes = keepsOperandsBuffer ? 0 : bytesOf(result)) {
        ledger.allocate(bytes);
        if (auto constant = dyn_cast<ConstantOp>(op);
            constant && keepsItsBytes(constant))
          constants = saturatingAdd(
              constants, saturatingMul(constant.getType().getNumElements(),
                                       elementBytes(constant.getType())));
      }
    for (Value dead : lifetimes.deadAfter.lookup(&op))
      if (int64_t bytes = bytesOf(dead))
        ledger.release(bytes);
  }
  releaseTemporaries(terminator);
  for (Value dead : lifetimes.deadAtReturn)
    if (int64_t bytes = bytesOf(dead))
      ledger.release(bytes);
  // The caller owns every result buffer: an argument, or a value returned
  // a second time, is handed out as a copy.
  llvm::DenseSet<Value> handedOut;
  for (Value value : terminator->getOperands())
    if (isa<BlockArgument>(value) || !handedOut.insert(value).second)
      if (int64_t bytes = bytesOf(value))
        ledger.allocate(bytes);
  memory.constantBytes = saturatingAdd(memory.constantBytes, constants);
}

int64_t runtimeOpCount(func::FuncOp lowered) {
  if (!lowered || lowered.isExternal())
    return 0;
  int64_t ops = 0;
  for (Block &block : lowered.getBody())
    ops += callSitesOf(block,
                       bufferLifetimes(block, /*startCollectives=*/true));
  return ops;
}

RuntimeMemory runtimeMemory(func::FuncOp perRank, func::FuncOp init,
                            Bf16Kernels bf16) {
  RuntimeMemory memory;
  BufferLedger ledger;
  SmallVector<int64_t> widenedSlots;
  if (init)
    replay(init, ledger, memory, widenedSlots, bf16);
  // A declaration has no arguments to hold (and replay adds nothing).
  ArrayRef<BlockArgument> arguments;
  if (!perRank.isExternal())
    arguments = perRank.getBody().front().getArguments();
  for (BlockArgument argument : arguments) {
    auto type = dyn_cast<NamedTensorType>(argument.getType());
    if (!type)
      continue;
    int64_t bytes = runtimeBufferBytes(type);
    memory.argumentBytes = saturatingAdd(memory.argumentBytes, bytes);
    bool isState = isStateRole(perRank.getArgAttrOfType<StringAttr>(
        argument.getArgNumber(), kRoleAttrName));
    if (!isState)
      memory.stagingBytes = saturatingAdd(memory.stagingBytes, bytes);
    // The state is init's results, alive already.
    if (!init || !isState)
      ledger.allocate(bytes);
  }
  replay(perRank, ledger, memory, widenedSlots, bf16);
  for (int64_t bytes : widenedSlots)
    memory.widenedCopyBytes = saturatingAdd(memory.widenedCopyBytes, bytes);
  memory.livePeakBytes = ledger.peak();
  memory.heldBytes = ledger.held();
  memory.heldBuffersBySize = ledger.mostBySize();
  return memory;
}

} // namespace tessel::analysis
