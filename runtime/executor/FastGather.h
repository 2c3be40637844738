//===- FastGather.h - gather as copies of table rows ------------*- C++ -*-===//
//
// An embedding lookup: each id picks a row of the table. The reference
// kernel converts the whole table to double for every call; this one copies
// each picked row where it lies.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_FASTGATHER_H
#define TESSEL_RUNTIME_EXECUTOR_FASTGATHER_H

#include "executor/Op.h"

#include <optional>
#include <string>

namespace tessel::runtime {

/// gather's kernel over the table dim `dim`, for i32 or i64 ids and a table
/// and result of one element type, or nothing otherwise. An id outside the
/// table is left to `reference`, whose error names it.
std::optional<Kernel> buildFastGather(const OpDescriptor &desc,
                                      const std::string &dim,
                                      Kernel reference);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FASTGATHER_H
