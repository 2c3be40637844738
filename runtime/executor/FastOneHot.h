//===- FastOneHot.h - one_hot without the reference tensors -----*- C++ -*-===//

#ifndef TESSEL_RUNTIME_EXECUTOR_FASTONEHOT_H
#define TESSEL_RUNTIME_EXECUTOR_FASTONEHOT_H

#include "executor/Op.h"

#include <optional>

namespace tessel::runtime {

/// one_hot's kernel from i32 ids to an f32 result whose other dims are the
/// ids' in their order (the labels of a cross-entropy): zeros, then a one
/// at each id in range. Nothing for other types or orders.
std::optional<Kernel> buildFastOneHot(const OpDescriptor &desc);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FASTONEHOT_H
