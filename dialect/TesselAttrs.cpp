//===- TesselAttrs.cpp - mesh and layout attributes -----------------------===//

#include "dialect/AssemblyHelpers.h"
#include "dialect/TesselDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tessel;

#define GET_ATTRDEF_CLASSES
#include "dialect/TesselAttrs.cpp.inc"

void TesselDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialect/TesselAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// MeshAttr
//===----------------------------------------------------------------------===//

// Parses `<[name:size, ...]>`.
Attribute MeshAttr::parse(AsmParser &parser, Type) {
  SmallVector<StringAttr> names;
  SmallVector<int64_t> sizes;
  if (parser.parseLess() || parseNamedSizes(parser, names, sizes) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<MeshAttr>(parser.getContext(), names, sizes);
}

void MeshAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printNamedSizes(printer, getAxisNames(), getAxisSizes());
  printer << ">";
}

LogicalResult MeshAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<StringAttr> axisNames,
                               ArrayRef<int64_t> axisSizes) {
  if (axisNames.size() != axisSizes.size())
    return emitError() << "expected one size per mesh axis";
  llvm::SmallDenseSet<StringAttr> seen;
  for (auto [name, size] : llvm::zip(axisNames, axisSizes)) {
    if (!seen.insert(name).second)
      return emitError() << "mesh axis '" << name.getValue()
                         << "' appears twice";
    if (size < 1)
      return emitError() << "mesh axis '" << name.getValue() << "' has size "
                         << size << "; sizes must be >= 1";
  }
  // The bound of layout files (layouts/LayoutFile.cpp), for meshes written
  // in IR: every pass, the evaluator (which simulates each rank) and the
  // runtime count ranks in int64_t, and MPI in int.
  constexpr int64_t kMaxRanks = int64_t(1) << 31;
  int64_t ranks = 1;
  for (int64_t size : axisSizes)
    if (__builtin_mul_overflow(ranks, size, &ranks) || ranks > kMaxRanks)
      return emitError() << "the mesh has more than " << kMaxRanks << " ranks";
  return success();
}

int64_t MeshAttr::getNumRanks() const {
  int64_t ranks = 1;
  for (int64_t size : getAxisSizes())
    ranks *= size;
  return ranks;
}

std::optional<int64_t> MeshAttr::getAxisSize(StringRef name) const {
  for (auto [axis, size] : llvm::zip(getAxisNames(), getAxisSizes()))
    if (axis.getValue() == name)
      return size;
  return std::nullopt;
}

std::optional<int64_t> MeshAttr::getGroupSize(ArrayRef<StringAttr> axes) const {
  int64_t size = 1;
  for (StringAttr axis : axes) {
    std::optional<int64_t> axisSize = getAxisSize(axis.getValue());
    if (!axisSize)
      return std::nullopt;
    size *= *axisSize;
  }
  return size;
}

//===----------------------------------------------------------------------===//
// LayoutAttr
//===----------------------------------------------------------------------===//

// Parses `<{dim = axis, dim = [axis, axis], ...}>`.
Attribute LayoutAttr::parse(AsmParser &parser, Type) {
  Builder &builder = parser.getBuilder();
  SmallVector<StringAttr> dims;
  SmallVector<ArrayAttr> axes;
  auto parseAxisName = [&](SmallVectorImpl<Attribute> &into) -> ParseResult {
    std::string axis;
    if (parser.parseKeywordOrString(&axis))
      return failure();
    into.push_back(builder.getStringAttr(axis));
    return success();
  };
  auto parseSplit = [&]() -> ParseResult {
    std::string dim;
    if (parser.parseKeywordOrString(&dim) || parser.parseEqual())
      return failure();
    SmallVector<Attribute> dimAxes;
    // An empty list parses, so that the verifier can say what is wrong.
    if (succeeded(parser.parseOptionalLSquare())) {
      if (failed(parser.parseOptionalRSquare()) &&
          (parser.parseCommaSeparatedList(
               [&]() { return parseAxisName(dimAxes); }) ||
           parser.parseRSquare()))
        return failure();
    } else if (parseAxisName(dimAxes)) {
      return failure();
    }
    dims.push_back(builder.getStringAttr(dim));
    axes.push_back(builder.getArrayAttr(dimAxes));
    return success();
  };
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces,
                                     parseSplit) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<LayoutAttr>(parser.getContext(), dims, axes);
}

void LayoutAttr::print(AsmPrinter &printer) const {
  printer << "<{";
  for (auto [i, dim, dimAxes] : llvm::enumerate(getDims(), getAxes())) {
    if (i)
      printer << ", ";
    printer.printKeywordOrString(dim.getValue());
    printer << " = [";
    llvm::interleaveComma(dimAxes, printer, [&](Attribute axis) {
      printer.printKeywordOrString(cast<StringAttr>(axis).getValue());
    });
    printer << "]";
  }
  printer << "}>";
}

LogicalResult LayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<StringAttr> dims,
                                 ArrayRef<ArrayAttr> axes) {
  if (dims.size() != axes.size())
    return emitError() << "expected one axis list per dimension";
  llvm::SmallDenseSet<StringAttr> seenDims;
  llvm::SmallDenseMap<StringAttr, StringAttr> axisUser;
  for (auto [dim, dimAxes] : llvm::zip(dims, axes)) {
    if (!seenDims.insert(dim).second)
      return emitError() << "layout lists dimension '" << dim.getValue()
                         << "' twice";
    if (dimAxes.empty())
      return emitError() << "layout of dimension '" << dim.getValue()
                         << "' names no mesh axis";
    for (Attribute axis : dimAxes) {
      auto axisName = dyn_cast<StringAttr>(axis);
      if (!axisName)
        return emitError() << "mesh axes must be names";
      auto [it, inserted] = axisUser.try_emplace(axisName, dim);
      if (!inserted)
        return emitError() << "mesh axis '" << axisName.getValue()
                           << "' splits both dimension '"
                           << it->second.getValue() << "' and dimension '"
                           << dim.getValue() << "'";
    }
  }
  return success();
}

SmallVector<StringAttr> LayoutAttr::getAxesOf(StringRef dim) const {
  SmallVector<StringAttr> result;
  for (auto [name, dimAxes] : llvm::zip(getDims(), getAxes()))
    if (name.getValue() == dim)
      for (Attribute axis : dimAxes)
        result.push_back(cast<StringAttr>(axis));
  return result;
}
