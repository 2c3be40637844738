//===- NpyFile.cpp - NumPy .npy arrays as reference tensors ---------------===//

#include "reference/npy/NpyFile.h"

#include "reference/npy/NpyArray.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace tessel::ref;

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

} // namespace

bool tessel::ref::readNpyAs(const std::string &path, const TensorSpec &spec,
                            Tensor &tensor, std::string &error) {
  std::optional<NpyArray> array = NpyArray::open(path, error);
  if (!array)
    return false;
  if (array->shape() != spec.shape) {
    std::string expected = "[";
    for (int i = 0; i < spec.rank(); ++i)
      expected +=
          (i ? ", " : "") + spec.dims[i] + ":" + std::to_string(spec.shape[i]);
    error = path + ": array has shape " + shapeText(array->shape()) +
            " but the input is " + expected + "]";
    return false;
  }
  // An integer input takes whole numbers in its range only: rounding 2.7 to
  // a label of 2, or wrapping 2^32 + 3 to 3, would compute something else
  // than the file says without a word.
  if (isIntegerType(spec.type)) {
    double lowest = spec.type == ElementType::I1    ? 0
                    : spec.type == ElementType::I32 ? -2147483648.0
                                                    : -9223372036854775808.0;
    // 2^63 - 1 is not a double: the literal rounds up to 2^63, which an
    // int64_t cannot hold, so i64's bound is exclusive (uint64 data of 2^63
    // were saturated to 2^63 - 1024 without a word).
    double highest = spec.type == ElementType::I1    ? 1
                     : spec.type == ElementType::I32 ? 2147483647.0
                                                     : 9223372036854775808.0;
    bool exclusive = spec.type == ElementType::I64;
    for (int64_t i = 0; i < array->numElements(); ++i) {
      double value = array->at(i);
      if (value != std::trunc(value) || value < lowest ||
          (exclusive ? value >= highest : value > highest)) {
        std::ostringstream text;
        text.precision(17);
        text << value;
        error = path + ": element " + std::to_string(i) + " is " + text.str() +
                ", which the " + elementTypeName(spec.type) +
                " input cannot hold";
        return false;
      }
    }
  }
  std::vector<double> values(static_cast<size_t>(array->numElements()));
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = array->at(static_cast<int64_t>(i));
  tensor = Tensor(spec, std::move(values));
  return true;
}

const char *tessel::ref::npyTypeString(ElementType type) {
  switch (type) {
  case ElementType::F64:
    return "<f8";
  case ElementType::F16:
    return "<f2";
  case ElementType::I32:
    return "<i4";
  case ElementType::I64:
    return "<i8";
  case ElementType::I1:
    return "|b1";
  case ElementType::F32:
  case ElementType::BF16:
    break;
  }
  return "<f4";
}

std::string tessel::ref::npyHeader(const std::string &typeString,
                                   const std::vector<int64_t> &shape,
                                   size_t minBytes) {
  std::string text = std::string(kMagic, kMagicSize) + '\x01' + '\x00' + "  " +
                     "{'descr': '" + typeString +
                     "', 'fortran_order': False, 'shape': " + shapeText(shape) +
                     ", }";
  size_t length = std::max((text.size() + 1 + 63) / 64 * 64, minBytes);
  text.append(length - 1 - text.size(), ' ');
  text += '\n';
  size_t dictBytes = length - kMagicSize - 4;
  text[kMagicSize + 2] = static_cast<char>(dictBytes & 0xff);
  text[kMagicSize + 3] = static_cast<char>(dictBytes >> 8);
  return text;
}

bool tessel::ref::writeNpy(const std::string &path, const Tensor &tensor,
                           std::string &error) {
  const char *typeString = npyTypeString(tensor.spec.type);
  size_t size = static_cast<size_t>(typeString[2] - '0');
  std::string header = npyHeader(typeString, tensor.spec.shape);
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    error = path + ": cannot create file";
    return false;
  }
  out.write(header.data(), header.size());
  for (double value : tensor.data) {
    char bytes[8];
    auto store = [&](auto typed) { std::memcpy(bytes, &typed, sizeof(typed)); };
    switch (tensor.spec.type) {
    case ElementType::F64:
      store(value);
      break;
    case ElementType::F16:
      store(static_cast<_Float16>(value));
      break;
    case ElementType::I32:
      store(static_cast<int32_t>(value));
      break;
    case ElementType::I64:
      store(static_cast<int64_t>(value));
      break;
    case ElementType::I1:
      store(static_cast<uint8_t>(value != 0));
      break;
    case ElementType::F32:
    case ElementType::BF16:
      store(static_cast<float>(value));
      break;
    }
    out.write(bytes, size);
  }
  if (!out) {
    error = path + ": write failed";
    return false;
  }
  return true;
}
