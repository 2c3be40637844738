//===- SourceLocations.h - An op's place in the model, as text -*- C++ -*-===//
//
// The one spelling of an op's source location that the runtime's messages
// and profiles (codegen's descriptors) and tessel explain's predicted call
// sites share, so that the two can be read side by side.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_SOURCELOCATIONS_H
#define TESSEL_DIALECT_SOURCELOCATIONS_H

#include "mlir/IR/Location.h"

#include <string>

namespace mlir::tessel {

/// Spells a location as file:line:col, the first one a fused or named
/// location holds, or "unknown location".
std::string describeLocation(Location loc);

} // namespace mlir::tessel

#endif // TESSEL_DIALECT_SOURCELOCATIONS_H
