//===- MachineProfile.h - how fast this machine computes and talks -*- C++ -*-//
//
// A machine profile is what `tessel calibrate` measured through the runtime:
// for each job size (ranks on the machine at once), the time one rank's
// kernel of each op class takes at several sizes, and for each collective
// and group size a latency-bandwidth (alpha-beta) fit. `tessel search`
// turns a layout's per-rank FLOPs and collective bytes (CostReport) into a
// step time with it. The file format is JSON (docs/search.md):
//
//   {"format": "tessel-machine-profile", "version": 2,
//    "machine": {"description": ..., "cpu": ..., "cores": 2, ...,
//                "bf16_products": "widened" | "native",
//                "overlap_fraction": 0.0},   (optional; absent: 1)
//    "kernels": [{"ranks": 1, "threads": 2, "per_op_seconds": 2e-7,
//                 "classes": {"matmul": [{"work": 1024, "seconds": 4e-7,
//                                         "rate": 2.4e9}, ...], ...},
//                 "narrow_classes": {"bf16": {"matmul": [...], ...},
//                                    "f16": {...}}}],
//    "collectives": [{"collective": "all_reduce",
//                     "started": true,   (optional; absent: blocking)
//                     "ranks": 2, "group": 2,
//                     "alpha_seconds": 1e-5,
//                     "bandwidth_bytes_per_second": 2e9,
//                     "points": [{"bytes_per_rank": 8192,
//                                 "seconds": 1.3e-5}, ...]}]}
//
// Plain C++ (no MLIR), and it never throws: tools built without exceptions
// read profiles too.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_ANALYSIS_MACHINEPROFILE_H
#define TESSEL_ANALYSIS_MACHINEPROFILE_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tessel::analysis {

/// The op classes a profile times: matmul (einsum), matmul_thin (einsums
/// with a thin side, StepTime.h's thinnestMatmulExtent), matmul_batched
/// (einsums with a dim in both operands and the result, StepTime.h's
/// isBatchedProduct), convolution
/// (and its gradients), elementwise (also copies, and a fused op's pass
/// over its result), fused_entry (each further entry of a tessel.fused
/// body, StepTime.h's furtherFusedEntries, per element), reduction (also
/// argmax, top-k, cumsum), normalization (softmax, cross-entropy, layer norm),
/// transcendental (gelu, erf, exp, log, tanh, sigmoid, sin, cos, pow, and
/// fused ops by the transcendental ops of their body), pooling and
/// pooling_backward.
const std::vector<std::string> &kernelClasses();

/// The class whose points time `opClass` in a profile that lacks it: a
/// class added after profiles were first written ("transcendental" falls
/// back to "elementwise"), so that older profiles still read. std::nullopt
/// for a class every profile must have.
std::optional<std::string> kernelClassFallback(const std::string &opClass);

/// The element types a mixed-precision step computes in besides f32, whose
/// kernels a profile may time apart ("narrow_classes").
const std::vector<std::string> &narrowKernelTypes();

/// The collectives a profile fits.
const std::vector<std::string> &profiledCollectives();

struct KernelPoint {
  /// FLOPs (matmul, convolution) or elements, as CostReport counts them.
  int64_t work = 0;
  double seconds = 0;
  /// The same call with the caches emptied before it (its operands and
  /// result in memory): a kernel in a training step whose data other ops
  /// pushed out runs at this speed. Absent in profiles calibrated before
  /// it was measured.
  std::optional<double> coldSeconds;
};

/// What one rank's kernels take while `ranks` ranks share the machine.
struct KernelRates {
  int64_t ranks = 1;
  /// Each rank's kernel threads (0: left to OMP_NUM_THREADS).
  int64_t threads = 0;
  /// What a compiled program spends on each op besides its kernel: the
  /// result's allocation and the operands' release around the call, and
  /// the call's dispatch from a site the caches no longer hold (a program
  /// of many ops run once, against its kernels timed alone). Absent in a
  /// profile calibrated before it was measured.
  std::optional<double> perOpSeconds;
  /// Op class -> points sorted by work, on f32 tensors.
  std::map<std::string, std::vector<KernelPoint>> classes;
  /// bf16 or f16 -> op class -> points sorted by work, on tensors of that
  /// type (a mixed-precision step's kernels: converted around f32 kernels,
  /// or bf16 kernels of their own). Absent in profiles calibrated before
  /// they were measured, and for a class one lacks: its ops are timed by
  /// the f32 points.
  std::map<std::string, std::map<std::string, std::vector<KernelPoint>>>
      narrowClasses;

