//===- CarriedState.h - State decode passes to its next call --*- C++ -*-===//
//
// Text generation feeds what decode returns under an argument's name (a
// key/value cache) back to decode as that argument in the next call, block
// for block on every rank. That is right only when the two are the same
// global tensor split the same way: the same dims, sizes and element type,
// each dim over the same mesh axes. A result of the same local shape under
// another layout (a dim split over another axis, dims in another order)
// would hand each rank a block of another part of the tensor.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_CARRIEDSTATE_H
#define TESSEL_RUNTIME_DRIVER_CARRIEDSTATE_H

#include "driver/Metadata.h"

#include <optional>
#include <string>

namespace tessel::driver {

/// A value's global type with the axes that split its dims, for messages:
/// "[batch:4, key:16] f32, key over model" ("replicated" when unsplit).
std::string describeLayout(const ValueSpec &value);

/// Whether `returned`, a result of decode, may be fed back as its argument
/// `taken` of the same name; otherwise the error, naming both layouts.
std::optional<std::string> checkCarriedState(const ValueSpec &taken,
                                             const ValueSpec &returned);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_CARRIEDSTATE_H
