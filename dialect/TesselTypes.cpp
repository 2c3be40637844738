//===- TesselTypes.cpp - the named-dimension tensor type ------------------===//

#include "dialect/AssemblyHelpers.h"
#include "dialect/TesselDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tessel;

#define GET_TYPEDEF_CLASSES
#include "dialect/TesselTypes.cpp.inc"

void TesselDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialect/TesselTypes.cpp.inc"
      >();
}

// Parses `<[name:size, ...], element-type (, #tessel.layout<...>)?>`.
Type NamedTensorType::parse(AsmParser &parser) {
  SmallVector<StringAttr> names;
  SmallVector<int64_t> shape;
  Type elementType;
  LayoutAttr layout;
  if (parser.parseLess() || parseNamedSizes(parser, names, shape) ||
      parser.parseComma() || parser.parseType(elementType))
    return {};
  if (succeeded(parser.parseOptionalComma()) &&
      parser.parseCustomAttributeWithFallback(layout))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<NamedTensorType>(parser.getContext(), names, shape,
                                            elementType, layout);
}

void NamedTensorType::print(AsmPrinter &printer) const {
  printer << "<";
  printNamedSizes(printer, getDimNames(), getShape());
  printer << ", " << getElementType();
  if (getLayout()) {
    printer << ", ";
    printer.printAttribute(getLayout());
  }
  printer << ">";
}

LogicalResult
NamedTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                        ArrayRef<StringAttr> dimNames, ArrayRef<int64_t> shape,
                        Type elementType, LayoutAttr layout) {
  if (dimNames.size() != shape.size())
    return emitError() << "expected one size per dimension name";
  llvm::SmallDenseSet<StringAttr> seen;
  for (auto [name, size] : llvm::zip(dimNames, shape)) {
    if (name.getValue().empty())
      return emitError() << "dimension names must not be empty";
    if (!seen.insert(name).second)
      return emitError() << "dimension '" << name.getValue()
                         << "' appears twice in one tensor";
    if (size < 1)
      return emitError() << "dimension '" << name.getValue() << "' has size "
                         << size << "; sizes must be >= 1";
  }
  if (!isSupportedElementType(elementType))
    return emitError() << "unsupported element type " << elementType
                       << " (expected f32, f16, bf16, f64, i1, i32 or i64)";
  // Element counts, offsets and byte counts are int64_t everywhere (the
  // verifiers, layouts/, the partitioner, tessel explain, the runtime's
  // buffers), so a tensor whose bytes do not fit in one is refused here,
  // once, instead of overflowing (undefined behaviour) in each of them.
  // A probe run through tests/fuzz/ModelFuzzer caught the reshape verifier
  // overflowing on such sizes.
  int64_t bytes = (elementType.getIntOrFloatBitWidth() + 7) / 8;
  for (auto [name, size] : llvm::zip(dimNames, shape))
    if (llvm::MulOverflow(bytes, size, bytes))
      return emitError() << "dimension '" << name.getValue() << "' of size "
                         << size
                         << " makes the tensor larger than 2^63 - 1 bytes";
  if (layout)
    for (StringAttr dim : layout.getDims())
      if (!seen.contains(dim))
        return emitError() << "layout splits dimension '" << dim.getValue()
                           << "', which the tensor does not have";
  return success();
}

int64_t NamedTensorType::getNumElements() const {
  int64_t count = 1;
  for (int64_t size : getShape())
    count *= size;
  return count;
}

std::optional<unsigned> NamedTensorType::getDimIndex(StringRef name) const {
  for (auto [i, dim] : llvm::enumerate(getDimNames()))
    if (dim.getValue() == name)
      return i;
  return std::nullopt;
}

std::optional<int64_t> NamedTensorType::getDimSize(StringRef name) const {
  if (std::optional<unsigned> index = getDimIndex(name))
    return getShape()[*index];
  return std::nullopt;
}

NamedTensorType NamedTensorType::withElementType(Type elementType) const {
  return NamedTensorType::get(getContext(), getDimNames(), getShape(),
                              elementType, getLayout());
}

NamedTensorType NamedTensorType::withLayout(LayoutAttr layout) const {
  return NamedTensorType::get(getContext(), getDimNames(), getShape(),
                              getElementType(), layout);
}

bool NamedTensorType::hasSameShapeAs(NamedTensorType other) const {
  return getDimNames() == other.getDimNames() &&
         getShape() == other.getShape() &&
         getElementType() == other.getElementType();
}