  /// The points that time `opClass` on `elementType` tensors: the type's
  /// own where measured; for f32 (and a narrow type without them) the
  /// class's f32 points, or, where these rates lack the class, those of
  /// the class it falls back to (kernelClassFallback), found the same way
  /// for the type; nullptr if none was measured.
  const std::vector<KernelPoint> *
  pointsFor(const std::string &opClass,
            const std::string &elementType = "f32") const;
};

struct CollectivePoint {
  /// Bytes each rank sends, as CostReport counts them (ring algorithms).
  int64_t bytesPerRank = 0;
  double seconds = 0;
};

/// time = alphaSeconds + bytesPerRank / bytesPerSecond, for groups of
/// `group` ranks in a job of `ranks`.
struct CollectiveFit {
  std::string collective;
  /// Timed as a compiled program runs a collective it starts
  /// (tessel_rt_start, then tessel_rt_wait at once: MPI's non-blocking
  /// call, whose algorithm may differ from the blocking call's), rather
  /// than as the blocking call.
  bool started = false;
  int64_t ranks = 0;
  int64_t group = 0;
  double alphaSeconds = 0;
  double bytesPerSecond = 0;
  std::vector<CollectivePoint> points;
};

/// How the CPU runtime computes bf16 einsums and convolutions on a machine
/// (runtime/executor/WidenedOps.h): on their f32 kernels between
/// conversions, which hold f32 copies of the tensors, or on oneDNN's bf16
/// kernels where those are the faster (tessel/runtime/kernels.h,
/// tessel_kernels_bf16_products_outrun_f32).
enum class Bf16Products { Widened, Native };

/// "widened" or "native", as profiles and the probe write it.
const char *bf16ProductsName(Bf16Products products);

/// The Bf16Products that `name` says, or std::nullopt for any other name.
std::optional<Bf16Products> parseBf16Products(const std::string &name);

/// How the CPU runtime computes each kind of bf16 product: the filter
/// gradients of convolutions (conv2d_backward_filter) apart, since on AMD's
/// AVX512-BF16 they run widened where the others run on oneDNN's bf16
/// kernels (tessel_kernels_bf16_filter_gradients_outrun_f32).
struct Bf16Kernels {
  /// einsum, conv2d and conv2d_backward_input.
  Bf16Products products = Bf16Products::Widened;
  /// conv2d_backward_filter.
  Bf16Products filterGradients = Bf16Products::Widened;
};

struct MachineProfile {
  /// Where the profile came from: a path, or "built-in default".
  std::string source;
  /// Says where and when it was measured.
  std::string description;
  std::string cpu;
  int64_t cores = 1;
  /// The caches' bytes the machine's cores share out (each core's level-2
  /// cache and the level-3 caches), 0 where unknown.
  int64_t cacheBytes = 0;
  std::string calibratedAt;
  /// The machine's bf16 products ("bf16_products"); a profile calibrated
  /// before it was recorded says widened, as every machine then computed.
  Bf16Products bf16Products = Bf16Products::Widened;
  /// The machine's bf16 filter gradients ("bf16_filter_gradients"); a
  /// profile calibrated before they were recorded apart ran them as its
  /// other products.
  Bf16Products bf16FilterGradients = Bf16Products::Widened;
  /// How much of a started collective's time the ops after it hide on
  /// this machine ("overlap_fraction", from 0 to 1): what the probe's
  /// started all_reduce behind 8 matrix products saved against the two
  /// alone, over the shorter of them. A profile calibrated before it was
  /// measured hides all that the timeline allows (StepTime).
  std::optional<double> overlapFraction;
  Bf16Kernels bf16Kernels() const {
    return {bf16Products, bf16FilterGradients};
  }
  std::vector<KernelRates> kernels;
  std::vector<CollectiveFit> collectives;
  /// Whether the profile has a "memory" section (those below).
  bool hasMemory = false;
  /// The peak resident memory of one rank of a trivial compiled program
  /// training on the text corpus: MPI, oneDNN, the executable, the driver.
  int64_t driverBytes = 0;
  /// The runtime call sites of that trivial program (RuntimeMemory::
  /// callSites), whose prepared ops driverBytes includes, and what each
  /// call site more holds: the slope of the peak between that program and
  /// a deeper one of the same sizes. 0 (older profiles) counts none.
  int64_t driverCallSites = 0;
  int64_t callSiteBytes = 0;
  /// What `callSites` runtime call sites hold beyond the trivial program's
  /// that driverBytes measured: negative for a shorter program.
  int64_t callSitesBytes(int64_t callSites) const;
  /// What loading Fashion-MNIST (for a step that takes `images`) adds to
  /// it at most, and what stays of it once loaded (its training images and
  /// labels).
  int64_t imageLoadBytes = 0;
  int64_t imageResidentBytes = 0;

