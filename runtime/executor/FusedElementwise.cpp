//===- FusedElementwise.cpp - A chain of element-wise ops as one ----------===//
//
// When the site is prepared, the body becomes a program over registers of
// one tile (kTileElements floats): an instruction per op (an opcode, the
// values it reads, the register it writes), and for each operand the way
// its elements of a tile reach the instructions. Every body value has all
// the result's dims, so every instruction computes the same tile of the
// result; only operands, which may lack dims or hold them in another order,
// need reading at the result's index. Each operand's strides along the
// result's dims (0 where it is broadcast) are merged where they are one run
// of memory, so an operand in the result's layout is read in place, a
// scalar is a register filled once per call, and any other is gathered per
// tile, one run of its innermost merged dim at a time.
//
// A call then walks the result tile by tile: gather, then each instruction
// as one loop over the tile (one switch per instruction and tile, none per
// element, so the loops vectorize), the last instruction writing into the
// result. Registers are reused once their value is dead, so a 16-op AdamW
// update needs a handful and stays in L1.
//
// Values are f32, bf16 or f16 (and i1 conditions); registers are f32. A
// bf16 or f16 operand is widened as it is read, each instruction whose value
// is bf16 or f16 rounds its tile to that type (to nearest, ties to even:
// what the op computed on its own gives), tessel.cast is such a rounding
// (or a plain copy), and a narrow result is narrowed as it is written. So a
// mixed-precision step's element-wise chains, and the casts of its
// parameters and gradients, run here rather than op by op.
//
// Numerics are f32, as the ops' oneDNN kernels compute them: add, sub, mul,
// div and sqrt are IEEE f32 operations, equal to the reference's double
// computation rounded once (rsqrt, 1 / sqrt, rounds twice: within an ulp);
// exp, log, tanh, erf, sin, cos, sigmoid (1 / (1 + exp(-x))) and gelu
// (applyGelu, with erfc) run a tile at a time on VectorMath.h's vector
// functions (SLEEF's, and on AVX-512 erf and erfc of its own), and pow on
// glibc's powf, within a few ulp of it. Comparisons,
// max, min, relu and select treat NaN as ref::applyBinary / applyUnary do. i1
// values are 0.0f and 1.0f in registers.
//
// A body that only casts its one operand, lying in the result's order,
// between f32 and bf16 or f16 (a mixed-precision step's parameter copies
// and gradients) skips the tiles: one conversion pass over the elements.
//
// A body may have results after the first (descriptor "more_results",
// the body values "outputs"): those values keep their registers to the end
// of the tile, and each is written from its register into its buffer,
// which follows the operands' in the call, once the tile is computed. In a
// body that sums, they have the value summed's dims: a bias's gradient is
// summed in the pass that writes the gradient.
//
// Results of 64K elements or more are split across the OpenMP threads, a
// few tiles at a time; smaller ones, most of a Transformer's, run on the
// calling thread.
//
// A body that ends in a sum (attribute `sum_of`, the type of the value
// summed; `sum_kind` sum or mean) walks that value's elements instead of
// the result's, each tile computed into a register and summed in double.
// The value summed and the sums are of one float type: f32, or a
// mixed-precision step's bf16 or f16, whose values are rounded to it as
// they are computed and whose sums are rounded to f32 and then to it.
// Over every dimension, the tiles' sums are added in tile order whichever
// thread computed them, so the result does not depend on the threads. Over the
// dims after the kept ones (rows: each result element sums runs of consecutive
// elements; one run where the kept dims lead, several where they sit between
// summed dims, as a batch norm's channels do) or before them (columns: element
// e adds into result e modulo the result's size), each thread adds its tiles
// into sums of its own, which are added in thread order at the end.
//
//===----------------------------------------------------------------------===//

#include "executor/FusedElementwise.h"

#include "base/Float16.h"
#include "base/HalfFloatBlocks.h"
#include "executor/Buffers.h"
#include "executor/FastKernel.h"
#include "executor/OuterWalk.h"
#include "executor/ParallelChunks.h"
#include "executor/RegisterPool.h"
#include "executor/VectorMath.h"
#include "executor/WidenedOps.h"

#ifdef TESSEL_RUNTIME_HAS_OPENMP
#include <omp.h>
#endif

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// The tile loop compiled for AVX-512, AVX2 and plain x86-64, one picked at
// load time (glibc's ifunc): the project builds for x86-64's SSE2, which
// vectorizes 4 floats at a time where the machine takes 16. Measured on the
// AdamW body over 16K elements: 25 us a call instead of 40.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) &&         \
    defined(__linux__)
#define TESSEL_FUSED_CLONES                                                    \
  __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define TESSEL_FUSED_CLONES
#endif

