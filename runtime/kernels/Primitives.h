//===- Primitives.h - What every oneDNN kernel shares -----------*- C++ -*-===//
//
// Inside TesselRuntimeKernels only: the CPU engine, tessel_kernels_t, the
// conversion of StridedTensor to oneDNN memory descriptors, and
// PrimitiveChain, the PreparedKernel that each kernel family fills with its
// primitives. Primitives are built against one process-wide CPU engine, so
// a call site can prepare them before any tessel_kernels_t exists and run
// them on the stream of whichever one the running thread holds.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_KERNELS_PRIMITIVES_H
#define TESSEL_RUNTIME_KERNELS_PRIMITIVES_H

#include "kernels/PreparedKernel.h"

#include "base/Status.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

struct tessel_kernels_t {
  dnnl::engine engine;
  dnnl::stream stream;
};

namespace tessel::runtime {

/// The CPU engine every primitive of the process is made for.
const dnnl::engine &cpuEngine();

/// oneDNN's data type for an element type, if the kernels compute in it:
/// f32 and bf16. (oneDNN has f16 kernels only for CPUs with AVX512-FP16.)
std::optional<dnnl::memory::data_type> dnnlType(tessel_element_type_t type);

/// Attributes that make a primitive take its scratch memory from its
/// caller (DNNL_ARG_SCRATCHPAD, addThreadScratchpad) instead of keeping its
/// own for its life, oneDNN's default: a brgemm matmul that reads a
/// transposed operand in place keeps a 65 to 130 KiB copy of it, and the
/// realistic Transformer's prepared einsums kept 5 MiB a rank so on 4
/// ranks. Every primitive of kernels/ is made with them.
const dnnl::primitive_attr &callerScratchpad();

/// Adds to `arguments` the calling thread's one scratchpad as
/// DNNL_ARG_SCRATCHPAD, grown to `desc`'s size (and never shrunk), for a
/// primitive made with callerScratchpad() that wants `desc`; nothing where
/// it wants none. Valid until the thread's next call.
void addThreadScratchpad(std::unordered_map<int, dnnl::memory> &arguments,
                         const dnnl::memory::desc &desc);

/// The scratchpad `primitive` wants (a zero-size descriptor where none).
dnnl::memory::desc scratchpadOf(const dnnl::primitive &primitive);

/// The number of elements of a tensor.
int64_t numElements(const StridedTensor &tensor);

/// The descriptor of the caller's buffer; dnnl::error where the kernels do
/// not compute in its type.
dnnl::memory::desc userLayout(const StridedTensor &tensor);
/// The same with the elements taken as `type`, whatever tensor.type says.
dnnl::memory::desc userLayout(const StridedTensor &tensor,
                              dnnl::memory::data_type type);

/// The same dims and type with the layout left to the primitive
/// (format_tag::any).
dnnl::memory::desc anyLayout(const StridedTensor &tensor);

/// Calls `body` (which returns a tessel_status_t), turning every exception
/// into a failed status that names `op`, so that none leaves the kernels.
template <typename Body>
tessel_status_t guarded(const char *op, Body &&body) noexcept {
  try {
    return body();
  } catch (const dnnl::error &error) {
    return failf(error.status == dnnl_unimplemented
                     ? TESSEL_STATUS_UNIMPLEMENTED
                     : TESSEL_STATUS_INTERNAL,
                 "{}: oneDNN: {} (status {})", op, error.what(),
                 static_cast<int>(error.status));
  } catch (const std::bad_alloc &) {
    return failf(TESSEL_STATUS_RESOURCE_EXHAUSTED, "{}: out of memory", op);
  } catch (const std::exception &error) {
    return failf(TESSEL_STATUS_INTERNAL, "{}: {}", op, error.what());
  } catch (...) {
    return failf(TESSEL_STATUS_INTERNAL, "{}: unknown exception", op);
  }
}

/// Kernels whose tensors all have at most this many elements run on one
/// thread. Each oneDNN call on OpenMP threads is a fork and a join: at this
/// size (a 3 x 3 convolution of 8 images of 8 x 28 x 28 takes some 50 us)
/// they gain little from a second core, and on a machine whose cores are
/// busy with other work they lose much, as every join waits for a thread
/// the scheduler has not run yet (a CNN step of such ops ran 5 to 10 times
/// slower on two threads than on one under a load of 4 on 2 cores).
constexpr int64_t kSingleThreadedElements = int64_t(1) << 16;

/// The OpenMP thread count of the calling thread, which oneDNN's kernels
/// use, set for the life of the object and then restored. (1 without
/// OpenMP.)
class ThreadCount {
public:
  explicit ThreadCount(int threads);
  ~ThreadCount();
  ThreadCount(const ThreadCount &) = delete;
  ThreadCount &operator=(const ThreadCount &) = delete;

