//===- Einsum.h - einsum prepared once for fixed shapes ---------*- C++ -*-===//

#ifndef TESSEL_RUNTIME_KERNELS_EINSUM_H
#define TESSEL_RUNTIME_KERNELS_EINSUM_H

#include "kernels/PreparedKernel.h"

#include <memory>
#include <string>
#include <vector>

namespace tessel::runtime {

/// An einsum of two dense row-major tensors into a third, labelled as in
/// tessel_kernels_einsum, as one matmul primitive made once: inputs lhs,
/// rhs. Null when an operand or the result cannot be read in place (its
/// dims of one class do not lie evenly in memory), or when oneDNN would
/// take its reference matmul for the strides, or when a tensor has more
/// than kSingleThreadedElements elements: the caller keeps
/// tessel_kernels_einsum, which permutes copies each call.
std::unique_ptr<PreparedKernel>
prepareEinsum(const std::vector<int64_t> &lhsShape,
              const std::vector<int32_t> &lhsLabels,
              const std::vector<int64_t> &rhsShape,
              const std::vector<int32_t> &rhsLabels,
              const std::vector<int64_t> &resultShape,
              const std::vector<int32_t> &resultLabels,
              tessel_element_type_t type);

/// The oneDNN implementation (its impl_info_str: "brg:avx512_core",
/// "gemm:jit", ...) of the matmul tessel_kernels_einsum runs for dense
/// row-major tensors of these shapes and labels, and whether it reads them
/// in place rather than through permuted copies; empty when the einsum is
/// malformed or has nothing to multiply.
struct EinsumImplementation {
  std::string matmul;
  bool inPlace = false;
};
EinsumImplementation einsumImplementation(
    const std::vector<int64_t> &lhsShape, const std::vector<int32_t> &lhsLabels,
    const std::vector<int64_t> &rhsShape, const std::vector<int32_t> &rhsLabels,
    const std::vector<int64_t> &resultShape,
    const std::vector<int32_t> &resultLabels, tessel_element_type_t type);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_KERNELS_EINSUM_H