namespace tessel::runtime {

namespace {

using nlohmann::json;

/// Elements per tile. A register is then 2 KiB, and the dozen live values
/// of the largest bodies (AdamW) stay in the 48 KiB of L1, while each
/// instruction's loop is long enough that its switch costs nothing.
constexpr int64_t kTileElements = 512;

/// Tiles a thread takes at a time when the result is split across threads.
constexpr int kTilesPerTask = 8;

using Opcode = FusedOpcode;

/// The ops a body may hold, with their argument counts. compare's opcode is
/// its "kind" attribute's (kCompareKinds); constant's is an instruction only
/// as the last entry.
struct BodyOp {
  const char *name;
  Opcode opcode;
  int arity;
};

constexpr const char *kConstantOp = "tessel.constant";
constexpr const char *kCompareOp = "tessel.compare";
constexpr const char *kSelectOp = "tessel.select";
constexpr const char *kCastOp = "tessel.cast";

constexpr BodyOp kBodyOps[] = {
    {"tessel.neg", Opcode::Neg, 1},   {"tessel.abs", Opcode::Abs, 1},
    {"tessel.exp", Opcode::Exp, 1},   {"tessel.log", Opcode::Log, 1},
    {"tessel.sqrt", Opcode::Sqrt, 1}, {"tessel.rsqrt", Opcode::Rsqrt, 1},
    {"tessel.tanh", Opcode::Tanh, 1}, {"tessel.sigmoid", Opcode::Sigmoid, 1},
    {"tessel.relu", Opcode::Relu, 1}, {"tessel.gelu", Opcode::Gelu, 1},
    {"tessel.erf", Opcode::Erf, 1},   {"tessel.sin", Opcode::Sin, 1},
    {"tessel.cos", Opcode::Cos, 1},   {"tessel.add", Opcode::Add, 2},
    {"tessel.sub", Opcode::Sub, 2},   {"tessel.mul", Opcode::Mul, 2},
    {"tessel.div", Opcode::Div, 2},   {"tessel.max", Opcode::Max, 2},
    {"tessel.min", Opcode::Min, 2},   {"tessel.pow", Opcode::Pow, 2},
    {kCompareOp, Opcode::Eq, 2},      {kSelectOp, Opcode::Select, 3},
    {kConstantOp, Opcode::Copy, 0},   {kCastOp, Opcode::Copy, 1},
};

constexpr std::pair<const char *, Opcode> kCompareKinds[] = {
    {"eq", Opcode::Eq}, {"ne", Opcode::Ne}, {"lt", Opcode::Lt},
    {"le", Opcode::Le}, {"gt", Opcode::Gt}, {"ge", Opcode::Ge},
};

/// The element types a fused value may have besides i1: those it computes.
bool isFloat(ref::ElementType type) {
  return type == ref::ElementType::F32 || type == ref::ElementType::BF16 ||
         type == ref::ElementType::F16;
}

//===----------------------------------------------------------------------===//
// The program
//===----------------------------------------------------------------------===//

/// The rounding an instruction applies to its tile: none for f32 (and i1)
/// values, to bf16 or to f16 for those.
enum class Rounding : uint8_t { None, Bf16, F16 };

Rounding roundingOf(ref::ElementType type) {
  switch (type) {
  case ref::ElementType::BF16:
    return Rounding::Bf16;
  case ref::ElementType::F16:
    return Rounding::F16;
  default:
    return Rounding::None;
  }
}

/// How an operand's elements of a tile reach the instructions.
enum class ReadMode : uint8_t {
  Unused,  // No live instruction reads it.
  InPlace, // f32 in the result's layout: its buffer at the tile's start.
  Splat,   // One value (a scalar, or broadcast along every dim): a
           // register filled once per call.
  Gather,  // Anything else: copied into a register, tile by tile.
};

struct OperandRead {
  ReadMode mode = ReadMode::Unused;
  /// Its element type: f32, bf16 or f16, or i1 (an i1 operand, one byte per
  /// element, is read as 0.0f or 1.0f).
  ref::ElementType type = ref::ElementType::F32;
  /// Its register, for Splat and Gather.
  int reg = -1;
  /// Its walk along the result in row-major order: the sizes of the
  /// result's dims (outermost first, size 1 left out) and the operand's
  /// strides along them, neighbours merged wherever the outer stride is the
  /// inner one's times its size.
  std::vector<int64_t> sizes, strides;
};

/// Where a value's elements of the tile are while the tile is computed.
enum class Home : uint8_t {
  Operand,  // An in-place operand's buffer (index: the operand).
  Register, // A register of the thread (index: the register).
  Constant, // FusedProgram::constants (index: the constant).
  Result,   // The result buffer: the last instruction's value.
};

struct ValueHome {
  Home home = Home::Register;
  int index = 0;
};

struct Instruction {
  Opcode opcode;
  /// To the value's type, after the opcode has computed it in f32.
  Rounding rounding;
  /// The register it writes; -1 for the result tile.
  int dest;
  /// The values it reads; unused ones repeat the first.
  int args[3];
};

/// How the body's value becomes the result: stored, or summed over every
/// dim, over the dims after the kept ones (rows: each result element sums
/// runs of consecutive elements, one run where the kept dims lead, several
/// where dims before them are summed too, as a batch norm's sums over
/// batch and space keep the channels between them), or over a leading run
/// (columns: the kept dims end the value's).
enum class Summing : uint8_t { None, Whole, Rows, Columns };

/// A result after the first: the body value it is, written from that
/// value's register at the end of each tile into the buffer that follows
/// the operands' in the call (`buffer`, its index there).
struct Output {
  int value = 0;
  size_t buffer = 0;
  ref::ElementType type = ref::ElementType::F32;
};

struct FusedProgram {
  int64_t count = 0; // The elements walked: the result's, or those summed.
  Summing summing = Summing::None;
  /// Where the body sums: the result's elements, the elements summed into
  /// each, the length of a run of consecutive elements that one result
  /// element sums (Rows: the dims after the kept ones), and whether each
  /// sum is a mean.
  int64_t sums = 0, sumLength = 0, runLength = 0;
  bool mean = false;
  /// The sums' type (the result's): each is rounded once to f32, then to
  /// bf16 or f16 where the result is narrow.
  ref::ElementType sumType = ref::ElementType::F32;
  /// The factor each sum is scaled by: one over its length for a mean.
  double sumScale() const {
    return mean && sumLength > 0 ? 1.0 / static_cast<double>(sumLength) : 1;
  }
  int64_t tile = 0;  // Elements per tile (fewer for a small result).
  /// The result's type; a bf16 or f16 result is computed into a register
  /// (`staging`) and narrowed into the result buffer.
  ref::ElementType resultType = ref::ElementType::F32;
  int staging = -1;
  int numRegisters = 0;
  size_t maxWalkRank = 0;
  std::vector<OperandRead> operands;
  std::vector<Output> outputs;
  std::vector<ValueHome> homes; // Per value: operands, then body entries.
  std::vector<Instruction> code;
  std::vector<float> constants; // `tile` copies of each constant's value.
};

//===----------------------------------------------------------------------===//
// Compiling the body
//===----------------------------------------------------------------------===//

using BodyEntry = FusedEntry;

/// Checks that `type` names no dim twice and that each of its dims is one
/// of the result's with the result's size: what broadcasting by name into
/// the result needs.
void checkBroadcastsInto(const TensorType &type, const TensorType &result,
                         const std::string &what) {
  for (int d = 0; d < type.rank(); ++d) {
    const std::string &dim = type.dims[d];
    if (std::count(type.dims.begin(), type.dims.end(), dim) > 1)
      throw OpError(
          fmt::format("{} {} has dim '{}' twice", what, type.str(), dim));
    auto it = std::find(result.dims.begin(), result.dims.end(), dim);
    if (it == result.dims.end())
      throw OpError(fmt::format("{} {} has dim '{}', which the result {} "
                                "lacks",
                                what, type.str(), dim, result.str()));
    int64_t size = result.shape[it - result.dims.begin()];
    if (type.shape[d] != size)
      throw OpError(fmt::format("{} {} has '{}' of size {}, the result {} of "
                                "size {}",
                                what, type.str(), dim, type.shape[d],
                                result.str(), size));
  }
}

/// Reads body entry `index`; `types` holds the type of every value before
/// it (the operands', then the earlier entries'). Checks everything about
/// the entry but whether its result is used as the fused result.
BodyEntry parseEntry(const json &entry, size_t index,
                     const std::vector<TensorType> &types,
                     const TensorType &fusedResult) {
  std::string where = fmt::format("body entry {}", index);
  if (!entry.is_object())
    throw OpError(fmt::format("{} is not an object", where));
  auto opIt = entry.find("op");
  if (opIt == entry.end() || !opIt->is_string())
    throw OpError(fmt::format("{} has no \"op\" string", where));
  BodyEntry parsed;
  parsed.op = opIt->get<std::string>();
  where = fmt::format("body entry {} ({})", index, parsed.op);
  const BodyOp *bodyOp = nullptr;
  for (const BodyOp &candidate : kBodyOps)
    if (parsed.op == candidate.name)
      bodyOp = &candidate;
  if (!bodyOp)
    throw OpError(fmt::format("{}: '{}' is not an op a fused body can hold",
                              where, parsed.op));
  parsed.opcode = bodyOp->opcode;
  parsed.isConstant = parsed.op == kConstantOp;

  // Arguments: numbers of earlier values.
  if (auto argsIt = entry.find("args"); argsIt != entry.end()) {
    if (!argsIt->is_array())
      throw OpError(fmt::format("{}: \"args\" is not a list", where));
    for (size_t k = 0; k < argsIt->size(); ++k) {
      const json &arg = (*argsIt)[k];
      if (!arg.is_number_integer() || arg.get<int64_t>() < 0 ||
          arg.get<int64_t>() >= static_cast<int64_t>(types.size()))
        throw OpError(fmt::format("{}: argument {} is {}, not the number of "
                                  "an earlier value (0 to {})",
                                  where, k, arg.dump(), types.size() - 1));
      parsed.args.push_back(arg.get<int>());
    }
  }
  if (static_cast<int>(parsed.args.size()) != bodyOp->arity)
    throw OpError(fmt::format("{}: takes {} argument(s), has {}", where,
                              bodyOp->arity, parsed.args.size()));

  auto resultIt = entry.find("result");
  if (resultIt == entry.end())
    throw OpError(fmt::format("{} has no \"result\"", where));
  parsed.result = parseTensorType(*resultIt, where + ": the result");
  json attrs = json::object();
  if (auto attrsIt = entry.find("attrs"); attrsIt != entry.end()) {
    if (!attrsIt->is_object())
      throw OpError(fmt::format("{}: \"attrs\" is not an object", where));
    attrs = *attrsIt;
  }

  if (parsed.isConstant) {
    // A splat of any shape: its value is read at every index.
    if (!isFloat(parsed.result.type) &&
        parsed.result.type != ref::ElementType::I1)
      throw OpError(fmt::format("{}: the result {} is neither a float (f32, "
                                "bf16, f16) nor i1",
                                where, parsed.result.str()));
    auto valueIt = attrs.find("value");
    std::optional<double> number;
    if (valueIt != attrs.end())
      number =
          jsonNumber(valueIt->is_array() && valueIt->size() == 1 ? (*valueIt)[0]
                                                                 : *valueIt);
    if (!number)
      throw OpError(fmt::format("{}: attribute 'value' is not a number (a "
                                "fused body's constants are splats)",
                                where));
    parsed.value =
        static_cast<float>(ref::roundToType(*number, parsed.result.type));
    return parsed;
  }

  // Every other entry computes the fused result's elements.
  if (parsed.result.rank() != fusedResult.rank())
    throw OpError(fmt::format("{}: the result {} does not have the dims of "
                              "the fused result {}",
                              where, parsed.result.str(), fusedResult.str()));
  checkBroadcastsInto(parsed.result, fusedResult, where + ": the result");

  if (parsed.op == kCompareOp) {
    auto kindIt = attrs.find("kind");
    if (kindIt == attrs.end() || !kindIt->is_string())
      throw OpError(fmt::format(
          "{}: attribute 'kind' is missing or not a string", where));
    auto kind = std::find_if(
        std::begin(kCompareKinds), std::end(kCompareKinds),
        [&](const auto &known) {
          return kindIt->template get_ref<const std::string &>() == known.first;
        });
    if (kind == std::end(kCompareKinds))
      throw OpError(fmt::format("{}: attribute 'kind' is {}, not one of eq, "
                                "ne, lt, le, gt, ge",
                                where, kindIt->dump()));
    parsed.opcode = kind->second;
  }

  if (parsed.op == kCompareOp ? parsed.result.type != ref::ElementType::I1
                              : !isFloat(parsed.result.type))
    throw OpError(fmt::format("{}: the result {} is not {}", where,
                              parsed.result.str(),
                              parsed.op == kCompareOp
                                  ? "i1"
                                  : "a float (f32, bf16, f16)"));
  for (size_t k = 0; k < parsed.args.size(); ++k) {
    bool condition = parsed.op == kSelectOp && k == 0;
    const TensorType &argType = types[parsed.args[k]];
    if (condition ? argType.type != ref::ElementType::I1
                  : !isFloat(argType.type))
      throw OpError(fmt::format("{}: argument {} is value {} of type {}, "
                                "where {} is needed",
                                where, k, parsed.args[k], argType.str(),
                                condition ? "an i1 condition"
                                          : "a float (f32, bf16, f16)"));
  }
  return parsed;
}

/// The operand's walk along the result (OperandRead::sizes and strides).
void walkOperand(const TensorType &operand, const TensorType &result,
                 OperandRead &read) {
  // The result's own strides always merge: it is walked in row-major order.
  MergedDims<1> walk;
  for (int d = 0; d < result.rank(); ++d) {
    const std::string &dim = result.dims[d];
    walk.add(result.shape[d],
             {hasDim(operand, dim) ? strideOf(operand, dim) : 0});
  }
  read.sizes = std::move(walk.sizes);
  read.strides = std::move(walk.strides[0]);
}

/// The type whose elements the body computes: the result's, or, where the
/// body ends in a sum, the value summed (attribute `sum_of`), which must
/// then be of the result's float type (f32, or a mixed-precision step's
/// bf16 or f16).
TensorType walkedType(const OpDescriptor &desc) {
  auto sumOf = desc.attrs.find("sum_of");
  if (sumOf == desc.attrs.end())
    return desc.result;
  TensorType summed = parseTensorType(*sumOf, "attribute 'sum_of'");
  if (!isFloat(summed.type) || summed.type != desc.result.type)
    throw OpError(fmt::format("a sum of {} into {}: only a float value "
                              "summed into its own type is provided",
                              summed.str(), desc.result.str()));
  return summed;
}

/// Writes a sum into element `index` of a result of `type`: rounded once
/// to f32, and from there to bf16 or f16 for a narrow result.
void writeSum(void *result, ref::ElementType type, int64_t index,
              double value) {
  auto rounded = static_cast<float>(value);
  if (type == ref::ElementType::BF16)
    static_cast<uint16_t *>(result)[index] = floatToBf16(rounded);
  else if (type == ref::ElementType::F16)
    static_cast<uint16_t *>(result)[index] = floatToF16(rounded);
  else
    static_cast<float *>(result)[index] = rounded;
}

/// How `desc`'s body is summed into its result (see Summing), and the
/// result's elements, each sum's length and scale, in `program`.
void planSumming(const OpDescriptor &desc, const TensorType &summed,
                 FusedProgram &program) {
  if (!desc.attrs.contains("sum_of"))
    return;
  std::string kind =
      desc.attrs.contains("sum_kind") ? desc.stringAttr("sum_kind") : "sum";
  if (kind != "sum" && kind != "mean")
    throw OpError(fmt::format("attribute 'sum_kind' is '{}', neither 'sum' "
                              "nor 'mean'",
                              kind));
  const TensorType &result = desc.result;
  int kept = result.rank(), all = summed.rank();
  auto keeps = [&](int offset) {
    for (int d = 0; d < kept; ++d)
      if (result.dims[d] != summed.dims[offset + d] ||
          result.shape[d] != summed.shape[offset + d])
        return false;
    return true;
  };
  // Where the kept dims start among the value's, if they are a run of them.
  int offset = 0;
  while (offset + kept <= all && !keeps(offset))
    ++offset;
  if (offset + kept > all)
    throw OpError(fmt::format("the result {} is not {} summed over the dims "
                              "around a run of them",
                              result.str(), summed.str()));
  program.sums = result.numElements();
  program.runLength = 1;
  for (int d = offset + kept; d < all; ++d)
    program.runLength *= summed.shape[d];
  if (kept == 0)
    program.summing = Summing::Whole;
  else if (offset + kept == all && offset > 0)
    program.summing = Summing::Columns;
  else
    program.summing = Summing::Rows;
  program.sumLength =
      program.sums > 0 ? summed.numElements() / program.sums : 0;
  program.mean = kind == "mean";
  program.sumType = result.type;
}

/// Checks the result, the operands and every body entry.
std::vector<BodyEntry> checkedBody(const OpDescriptor &desc) {
  const TensorType result = walkedType(desc);
  if (!isFloat(result.type))
    throw OpError(fmt::format("the result {} is not a float (f32, bf16, f16)",
                              result.str()));
  checkBroadcastsInto(result, result, "the result");
  std::vector<TensorType> types;
  for (size_t i = 0; i < desc.operands.size(); ++i) {
    const TensorType &operand = desc.operands[i];
    std::string what = fmt::format("operand {}", i);
    if (!isFloat(operand.type) && operand.type != ref::ElementType::I1)
      throw OpError(fmt::format("{} {} is neither a float (f32, bf16, f16) "
                                "nor an i1 condition",
                                what, operand.str()));
    checkBroadcastsInto(operand, result, what);
    types.push_back(operand);
  }

  auto bodyIt = desc.attrs.find("body");
  if (bodyIt == desc.attrs.end())
    throw OpError("attribute 'body' is missing");
  if (!bodyIt->is_array() || bodyIt->empty())
    throw OpError("attribute 'body' is not a non-empty list of ops");
  std::vector<BodyEntry> body;
  for (size_t i = 0; i < bodyIt->size(); ++i) {
    body.push_back(parseEntry((*bodyIt)[i], i, types, result));
    types.push_back(body.back().result);
  }
  if (body.back().result.type != result.type)
    throw OpError(fmt::format("the last body entry's result {} is not {}, "
                              "as the fused {} is",
                              body.back().result.str(),
                              ref::elementTypeName(result.type),
                              desc.attrs.contains("sum_of") ? "value summed"
                                                            : "result"));
  return body;
}

/// The body values of the results after the first (attribute "outputs"),
/// checked against "more_results": each an entry computed by an op (not a
/// constant, not the last entry, which is the first result or the value
/// summed), of its result's type, which has the dims of the values the body
/// computes (`walked`: the first result's, or the value summed's) in their
/// order.
std::vector<int> checkedOutputs(const OpDescriptor &desc,
                                const std::vector<BodyEntry> &body,
                                const TensorType &walked) {
  std::vector<int> outputs;
  auto outputsIt = desc.attrs.find("outputs");
  if (outputsIt == desc.attrs.end()) {
    if (!desc.moreResults.empty())
      throw OpError(fmt::format("{} results but no attribute 'outputs'",
                                desc.moreResults.size() + 1));
    return outputs;
  }
  if (!outputsIt->is_array() || outputsIt->size() != desc.moreResults.size())
    throw OpError(fmt::format("attribute 'outputs' is not a list of {} value "
                              "numbers, one per result after the first",
                              desc.moreResults.size()));
  size_t numOperands = desc.operands.size();
  for (size_t k = 0; k < outputsIt->size(); ++k) {
    const json &number = (*outputsIt)[k];
    std::string what = fmt::format("result {}", k + 1);
    if (!number.is_number_integer() ||
        number.get<int64_t>() < static_cast<int64_t>(numOperands) ||
        number.get<int64_t>() + 1 >=
            static_cast<int64_t>(numOperands + body.size()))
      throw OpError(fmt::format("{} is value {}, not the number of a body "
                                "entry before the last ({} to {})",
                                what, number.dump(), numOperands,
                                numOperands + body.size() - 2));
    int value = number.get<int>();
    const BodyEntry &entry = body[value - numOperands];
    if (entry.isConstant)
      throw OpError(fmt::format("{} is value {}, a constant", what, value));
    const TensorType &type = desc.moreResults[k];
    if (type.dims != walked.dims || type.shape != walked.shape ||
        type.type != entry.result.type)
      throw OpError(fmt::format(
          "{} {} is not of value {}'s type {} with the {} {}'s dims in its "
          "order",
          what, type.str(), value, entry.result.str(),
          desc.attrs.contains("sum_of") ? "value summed" : "first result",
          walked.str()));
    outputs.push_back(value);
  }
  return outputs;
}

/// Compiles a checked body into instructions over registers.
FusedProgram compileBody(const OpDescriptor &desc,
                         const std::vector<BodyEntry> &body) {
  const TensorType result = walkedType(desc);
  size_t numOperands = desc.operands.size();
  size_t numValues = numOperands + body.size();
  std::vector<int> outputs = checkedOutputs(desc, body, result);
  FusedLiveness liveness = fusedLiveness(numOperands, body, outputs);
  const std::vector<bool> &live = liveness.live;
  const std::vector<int> &lastUse = liveness.lastUse;

  FusedProgram program;
  program.resultType = result.type;
  planSumming(desc, result, program);
  program.count = result.numElements();
  program.tile = std::max<int64_t>(1, std::min(kTileElements, program.count));
  program.homes.resize(numValues);
  RegisterPool registers;

  // Operands, all in their registers before the first instruction.
  for (size_t i = 0; i < numOperands; ++i) {
    OperandRead read;
    read.type = desc.operands[i].type;
    walkOperand(desc.operands[i], result, read);
    bool broadcastEverywhere =
        std::all_of(read.strides.begin(), read.strides.end(),
                    [](int64_t stride) { return stride == 0; });
    if (!live[i])
      read.mode = ReadMode::Unused;
    else if (broadcastEverywhere)
      read.mode = ReadMode::Splat;
    else if (read.type == ref::ElementType::F32 && read.sizes.size() == 1 &&
             read.strides[0] == 1)
      read.mode = ReadMode::InPlace;
    else
      read.mode = ReadMode::Gather;
    if (read.mode == ReadMode::InPlace) {
      program.homes[i] = {Home::Operand, static_cast<int>(i)};
    } else if (read.mode != ReadMode::Unused) {
      read.reg = registers.take();
      program.homes[i] = {Home::Register, read.reg};
    }
    program.maxWalkRank = std::max(program.maxWalkRank, read.sizes.size());
    program.operands.push_back(std::move(read));
  }

  // Constants, each a tile of its value.
  int numConstants = 0;
  for (size_t i = 0; i < body.size(); ++i) {
    if (!body[i].isConstant || !live[numOperands + i])
      continue;
    program.homes[numOperands + i] = {Home::Constant, numConstants++};
    program.constants.insert(program.constants.end(), program.tile,
                             body[i].value);
  }

  // Instructions. A register is given back after its value's last use, but
  // only once the instruction's own register is taken, so that no
  // instruction writes a register it reads.
  auto giveBackDead = [&](const std::vector<int> &args, int user) {
    for (size_t k = 0; k < args.size(); ++k) {
      int arg = args[k];
      bool seen =
          std::find(args.begin(), args.begin() + k, arg) != args.begin() + k;
      bool liesInRegister = program.homes[arg].home == Home::Register &&
                            !(arg < static_cast<int>(numOperands) &&
                              program.operands[arg].mode == ReadMode::Splat);
      if (!seen && lastUse[arg] == user && liesInRegister)
        registers.give(program.homes[arg].index);
    }
  };
  for (size_t i = 0; i < body.size(); ++i) {
    size_t value = numOperands + i;
    bool last = i + 1 == body.size();
    const BodyEntry &entry = body[i];
    if (!live[value] || (entry.isConstant && !last))
      continue;
    Instruction instruction{entry.opcode, roundingOf(entry.result.type), -1,
                            {0, 0, 0}};
    std::vector<int> args = entry.args;
    if (entry.isConstant)
      args = {static_cast<int>(value)}; // Copy from its own tile.
    for (size_t k = 0; k < 3; ++k)
      instruction.args[k] = args[std::min(k, args.size() - 1)];
    if (last) {
      // A constant keeps its tile, which the copy reads.
      if (!entry.isConstant)
        program.homes[value].home = Home::Result;
      // A narrow result's tile is rounded as it is narrowed into the
      // result, to the same value (rounding to a type is idempotent), and
      // nothing reads it before: rounding it here too would only repeat
      // the work (a sixth of a bf16 add's). A tile to be summed keeps it.
      if (program.summing == Summing::None &&
          instruction.rounding == roundingOf(program.resultType))
        instruction.rounding = Rounding::None;
    } else {
      instruction.dest = registers.take();
      program.homes[value] = {Home::Register, instruction.dest};
    }
    program.code.push_back(instruction);
    giveBackDead(entry.args, static_cast<int>(i));
  }
  for (size_t k = 0; k < outputs.size(); ++k)
    program.outputs.push_back(
        {outputs[k], numOperands + k, desc.moreResults[k].type});
  // A register of its own, which no instruction reads: a narrow result's
  // tile before it is narrowed, or a tile to be summed.
  program.numRegisters = registers.count();
  if (program.resultType != ref::ElementType::F32 ||
      program.summing != Summing::None)
    program.staging = program.numRegisters++;
  return program;
}

//===----------------------------------------------------------------------===//
// Running it
//===----------------------------------------------------------------------===//

/// A thread's registers and per-call state, kept for its next call (the
/// OpenMP threads live as long as the process) and grown to the largest
/// program it has run, so that a call allocates nothing.
class Scratch {
public:
  /// `count` floats, aligned to 64 bytes for the vector loops.
  float *registers(size_t count) {
    constexpr size_t kAlignFloats = 64 / sizeof(float);
    if (storage_.size() < count + kAlignFloats)
      storage_.resize(count + kAlignFloats);
    auto address = reinterpret_cast<uintptr_t>(storage_.data());
    size_t skip = (64 - address % 64) % 64 / sizeof(float);
    return storage_.data() + skip;
  }
  /// Where each value's tile is.
  std::vector<const float *> slots;
  /// An operand walk's index, one entry per merged dim.
  std::vector<int64_t> index;

private:
  std::vector<float> storage_;
};

Scratch &threadScratch() {
  static thread_local Scratch scratch;
  return scratch;
}

/// How each stored element type reads as f32.
struct FromF32 {
  using Element = float;
  float operator()(float value) const { return value; }
};
struct FromCondition {
  using Element = unsigned char;
  float operator()(unsigned char condition) const {
    return condition != 0 ? 1.0f : 0.0f;
  }
};
struct FromBf16 {
  using Element = uint16_t;
  float operator()(uint16_t bits) const { return bf16ToFloat(bits); }
};
struct FromF16 {
  using Element = uint16_t;
  float operator()(uint16_t bits) const { return f16ToFloat(bits); }
};

/// Calls `f` with the reader of the operand's element type.
template <typename F> void withReader(ref::ElementType type, F &&f) {
  switch (type) {
  case ref::ElementType::I1:
    f(FromCondition());
    return;
  case ref::ElementType::BF16:
    f(FromBf16());
    return;
  case ref::ElementType::F16:
    f(FromF16());
    return;
  default:
    f(FromF32());
    return;
  }
}

/// A run of one value: an operand broadcast along the innermost dim (a row
/// statistic across its row), compiled as the tile loop is, so that the
/// fill is AVX-512's sixteen floats a store rather than SSE2's four.
TESSEL_FUSED_CLONES
void fillRun(float *to, int64_t n, float value) {
  for (int64_t k = 0; k < n; ++k)
    to[k] = value;
}

/// A run of i1 conditions (a byte each) as 0.0f and 1.0f, compiled as the
/// tile loop is: a causal mask read for every score of attention.
TESSEL_FUSED_CLONES
void widenConditions(const unsigned char *from, float *to, int64_t n) {
  for (int64_t k = 0; k < n; ++k)
    to[k] = from[k] != 0 ? 1.0f : 0.0f;
}

/// Copies elements [start, start + n) of the operand's walk into `out`:
/// one run of the innermost merged dim at a time, which is a plain copy
/// (stride 1), a fill (stride 0) or a strided loop.
template <typename Reader>
void gatherTile(const typename Reader::Element *base, const OperandRead &read,
                int64_t start, int64_t n, float *out, int64_t *index,
                Reader toFloat) {
  using Element = typename Reader::Element;
  const std::vector<int64_t> &sizes = read.sizes, &strides = read.strides;
  int inner = static_cast<int>(sizes.size()) - 1;
  // The walk's index of element `start` and the offset it reads.
  int64_t offset = 0, rest = start;
  for (int d = inner; d >= 0; --d) {
    index[d] = rest % sizes[d];
    rest /= sizes[d];
    offset += index[d] * strides[d];
  }
  int64_t innerSize = sizes[inner], innerStride = strides[inner];
  for (int64_t done = 0; done < n;) {
    int64_t run = std::min(innerSize - index[inner], n - done);
    const Element *from = base + offset;
    float *to = out + done;
    if (innerStride == 1) {
      if constexpr (std::is_same_v<Reader, FromF16>)
        widenF16(from, to, run);
      else if constexpr (std::is_same_v<Reader, FromBf16>)
        widenBf16(from, to, run);
      else if constexpr (std::is_same_v<Reader, FromF32>)
        std::memcpy(to, from, static_cast<size_t>(run) * sizeof(float));
      else
        widenConditions(from, to, run);
    } else if (innerStride == 0) {
      fillRun(to, run, toFloat(*from));
    } else {
      for (int64_t k = 0; k < run; ++k)
        to[k] = toFloat(from[k * innerStride]);
    }
    done += run;
    offset += run * innerStride;
    index[inner] += run;
    // Carries into the outer dims at the end of a run.
    for (int d = inner; d > 0 && index[d] == sizes[d]; --d) {
      offset += strides[d - 1] - sizes[d] * strides[d];
      index[d] = 0;
      ++index[d - 1];
    }
  }
}

// The loops of the instructions: `out` never aliases what they read (the
// register allocator sees to it), which lets them vectorize without checks.
template <typename F>
inline void map1(float *__restrict out, const float *a, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = f(a[i]);
}

template <typename F>
inline void map2(float *__restrict out, const float *a, const float *b,
                 int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = f(a[i], b[i]);
}

template <typename F>
inline void map3(float *__restrict out, const float *a, const float *b,
                 const float *c, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = f(a[i], b[i], c[i]);
}

/// Runs the program's instructions over one tile of `n` elements; `slots`
/// holds where each value's tile is, `result` the result at the tile.
TESSEL_FUSED_CLONES
void evaluateTile(const Instruction *code, size_t codeSize,
                  const float *const *slots, float *registers, int64_t tile,
                  float *result, int64_t n) {
  float scratch[kTileElements]; // For sigmoid's middle step.
  for (size_t p = 0; p < codeSize; ++p) {
    const Instruction &in = code[p];
    float *out = in.dest < 0 ? result : registers + in.dest * tile;
    const float *a = slots[in.args[0]], *b = slots[in.args[1]],
                *c = slots[in.args[2]];
    switch (in.opcode) {
    case Opcode::Neg:
      map1(out, a, n, [](float x) { return -x; });
      break;
    case Opcode::Abs:
      map1(out, a, n, [](float x) { return std::fabs(x); });
      break;
    case Opcode::Exp:
      applyVectorFunction(VectorFunction::Exp, a, out, n);
      break;
    case Opcode::Log:
      applyVectorFunction(VectorFunction::Log, a, out, n);
      break;
    case Opcode::Sqrt:
      map1(out, a, n, [](float x) { return std::sqrt(x); });
      break;
    case Opcode::Rsqrt:
      map1(out, a, n, [](float x) { return 1.0f / std::sqrt(x); });
      break;
    case Opcode::Tanh:
      applyVectorFunction(VectorFunction::Tanh, a, out, n);
      break;
    case Opcode::Sigmoid:
      map1(scratch, a, n, [](float x) { return -x; });
      applyVectorFunction(VectorFunction::Exp, scratch, scratch, n);
      map1(out, scratch, n, [](float e) { return 1.0f / (1.0f + e); });
      break;
    case Opcode::Relu:
      map1(out, a, n, [](float x) { return x > 0.0f ? x : 0.0f; });
      break;
    case Opcode::Gelu:
      applyGelu(a, out, n);
      break;
    case Opcode::Erf:
      applyVectorFunction(VectorFunction::Erf, a, out, n);
      break;
    case Opcode::Sin:
      applyVectorFunction(VectorFunction::Sin, a, out, n);
      break;
    case Opcode::Cos:
      applyVectorFunction(VectorFunction::Cos, a, out, n);
      break;
    case Opcode::Add:
      map2(out, a, b, n, [](float x, float y) { return x + y; });
      break;
    case Opcode::Sub:
      map2(out, a, b, n, [](float x, float y) { return x - y; });
      break;
    case Opcode::Mul:
      map2(out, a, b, n, [](float x, float y) { return x * y; });
      break;
    case Opcode::Div:
      map2(out, a, b, n, [](float x, float y) { return x / y; });
      break;
    case Opcode::Max:
      // NaN if either is, as ref::applyBinary.
      map2(out, a, b, n, [](float x, float y) {
        return x != x || y != y ? std::numeric_limits<float>::quiet_NaN()
                                : (x > y ? x : y);
      });
      break;
    case Opcode::Min:
      map2(out, a, b, n, [](float x, float y) {
        return x != x || y != y ? std::numeric_limits<float>::quiet_NaN()
                                : (x < y ? x : y);
      });
      break;
    case Opcode::Pow:
      map2(out, a, b, n, [](float x, float y) { return std::pow(x, y); });
      break;
    case Opcode::Eq:
      map2(out, a, b, n, [](float x, float y) { return x == y ? 1.0f : 0.0f; });
      break;
    case Opcode::Ne:
      map2(out, a, b, n, [](float x, float y) { return x != y ? 1.0f : 0.0f; });
      break;
    case Opcode::Lt:
      map2(out, a, b, n, [](float x, float y) { return x < y ? 1.0f : 0.0f; });
      break;
    case Opcode::Le:
      map2(out, a, b, n, [](float x, float y) { return x <= y ? 1.0f : 0.0f; });
      break;
    case Opcode::Gt:
      map2(out, a, b, n, [](float x, float y) { return x > y ? 1.0f : 0.0f; });
      break;
    case Opcode::Ge:
      map2(out, a, b, n, [](float x, float y) { return x >= y ? 1.0f : 0.0f; });
      break;
    case Opcode::Select:
      // Both loads unconditional, so that the loop is a blend.
      map3(out, a, b, c, n, [](float condition, float x, float y) {
        return condition != 0.0f ? x : y;
      });
      break;
    case Opcode::Copy:
      std::copy(a, a + n, out);
      break;
    }
    if (in.rounding == Rounding::Bf16)
      roundToBf16InPlace(out, n);
    else if (in.rounding == Rounding::F16)
      roundToF16InPlace(out, n);
  }
}

/// The sum of a computed tile, in double: eight running sums, one per
/// element position modulo 8 (independent lanes, which vectorize where one
/// running sum would wait on each addition), added in a fixed order.
TESSEL_FUSED_CLONES
double sumTile(const float *tile, int64_t n) {
  constexpr int kLanes = 8;
  double lanes[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int k = 0; k < kLanes; ++k)
      lanes[k] += tile[i + k];
  for (; i < n; ++i)
    lanes[0] += tile[i];
  double sum = 0;
  for (double lane : lanes)
    sum += lane;
  return sum;
}

/// Adds a computed tile, elements [start, start + n) of the value, into
/// `count` sums: each run of `length` consecutive elements into one, run r
/// into sum r modulo `count`.
void addIntoRows(const float *tile, int64_t start, int64_t n, int64_t length,
                 int64_t count, double *sums) {
  for (int64_t i = 0; i < n;) {
    int64_t run = (start + i) / length;
    int64_t end = std::min(n, (run + 1) * length - start);
    sums[run % count] += sumTile(tile + i, end - i);
    i = end;
  }
}

/// Adds a computed tile, elements [start, start + n) of the value, into
/// `columns` sums: element e into sum e modulo `columns`.
TESSEL_FUSED_CLONES
void addIntoColumns(const float *tile, int64_t start, int64_t n,
                    int64_t columns, double *sums) {
  for (int64_t i = 0; i < n;) {
    int64_t column = (start + i) % columns;
    int64_t run = std::min(columns - column, n - i);
    for (int64_t k = 0; k < run; ++k)
      sums[column + k] += tile[i + k];
    i += run;
  }
}

/// Writes a computed tile into a bf16 or f16 result.
TESSEL_FUSED_CLONES
void narrowTile(const float *tile, ref::ElementType type, uint16_t *out,
                int64_t n) {
  if (type == ref::ElementType::BF16)
    narrowToBf16(tile, out, n);
  else
    narrowToF16(tile, out, n);
}

/// One thread's part of a call: its registers, with the splats filled and
/// every value's tile located, ready to compute any tile of the result.
class TileRunner {
public:
  TileRunner(const FusedProgram &program, void *const *operands, void *result,
             Scratch &scratch)
      : program_(program), operands_(operands), result_(result),
        scratch_(scratch) {
    int64_t tile = program.tile;
    registers_ = scratch.registers(program.numRegisters * tile);
    scratch.slots.assign(program.homes.size(), nullptr);
    scratch.index.resize(program.maxWalkRank);
    for (size_t v = 0; v < program.homes.size(); ++v) {
      const ValueHome &home = program.homes[v];
      if (home.home == Home::Register)
        scratch.slots[v] = registers_ + home.index * tile;
      else if (home.home == Home::Constant)
        scratch.slots[v] = program.constants.data() + home.index * tile;
    }
    for (size_t i = 0; i < program.operands.size(); ++i) {
      const OperandRead &read = program.operands[i];
      if (read.mode != ReadMode::Splat)
        continue;
      float value = 0;
      withReader(read.type, [&](auto toFloat) {
        using Element = typename decltype(toFloat)::Element;
        value = toFloat(*static_cast<const Element *>(operands[i]));
      });
      std::fill(registers_ + read.reg * tile,
                registers_ + (read.reg + 1) * tile, value);
    }
  }

