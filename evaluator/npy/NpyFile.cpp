//===- NpyFile.cpp - NumPy .npy arrays for the reference tensors ----------===//

#include "evaluator/npy/NpyFile.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace tessel::ref;

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

/// Returns the text after `'key':` in an .npy header dictionary, or "".
std::string headerField(const std::string &header, const std::string &key) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    return "";
  at = header.find(':', at);
  if (at == std::string::npos)
    return "";
  size_t begin = header.find_first_not_of(' ', at + 1);
  if (begin == std::string::npos)
    return "";
  char open = header[begin];
  size_t end;
  if (open == '\'' || open == '"')
    end = header.find(open, begin + 1) + 1;
  else if (open == '(')
    end = header.find(')', begin) + 1;
  else
    end = header.find_first_of(",}", begin);
  if (end == std::string::npos || end == 0)
    return "";
  return header.substr(begin, end - begin);
}

/// Parses a Python tuple of integers such as "(64, 784)" or "(10,)".
bool parseShape(const std::string &text, std::vector<int64_t> &shape) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')')
    return false;
  std::string inner = text.substr(1, text.size() - 2);
  std::stringstream stream(inner);
  std::string item;
  while (std::getline(stream, item, ',')) {
    size_t begin = item.find_first_not_of(' ');
    if (begin == std::string::npos)
      continue;
    char *end = nullptr;
    long long value = std::strtoll(item.c_str() + begin, &end, 10);
    if (end == item.c_str() + begin || value < 0)
      return false;
    shape.push_back(value);
  }
  return true;
}

/// Returns the element size of a supported little-endian type, or 0.
size_t elementSize(const std::string &descr) {
  static const std::pair<const char *, size_t> kSupported[] = {
      {"<f8", 8}, {"<f4", 4}, {"<f2", 2}, {"<i8", 8}, {"<i4", 4}, {"<i2", 2},
      {"|i1", 1}, {"|u1", 1}, {"|b1", 1}, {"<u2", 2}, {"<u4", 4}, {"<u8", 8}};
  for (auto [name, size] : kSupported)
    if (descr == name)
      return size;
  return 0;
}

double decodeElement(const std::string &descr, const char *bytes) {
  auto load = [&](auto value) {
    std::memcpy(&value, bytes, sizeof(value));
    return static_cast<double>(value);
  };
  if (descr == "<f8")
    return load(double());
  if (descr == "<f4")
    return load(float());
  if (descr == "<f2")
    return load(_Float16());
  if (descr == "<i8")
    return load(int64_t());
  if (descr == "<i4")
    return load(int32_t());
  if (descr == "<i2")
    return load(int16_t());
  if (descr == "|i1")
    return load(int8_t());
  if (descr == "|u1" || descr == "|b1")
    return load(uint8_t());
  if (descr == "<u2")
    return load(uint16_t());
  if (descr == "<u4")
    return load(uint32_t());
  return load(uint64_t());
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

} // namespace

bool tessel::ref::readNpy(const std::string &path, NpyArray &array,
                          std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot open file";
    return false;
  }
  char magic[kMagicSize + 2];
  if (!in.read(magic, sizeof(magic)) ||
      std::memcmp(magic, kMagic, kMagicSize) != 0) {
    error = path + ": not an .npy file (bad magic string)";
    return false;
  }
  uint8_t major = static_cast<uint8_t>(magic[kMagicSize]);
  uint32_t headerLength = 0;
  if (major == 1) {
    uint16_t length16;
    in.read(reinterpret_cast<char *>(&length16), 2);
    headerLength = length16;
  } else if (major == 2 || major == 3) {
    in.read(reinterpret_cast<char *>(&headerLength), 4);
  } else {
    error = path + ": unsupported .npy version " + std::to_string(major);
    return false;
  }
  // Real headers are a few hundred bytes; a huge length means a damaged file.
  if (!in || headerLength > (1u << 20)) {
    error = path + ": truncated or damaged .npy header";
    return false;
  }
  std::string header(headerLength, '\0');
  if (!in.read(header.data(), headerLength)) {
    error = path + ": truncated .npy header";
    return false;
  }
  std::string descr = headerField(header, "descr");
  if (descr.size() >= 2)
    descr = descr.substr(1, descr.size() - 2);
  if (descr == "=f4" || descr == "=f8" || descr == "=i4" || descr == "=i8")
    descr[0] = '<';
  size_t size = elementSize(descr);
  if (size == 0) {
    error = path + ": unsupported element type '" + descr +
            "' (expected little-endian float or integer)";
    return false;
  }
  if (headerField(header, "fortran_order").rfind("False", 0) != 0) {
    error = path + ": Fortran-ordered arrays are not supported";
    return false;
  }
  std::vector<int64_t> shape;
  if (!parseShape(headerField(header, "shape"), shape)) {
    error = path + ": malformed shape in .npy header";
    return false;
  }
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim != 0 && count > (int64_t(1) << 40) / dim) {
      error = path + ": array too large";
      return false;
    }
    count *= dim;
  }
  std::vector<char> bytes(static_cast<size_t>(count) * size);
  if (!in.read(bytes.data(), bytes.size())) {
    error = path + ": file holds fewer elements than its shape " +
            shapeText(shape) + " needs";
    return false;
  }
  array.shape = std::move(shape);
  array.descr = descr;
  array.values.resize(count);
  for (int64_t i = 0; i < count; ++i)
    array.values[i] = decodeElement(descr, bytes.data() + i * size);
  return true;
}

bool tessel::ref::readNpyAs(const std::string &path, const TensorSpec &spec,
                            Tensor &tensor, std::string &error) {
  NpyArray array;
  if (!readNpy(path, array, error))
    return false;
  if (array.shape != spec.shape) {
    std::string expected = "[";
    for (int i = 0; i < spec.rank(); ++i)
      expected +=
          (i ? ", " : "") + spec.dims[i] + ":" + std::to_string(spec.shape[i]);
    error = path + ": array has shape " + shapeText(array.shape) +
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
    double highest = spec.type == ElementType::I1    ? 1
                     : spec.type == ElementType::I32 ? 2147483647.0
                                                     : 9223372036854775807.0;
    for (size_t i = 0; i < array.values.size(); ++i) {
      double value = array.values[i];
      if (value != std::trunc(value) || value < lowest || value > highest) {
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
  tensor = Tensor(spec, std::move(array.values));
  return true;
}

bool tessel::ref::writeNpy(const std::string &path, const Tensor &tensor,
                           std::string &error) {
  const char *descr = "<f4";
  size_t size = 4;
  switch (tensor.spec.type) {
  case ElementType::F64:
    descr = "<f8", size = 8;
    break;
  case ElementType::F16:
    descr = "<f2", size = 2;
    break;
  case ElementType::I32:
    descr = "<i4", size = 4;
    break;
  case ElementType::I64:
    descr = "<i8", size = 8;
    break;
  case ElementType::I1:
    descr = "|b1", size = 1;
    break;
  case ElementType::F32:
  case ElementType::BF16:
    break;
  }
  std::string header =
      std::string("{'descr': '") + descr +
      "', 'fortran_order': False, 'shape': " + shapeText(tensor.spec.shape) +
      ", }";
  // Pad so that the data starts on a 64-byte boundary, as NumPy does.
  size_t unpadded = kMagicSize + 2 + 2 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header.push_back('\n');
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    error = path + ": cannot create file";
    return false;
  }
  out.write(kMagic, kMagicSize);
  out.put(1);
  out.put(0);
  uint16_t length = static_cast<uint16_t>(header.size());
  out.write(reinterpret_cast<const char *>(&length), 2);
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
