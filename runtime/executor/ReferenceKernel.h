//===- ReferenceKernel.h - Ops run on the reference kernels -----*- C++ -*-===//
//
// What no fast path computes runs on the reference kernels of reference/:
// the operands read into doubles, the kernel, the result rounded once. That
// is exact but slow (a hundred to a thousand times a fast kernel), so every
// call of one is counted on its thread: the executor gives each call site
// the calls it made (`--profile` lists the sites, runtime/driver/Profile.h)
// and, with TESSEL_REPORT_REFERENCE_KERNELS set, names each site the first
// time it runs one.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_REFERENCEKERNEL_H
#define TESSEL_RUNTIME_EXECUTOR_REFERENCEKERNEL_H

#include "executor/Op.h"
#include "reference/Tensor.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace tessel::runtime {

using ReferenceInputs = std::vector<ref::Tensor>;
using ReferenceFunction =
    std::function<ref::Tensor(const ReferenceInputs &inputs)>;

/// A kernel that loads the operands as reference tensors, calls `compute`
/// and stores what it returns into the result; each call is counted
/// (referenceKernelCalls).
Kernel viaReference(const OpDescriptor &desc, ReferenceFunction compute);

/// Counts one call of a reference kernel on this thread, for a kernel that
/// calls one without viaReference.
void countReferenceKernelCall();

/// The reference kernels this thread has run since it started.
int64_t referenceKernelCalls();

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_REFERENCEKERNEL_H