  /// Computes tile `t` of the result; where the program sums over every
  /// dim, returns the tile's sum, and over some, adds it into `sums`.
  double run(int64_t t, double *sums = nullptr) {
    int64_t tile = program_.tile, start = t * tile;
    int64_t n = std::min(tile, program_.count - start);
    for (size_t i = 0; i < program_.operands.size(); ++i) {
      const OperandRead &read = program_.operands[i];
      if (read.mode == ReadMode::InPlace) {
        scratch_.slots[i] = static_cast<const float *>(operands_[i]) + start;
      } else if (read.mode == ReadMode::Gather) {
        float *out = registers_ + read.reg * tile;
        withReader(read.type, [&](auto toFloat) {
          using Element = typename decltype(toFloat)::Element;
          gatherTile(static_cast<const Element *>(operands_[i]), read, start,
                     n, out, scratch_.index.data(), toFloat);
        });
      }
    }
    if (program_.staging < 0) {
      evaluateTile(program_.code.data(), program_.code.size(),
                   scratch_.slots.data(), registers_, tile,
                   static_cast<float *>(result_) + start, n);
      writeOutputs(start, n);
      return 0;
    }
    float *staged = registers_ + program_.staging * tile;
    evaluateTile(program_.code.data(), program_.code.size(),
                 scratch_.slots.data(), registers_, tile, staged, n);
    writeOutputs(start, n);
    switch (program_.summing) {
    case Summing::Whole:
      return sumTile(staged, n);
    case Summing::Rows:
      addIntoRows(staged, start, n, program_.runLength, program_.sums, sums);
      return 0;
    case Summing::Columns:
      addIntoColumns(staged, start, n, program_.sums, sums);
      return 0;
    case Summing::None:
      break;
    }
    narrowTile(staged, program_.resultType,
               static_cast<uint16_t *>(result_) + start, n);
    return 0;
  }

private:
  /// Writes the tile of each result after the first from its value's
  /// register (already rounded to its type by the instruction).
  void writeOutputs(int64_t start, int64_t n) {
    for (const Output &output : program_.outputs) {
      const float *tile = scratch_.slots[output.value];
      void *buffer = operands_[output.buffer];
      if (output.type == ref::ElementType::F32)
        std::copy(tile, tile + n, static_cast<float *>(buffer) + start);
      else
        narrowTile(tile, output.type, static_cast<uint16_t *>(buffer) + start,
                   n);
    }
  }