  /// Returns the seconds one rank's kernel of `opClass` takes for `work`,
  /// in a job of `ranks` ranks on this machine, from the job size nearest
  /// `ranks` among those of no more ranks than cores (where the profile
  /// has any; sharedCoreSlowdown beyond them): interpolated between the
  /// measured sizes (log-log), the smallest size's time below them (the
  /// call's fixed cost), the largest size's rate above them.
  /// `cold`: with its data out of the caches, where the profile measured
  /// that (else as warm). `elementType`: the op's tensors' (f32, bf16 or
  /// f16; KernelRates::pointsFor).
  double kernelSeconds(const std::string &opClass, int64_t work, int64_t ranks,
                       bool cold = false,
                       const std::string &elementType = "f32") const;
  /// Whether the profile times kernels with their data out of the caches
  /// (every f32 point of every class has coldSeconds; narrow points
  /// without them are timed warm) and knows the caches.
  bool hasColdKernels() const;
  /// The job size's rates kernelSeconds takes `opClass` on `elementType`
  /// tensors from in a job of `ranks`: the nearest job with points for it
  /// (its own or a fallback's) among those of no more ranks than cores
  /// where the profile has any; nullptr if none has.
  const KernelRates *ratesFor(const std::string &opClass, int64_t ranks,
                              const std::string &elementType) const;
  /// Whether the job size kernelSeconds takes for `opClass` on
  /// `elementType` tensors in a job of `ranks` measured that class on that
  /// type itself (rather than falling back to another class's points,
  /// kernelClassFallback, or a narrow type to f32's).
  bool measuredClass(const std::string &opClass, int64_t ranks,
                     const std::string &elementType = "f32") const;

  /// Returns the seconds a compiled program spends per op outside its
  /// kernel in a job of `ranks` ranks: the job size nearest `ranks` that
  /// measured it (of no more ranks than cores, as for kernels), slowed as
  /// kernels are once ranks outnumber cores; 0 for a profile that never
  /// measured it
  /// (its predictions stay what they were when it was written).
  double perOpSeconds(int64_t ranks) const;

  /// How much slower a rank's work is in a job of `ranks` than `rates`
  /// measured: ranks / max(measured ranks, cores) beyond both, else 1.
  double sharedCoreSlowdown(const KernelRates &rates, int64_t ranks) const;

  /// Returns the seconds of one `collective` over a group of `group` ranks
  /// sending `bytesPerRank` each, in a job of `ranks` ranks. `started`:
  /// one the compiled program starts and waits for later, timed by the
  /// started fit of the job size and group chosen where the profile has
  /// one (else by the blocking fit there, as profiles calibrated before
  /// the two were timed apart); a blocking one never by a started fit.
  double collectiveSeconds(const std::string &collective, int64_t group,
                           int64_t bytesPerRank, int64_t ranks,
                           bool started = false) const;
};

/// Fits time = alpha + bytes / bandwidth to `points` by least squares on
/// the relative error (small and large messages weigh alike), with
/// alpha >= 0. Fills `fit`'s alpha and bandwidth.
void fitAlphaBeta(CollectiveFit &fit);

/// Reads a profile from JSON text; on a malformed or implausible profile
/// returns std::nullopt and says what and where in `error`.
std::optional<MachineProfile> parseMachineProfile(const std::string &text,
                                                  const std::string &source,
                                                  std::string &error);

/// Reads a profile file.
std::optional<MachineProfile> readMachineProfile(const std::string &path,
                                                 std::string &error);

/// The profile that ships with tessel (analysis/profiles/default.json).
const MachineProfile &defaultMachineProfile();

/// Renders a profile as JSON, keys in a fixed order.
std::string formatMachineProfile(const MachineProfile &profile);

} // namespace tessel::analysis

#endif // TESSEL_ANALYSIS_MACHINEPROFILE_H
