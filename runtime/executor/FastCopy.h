//===- FastCopy.h - Data movement as copies of memory runs ------*- C++ -*-===//
//
// slice, concat, broadcast and transpose move elements without computing:
// the reference kernels convert every operand to double and back, which
// made the buffers of tessel-bucket-all-reduces (a concat before the
// all_reduce, a slice per gradient after it) cost more than the
// collective. These copy the bytes, one run of memory at a time (a run of
// one repeated element, for a broadcast).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_FASTCOPY_H
#define TESSEL_RUNTIME_EXECUTOR_FASTCOPY_H

#include "executor/Op.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessel::runtime {

/// Writes `count` copies of the `elementBytes` bytes at `element` from
/// `out` on (a broadcast's run, a splat constant).
void fillWithElement(const unsigned char *element, size_t elementBytes,
                     unsigned char *out, int64_t count);

/// slice's kernel: the result's elements from `starts` along `dims`, or
/// nothing where the operand and result differ in element type; an
/// OpError where the sizes do not make a slice.
std::optional<Kernel> buildFastSlice(const OpDescriptor &desc,
                                     const std::vector<std::string> &dims,
                                     const std::vector<int64_t> &starts);

/// broadcast's and transpose's kernel, for any element type: the result's
/// dims hold the operand's (in any order, with the same sizes) and perhaps
/// more, along which the operand is repeated; nothing where the element
/// types differ or the result does not hold the operand.
std::optional<Kernel> buildFastRearrange(const OpDescriptor &desc);

/// concat's kernel along `dim`, or nothing where the element types differ;
/// an OpError where the operands' sizes do not make the result's.
std::optional<Kernel> buildFastConcat(const OpDescriptor &desc,
                                      const std::string &dim);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FASTCOPY_H
