//===- SourceLocations.cpp - An op's place in the model, as text ----------===//

#include "dialect/SourceLocations.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Visitors.h"

#include "llvm/ADT/Twine.h"

using namespace mlir;

std::string mlir::tessel::describeLocation(Location loc) {
  std::string result;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      result = (file.getFilename().getValue() + ":" + Twine(file.getLine()) +
                ":" + Twine(file.getColumn()))
                   .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result.empty() ? "unknown location" : result;
}