  const FusedProgram &program_;
  void *const *operands_;
  void *result_;
  Scratch &scratch_;
  float *registers_ = nullptr;
};

/// This thread's runner of `program`, or nothing where growing its scratch
/// failed, which sets `outOfMemory`: nothing may throw out of a parallel
/// region, so the caller raises it after the region.
std::optional<TileRunner> threadRunner(const FusedProgram &program,
                                       void *const *operands, void *result,
                                       bool &outOfMemory) {
  std::optional<TileRunner> runner;
  try {
    runner.emplace(program, operands, result, threadScratch());
  } catch (const std::bad_alloc &) {
#ifdef TESSEL_RUNTIME_HAS_OPENMP
#pragma omp atomic write
#endif
    outOfMemory = true;
  }
  return runner;
}

/// Runs a program that sums over a run of dims (Summing::Rows or
/// Columns): each thread adds its share of the tiles, in a fixed order for
/// a given number of threads, into sums of its own; the threads' sums are
/// added in thread order and each scaled and rounded once into the result.
void runPartialSums(const FusedProgram &program, void *const *operands,
                    void *result, int64_t tiles) {
  int threads = 1;
#ifdef TESSEL_RUNTIME_HAS_OPENMP
  if (program.count >= kParallelElements)
    threads = omp_get_max_threads();
#endif
  std::vector<std::vector<double>> sums(threads,
                                        std::vector<double>(program.sums, 0));
#ifdef TESSEL_RUNTIME_HAS_OPENMP
  if (threads > 1) {
    bool outOfMemory = false;
#pragma omp parallel num_threads(threads)
    {
      std::optional<TileRunner> runner =
          threadRunner(program, operands, result, outOfMemory);
      double *own = sums[omp_get_thread_num()].data();
#pragma omp for schedule(static)
      for (int64_t t = 0; t < tiles; ++t)
        if (runner)
          runner->run(t, own);
    }
    if (outOfMemory)
      throw std::bad_alloc();
  } else
#endif
  {
    TileRunner runner(program, operands, result, threadScratch());
    for (int64_t t = 0; t < tiles; ++t)
      runner.run(t, sums[0].data());
  }
  for (int64_t r = 0; r < program.sums; ++r) {
    double total = 0;
    for (const std::vector<double> &own : sums)
      total += own[r];
    writeSum(result, program.sumType, r, total * program.sumScale());
  }
}

/// Whether `program` only converts its one operand, which lies in the
/// result's order, between f32 and bf16 or f16 (a lone cast: a parameter's
/// bf16 copy, a gradient back in f32): a conversion that needs no tiles.
bool onlyConverts(const FusedProgram &program) {
  if (program.summing != Summing::None || !program.outputs.empty() ||
      program.code.size() != 1 || program.operands.size() != 1)
    return false;
  const Instruction &in = program.code.front();
  const OperandRead &read = program.operands.front();
  bool inOrder = read.mode == ReadMode::InPlace ||
                 (read.mode == ReadMode::Gather && read.sizes.size() == 1 &&
                  read.strides[0] == 1);
  bool narrowing = read.type == ref::ElementType::F32 &&
                   program.resultType != ref::ElementType::F32;
  bool widening = read.type != ref::ElementType::F32 &&
                  read.type != ref::ElementType::I1 &&
                  program.resultType == ref::ElementType::F32;
  return in.opcode == Opcode::Copy && in.args[0] == 0 && in.dest < 0 &&
         inOrder && (narrowing || widening);
}

/// Runs a program that onlyConverts: one pass over the elements, split
/// across the threads as the tiles would be, rounding to nearest even as
/// the tiles' narrowing does.
void convertOnly(const FusedProgram &program, const void *operand,
                 void *result) {
  ref::ElementType from = program.operands.front().type;
  if (from == ref::ElementType::F32)
    narrowTensor(program.resultType, static_cast<const float *>(operand),
                 static_cast<uint16_t *>(result), program.count);
  else
    widenTensor(from, static_cast<const uint16_t *>(operand),
                static_cast<float *>(result), program.count);
}

void runProgram(const FusedProgram &program, void *const *operands,
                void *result) {
  bool whole = program.summing == Summing::Whole;
  if (program.count == 0) {
    // Sums of no elements are 0; a mean of none is 0 / 0.
    if (program.summing != Summing::None)
      for (int64_t r = 0; r < program.sums; ++r)
        writeSum(result, program.sumType, r,
                 program.mean ? std::numeric_limits<double>::quiet_NaN() : 0.0);
    return;
  }
  if (onlyConverts(program))
    return convertOnly(program, operands[0], result);
  int64_t tiles = (program.count + program.tile - 1) / program.tile;
  if (program.summing == Summing::Rows || program.summing == Summing::Columns)
    return runPartialSums(program, operands, result, tiles);
  // Each tile's sum where the program sums over every dim, added in tile
  // order at the end.
  std::vector<double> tileSums(whole ? tiles : 0);
  auto finish = [&] {
    if (!whole)
      return;
    double total = 0;
    for (double sum : tileSums)
      total += sum;
    writeSum(result, program.sumType, 0, total * program.sumScale());
  };
#ifdef TESSEL_RUNTIME_HAS_OPENMP
  if (program.count >= kParallelElements && omp_get_max_threads() > 1) {
    // Tiles are handed out a few at a time rather than in equal shares, so
    // that a thread whose core is busy with other work holds up the call
    // only until it first runs, not for a share of the work.
    bool outOfMemory = false;
#pragma omp parallel
    {
      std::optional<TileRunner> runner =
          threadRunner(program, operands, result, outOfMemory);
#pragma omp for schedule(dynamic, kTilesPerTask)
      for (int64_t t = 0; t < tiles; ++t)
        if (runner) {
          double sum = runner->run(t);
          if (whole)
            tileSums[t] = sum;
        }
    }
    if (outOfMemory)
      throw std::bad_alloc();
    finish();
    return;
  }
#endif
  TileRunner runner(program, operands, result, threadScratch());
  for (int64_t t = 0; t < tiles; ++t) {
    double sum = runner.run(t);
    if (whole)
      tileSums[t] = sum;
  }
  finish();
}

} // namespace

FusedLiveness fusedLiveness(size_t numOperands,
                            const std::vector<FusedEntry> &body,
                            const std::vector<int> &outputs) {
  // The last entry is live, the other results' values (read after the last
  // entry), and what a live entry reads.
  size_t numValues = numOperands + body.size();
  FusedLiveness liveness{std::vector<bool>(numValues, false),
                         std::vector<int>(numValues, -1)};
  liveness.live.back() = true;
  for (int output : outputs) {
    liveness.live[output] = true;
    liveness.lastUse[output] = static_cast<int>(body.size());
  }
  for (size_t i = body.size(); i-- > 0;) {
    if (!liveness.live[numOperands + i])
      continue;
    for (int arg : body[i].args) {
      liveness.live[arg] = true;
      liveness.lastUse[arg] =
          std::max(liveness.lastUse[arg], static_cast<int>(i));
    }
  }
  return liveness;
}

std::vector<FusedEntry> checkFusedBody(const OpDescriptor &desc) {
  return checkedBody(desc);
}

Kernel buildFused(const OpDescriptor &desc) {
  auto program = std::make_shared<const FusedProgram>(
      compileBody(desc, checkedBody(desc)));
  return [program](tessel_context_t &, void *const *operands, void *result) {
    runProgram(*program, operands, result);
  };
}

} // namespace tessel::runtime