  /// The calling thread's current count.
  static int current();

private:
  int saved_;
};

/// Calls `prepare`, which builds a kernel or throws dnnl::error where oneDNN
/// has no implementation for the shapes or types: the kernel, or null, and
/// then the caller keeps its reference kernel. Kernels over small
/// `tensors` are made for one thread (see kSingleThreadedElements); a
/// PrimitiveChain runs on as many threads as it was made for.
template <typename Prepare>
std::unique_ptr<PreparedKernel>
preparedOrNull(std::initializer_list<const StridedTensor *> tensors,
               Prepare &&prepare) noexcept {
  try {
    int64_t largest = 0;
    for (const StridedTensor *tensor : tensors)
      largest = std::max(largest, numElements(*tensor));
    ThreadCount threads(
        largest <= kSingleThreadedElements ? 1 : ThreadCount::current());
    return prepare();
  } catch (...) {
    return nullptr;
  }
}

/// A PreparedKernel that runs a fixed sequence of primitives over a fixed
/// set of buffers ("slots"): the caller's inputs and output, each reordered
/// through a buffer of its own when the primitives want another layout than
/// the caller's, and scratch buffers between primitives (a pooling's
/// workspace, a forward result that only a backward pass reads).
class PrimitiveChain : public PreparedKernel {
public:
  using Slot = size_t;

  /// The next caller input (inputs[0], inputs[1], ... in call order), held
  /// in `user` and read by the primitives in `wanted`.
  Slot addInput(const dnnl::memory::desc &user,
                const dnnl::memory::desc &wanted);
  /// The caller's output; at most one.
  Slot setOutput(const dnnl::memory::desc &user,
                 const dnnl::memory::desc &wanted);
  /// A buffer of this chain's own.
  Slot addScratch(const dnnl::memory::desc &desc);
  /// Runs `primitive` with each DNNL_ARG_* bound to a slot, after the steps
  /// added before it.
  void addStep(dnnl::primitive primitive,
               std::vector<std::pair<int, Slot>> arguments);

  tessel_status_t run(tessel_kernels_t &kernels, const void *const *inputs,
                      void *output) override;

private:
  /// OpenMP threads: those of the thread that made the chain, for which
  /// oneDNN sized its primitives.
  int threads_ = ThreadCount::current();
  enum class Role { Input, Output, Scratch };
  struct SlotState {
    Role role = Role::Input;
    size_t callerIndex = 0; // For inputs.
    dnnl::memory user;      // Over the caller's buffer; unused for scratch.
    dnnl::memory wanted;    // What the primitives see.
    std::optional<dnnl::reorder> reorder; // user -> wanted, or back.
    std::vector<unsigned char> storage;   // wanted's buffer when owned.
  };
  struct Step {
    dnnl::primitive primitive;
    std::vector<std::pair<int, Slot>> arguments;
    dnnl::memory::desc scratchpad;
  };

  Slot addSlot(Role role, const dnnl::memory::desc &user,
               const dnnl::memory::desc &wanted);

  std::vector<SlotState> slots_;
  std::vector<Step> steps_;
  size_t numInputs_ = 0;
  std::mutex running_;
};

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_KERNELS_PRIMITIVES_H
