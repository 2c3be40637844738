//===- Primitives.cpp - What every oneDNN kernel shares -------------------===//

#include "kernels/Primitives.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <cstring>

#ifdef TESSEL_KERNELS_HAS_OPENMP
#include <omp.h>
#endif

#include <unordered_map>

namespace tessel::runtime {

StridedTensor StridedTensor::rowMajor(const std::vector<int64_t> &shape,
                                      tessel_element_type_t type) {
  StridedTensor tensor{shape, std::vector<int64_t>(shape.size(), 1), type};
  for (size_t i = shape.size(); i-- > 1;)
    tensor.strides[i - 1] = tensor.strides[i] * shape[i];
  return tensor;
}

int64_t numElements(const StridedTensor &tensor) {
  int64_t count = 1;
  for (int64_t size : tensor.dims)
    count *= size;
  return count;
}

ThreadCount::ThreadCount(int threads) : saved_(current()) {
#ifdef TESSEL_KERNELS_HAS_OPENMP
  omp_set_num_threads(threads);
#else
  (void)threads;
#endif
}

ThreadCount::~ThreadCount() {
#ifdef TESSEL_KERNELS_HAS_OPENMP
  omp_set_num_threads(saved_);
#endif
}

int ThreadCount::current() {
#ifdef TESSEL_KERNELS_HAS_OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

const dnnl::engine &cpuEngine() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

const dnnl::primitive_attr &callerScratchpad() {
  static const dnnl::primitive_attr attributes = [] {
    dnnl::primitive_attr made;
    made.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    return made;
  }();
  return attributes;
}

void addThreadScratchpad(std::unordered_map<int, dnnl::memory> &arguments,
                         const dnnl::memory::desc &desc) {
  size_t bytes = desc.get_size();
  if (bytes == 0)
    return;
  thread_local std::vector<unsigned char> storage;
  if (storage.size() < bytes)
    storage.resize(bytes);
  arguments.emplace(DNNL_ARG_SCRATCHPAD,
                    dnnl::memory(desc, cpuEngine(), storage.data()));
}

dnnl::memory::desc scratchpadOf(const dnnl::primitive &primitive) {
  const dnnl_memory_desc_t *scratchpad = dnnl_primitive_desc_query_md(
      primitive.get_primitive_desc(), dnnl_query_scratchpad_md, 0);
  return scratchpad ? dnnl::memory::desc(*scratchpad) : dnnl::memory::desc();
}

std::optional<dnnl::memory::data_type> dnnlType(tessel_element_type_t type) {
  switch (type) {
  case TESSEL_ELEMENT_TYPE_F32:
    return dnnl::memory::data_type::f32;
  case TESSEL_ELEMENT_TYPE_BF16:
    return dnnl::memory::data_type::bf16;
  default:
    return std::nullopt;
  }
}

static dnnl::memory::data_type checkedType(tessel_element_type_t type) {
  std::optional<dnnl::memory::data_type> dnnl = dnnlType(type);
  if (!dnnl)
    throw dnnl::error(dnnl_unimplemented, "element type without oneDNN");
  return *dnnl;
}

dnnl::memory::desc userLayout(const StridedTensor &tensor) {
  return userLayout(tensor, checkedType(tensor.type));
}

dnnl::memory::desc userLayout(const StridedTensor &tensor,
                              dnnl::memory::data_type type) {
  // A size-1 dim's stride is never used, but oneDNN compares it: give it
  // the one a dense layout would, so that a caller's layout equals the
  // plain one a primitive picks whenever they agree on every other dim.
  dnnl::memory::dims strides = tensor.strides;
  for (size_t i = strides.size(); i-- > 0;)
    if (tensor.dims[i] == 1)
      strides[i] =
          i + 1 < strides.size() ? strides[i + 1] * tensor.dims[i + 1] : 1;
  return dnnl::memory::desc(tensor.dims, type, strides);
}

dnnl::memory::desc anyLayout(const StridedTensor &tensor) {
  return dnnl::memory::desc(tensor.dims, checkedType(tensor.type),
                            dnnl::memory::format_tag::any);
}

PrimitiveChain::Slot PrimitiveChain::addSlot(Role role,
                                             const dnnl::memory::desc &user,
                                             const dnnl::memory::desc &wanted) {
  const dnnl::engine &engine = cpuEngine();
  SlotState slot;
  slot.role = role;
  if (role == Role::Input)
    slot.callerIndex = numInputs_++;
  // Memory objects are made once; each run points them at its buffers.
  if (role != Role::Scratch)
    slot.user = dnnl::memory(user, engine, DNNL_MEMORY_NONE);
  bool reordered = role == Role::Scratch || !(user == wanted);
  if (reordered) {
    slot.storage.resize(wanted.get_size());
    slot.wanted = dnnl::memory(wanted, engine, slot.storage.data());
  } else {
    slot.wanted = slot.user;
  }
  if (role == Role::Input && reordered)
    slot.reorder = dnnl::reorder(slot.user, slot.wanted);
  if (role == Role::Output && reordered)
    slot.reorder = dnnl::reorder(slot.wanted, slot.user);
  slots_.push_back(std::move(slot));
  return slots_.size() - 1;
}

PrimitiveChain::Slot
PrimitiveChain::addInput(const dnnl::memory::desc &user,
                         const dnnl::memory::desc &wanted) {
  return addSlot(Role::Input, user, wanted);
}

PrimitiveChain::Slot
PrimitiveChain::setOutput(const dnnl::memory::desc &user,
                          const dnnl::memory::desc &wanted) {
  return addSlot(Role::Output, user, wanted);
}

PrimitiveChain::Slot
PrimitiveChain::addScratch(const dnnl::memory::desc &desc) {
  return addSlot(Role::Scratch, desc, desc);
}

void PrimitiveChain::addStep(dnnl::primitive primitive,
                             std::vector<std::pair<int, Slot>> arguments) {
  dnnl::memory::desc scratchpad = scratchpadOf(primitive);
  steps_.push_back(
      {std::move(primitive), std::move(arguments), std::move(scratchpad)});
}

tessel_status_t PrimitiveChain::run(tessel_kernels_t &kernels,
                                    const void *const *inputs, void *output) {
  return guarded("oneDNN kernel", [&] {
    std::lock_guard<std::mutex> lock(running_);
    ThreadCount threads(threads_);
    dnnl::stream &stream = kernels.stream;
    for (SlotState &slot : slots_) {
      if (slot.role == Role::Scratch)
        continue;
      void *data = slot.role == Role::Input
                       ? const_cast<void *>(inputs[slot.callerIndex])
                       : output;
      slot.user.set_data_handle(data, stream);
      if (slot.role == Role::Input && slot.reorder)
        slot.reorder->execute(stream, slot.user, slot.wanted);
    }
    for (const Step &step : steps_) {
      std::unordered_map<int, dnnl::memory> arguments;
      for (const auto &[argument, slot] : step.arguments)
        arguments.emplace(argument, slots_[slot].wanted);
      addThreadScratchpad(arguments, step.scratchpad);
      step.primitive.execute(stream, arguments);
    }
    for (SlotState &slot : slots_)
      if (slot.role == Role::Output && slot.reorder)
        slot.reorder->execute(stream, slot.wanted, slot.user);
    stream.wait();
    return TESSEL_STATUS_OK;
  });
}

} // namespace tessel::runtime

namespace {

/// Whether oneDNN runs `wanted`'s instructions on this CPU. The ISA bits
/// are cumulative: avx512_core's include avx2's.
bool cpuHas(dnnl::cpu_isa wanted) {
  auto isa = static_cast<unsigned>(dnnl::get_effective_cpu_isa());
  auto bits = static_cast<unsigned>(wanted);
  return (isa & bits) == bits;
}

} // namespace

int tessel_kernels_compute_bf16(void) {
  static const bool computes = cpuHas(dnnl::cpu_isa::avx512_core);
  return computes ? 1 : 0;
}

namespace {

/// Whether the CPU is AMD's (cpuid's vendor "AuthenticAMD").
bool isAmdCpu() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx))
    return false;
  char vendor[13] = {};
  std::memcpy(vendor, &ebx, 4);
  std::memcpy(vendor + 4, &edx, 4);
  std::memcpy(vendor + 8, &ecx, 4);
  return std::strcmp(vendor, "AuthenticAMD") == 0;
#else
  return false;
#endif
}

} // namespace

int tessel_kernels_bf16_products_outrun_f32(void) {
  static const bool outrun = [] {
    // AMX's tiles outrun any vector unit. Without them, AMD's AVX512-BF16
    // (Zen 4, the first AMD CPU with AVX-512, and later) issues its dot
    // products at the FMAs' rate, twice their multiply-adds: oneDNN 2.6's
    // 2048^3 GEMM ran at 946 GFLOP/s in bf16 against 508 in f32 on 2
    // cores of an EPYC, where Intel's without AMX issue them at half
    // that rate (150 against 256 on 2 cores of a Xeon).
    return cpuHas(dnnl::cpu_isa::avx512_core_amx) ||
           (cpuHas(dnnl::cpu_isa::avx512_core_bf16) && isAmdCpu());
  }();
  return outrun ? 1 : 0;
}

int tessel_kernels_bf16_filter_gradients_outrun_f32(void) {
  static const bool outrun = cpuHas(dnnl::cpu_isa::avx512_core_amx);
  return outrun ? 1 : 0;
}
