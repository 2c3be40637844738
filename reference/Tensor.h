//===- Tensor.h - Named-dimension tensors for the reference kernels -*- C++
//-*-===//
//
// The value type of the reference evaluator. Dimensions are identified by
// name, never by position: every kernel matches operand dimensions to result
// dimensions by name, so operands may list their dimensions in any order.
//
// Values are held as double in row-major order of `spec.dims` and are always
// already rounded to `spec.type`, which lets every kernel compute in double
// and round exactly once when it writes its result.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_REFERENCE_TENSOR_H
#define TESSEL_REFERENCE_TENSOR_H

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessel::ref {

enum class ElementType { F32, F16, BF16, F64, I1, I32, I64 };

bool isFloatType(ElementType type);
bool isIntegerType(ElementType type);
/// The MLIR spelling of the type ("f32", "bf16", "i1", ...).
const char *elementTypeName(ElementType type);
std::optional<ElementType> parseElementType(std::string_view name);

/// Rounds `value` to the nearest value representable in `type`:
///  - f64: unchanged.
///  - f32: (double)(float)value, round to nearest even.
///  - f16: IEEE binary16, round to nearest even (subnormals kept,
///    overflow to infinity), computed in software so every compiler agrees.
///  - bf16: first to f32, then round to nearest even of the f32 bit pattern
///    to its top 16 bits, as hardware truncation from f32 does. NaN stays NaN.
///  - i32: truncate toward zero, then wrap modulo 2^32 into the signed range.
///  - i64: truncate toward zero, saturating at the largest doubles
///    inside the i64 range.
///  - i1: 1 if value != 0, else 0.
/// Integer types map NaN to 0, and i32 also maps infinities to 0, because C
/// leaves those conversions undefined and the evaluator must be
/// deterministic.
double roundToType(double value, ElementType type);

/// Describes a tensor: unique dimension names, their sizes and element type.
struct TensorSpec {
  std::vector<std::string> dims;
  std::vector<int64_t> shape;
  ElementType type = ElementType::F32;

  int rank() const { return static_cast<int>(dims.size()); }
  int64_t numElements() const;
  /// The position of the named dimension, or -1 when absent.
  int dimIndex(std::string_view name) const;
  bool hasDim(std::string_view name) const { return dimIndex(name) >= 0; }
  /// The size of the named dimension, which must exist.
  int64_t dimSize(std::string_view name) const;

  bool operator==(const TensorSpec &other) const {
    return dims == other.dims && shape == other.shape && type == other.type;
  }
  bool operator!=(const TensorSpec &other) const { return !(*this == other); }
};

/// One index per dimension, addressed by dimension name.
using NamedIndex = std::initializer_list<std::pair<std::string_view, int64_t>>;

struct Tensor {
  TensorSpec spec;
  std::vector<double> data;

  Tensor() = default;
  /// A tensor with every element equal to `fill` (rounded to the type).
  explicit Tensor(TensorSpec spec, double fill = 0.0);
  /// A tensor holding `values` in row-major order of `spec.dims`; the count
  /// must match and each value is rounded to the type.
  Tensor(TensorSpec spec, std::vector<double> values);

  int rank() const { return spec.rank(); }
  int64_t numElements() const { return spec.numElements(); }
  int dimIndex(std::string_view name) const { return spec.dimIndex(name); }
  int64_t dimSize(std::string_view name) const { return spec.dimSize(name); }

  /// The row-major offset of a positional multi-index.
  int64_t offsetOf(const std::vector<int64_t> &index) const;
  /// The row-major offset of an index given by name, in any order; every
  /// dimension must be named exactly once.
  int64_t offsetOf(NamedIndex index) const;

  double at(const std::vector<int64_t> &index) const {
    return data[offsetOf(index)];
  }
  double at(NamedIndex index) const { return data[offsetOf(index)]; }
};

/// Spells a multi-index of `spec` as "(b=1, t=0)", for error messages.
std::string describeIndex(const TensorSpec &spec,
                          const std::vector<int64_t> &index);

/// Row-major strides of `shape` (the last dimension has stride 1).
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape);

/// Steps `index` to the next multi-index of `shape` in row-major order.
/// Returns false, with `index` back at all zeros, after the last one, so that
/// `do { ... } while (advanceIndex(index, shape));` visits every index of a
/// non-empty shape.
bool advanceIndex(std::vector<int64_t> &index,
                  const std::vector<int64_t> &shape);

/// Calls `visit(index)` for every multi-index of `shape` in row-major order
/// (once for a rank-0 shape, never when a dimension has size 0).
template <typename Visitor>
void forEachIndex(const std::vector<int64_t> &shape, Visitor &&visit) {
  for (int64_t size : shape)
    if (size == 0)
      return;
  std::vector<int64_t> index(shape.size(), 0);
  do {
    visit(static_cast<const std::vector<int64_t> &>(index));
  } while (advanceIndex(index, shape));
}

/// The named indexing helper behind every kernel: maps a multi-index over an
/// iteration space of named dimensions (the "driver", e.g. a result spec plus
/// reduced dimensions) to the flat offset of an operand whose dimensions are
/// a subset of the driver's, found by name. Driver dimensions the operand
/// lacks are broadcast (stride 0).
class NamedIndexMap {
public:
  NamedIndexMap(const std::vector<std::string> &driverDims,
                const std::vector<int64_t> &driverShape,
                const TensorSpec &operand);

  int64_t offset(const std::vector<int64_t> &driverIndex) const {
    int64_t result = 0;
    for (size_t i = 0; i < strides.size(); ++i)
      result += driverIndex[i] * strides[i];
    return result;
  }

private:
  /// The operand's stride for each driver dimension, 0 where it lacks it.
  std::vector<int64_t> strides;
};

} // namespace tessel::ref

#endif // TESSEL_REFERENCE_TENSOR_H
