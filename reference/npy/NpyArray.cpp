//===- NpyArray.cpp - NumPy .npy arrays, memory-mapped --------------------===//

#include "reference/npy/NpyArray.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tessel::ref {

struct NpyArray::Mapping {
  void *address = MAP_FAILED;
  size_t size = 0;
  ~Mapping() {
    if (address != MAP_FAILED)
      ::munmap(address, size);
  }
};

namespace {

/// The text after `'key':` in the header dict, with leading blanks
/// skipped, or nothing if the key is missing.
std::optional<std::string> valueOf(const std::string &header,
                                   const std::string &key) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    return std::nullopt;
  at = header.find(':', at);
  if (at == std::string::npos)
    return std::nullopt;
  at = header.find_first_not_of(' ', at + 1);
  if (at == std::string::npos)
    return std::nullopt;
  return header.substr(at);
}

/// Parses "(3, 4)" / "(3,)" / "()" at the start of `text`.
std::optional<std::vector<int64_t>> parseShape(const std::string &text) {
  if (text.empty() || text[0] != '(')
    return std::nullopt;
  size_t close = text.find(')');
  if (close == std::string::npos)
    return std::nullopt;
  std::vector<int64_t> shape;
  std::string inside = text.substr(1, close - 1);
  size_t at = 0;
  while (at < inside.size()) {
    size_t comma = inside.find(',', at);
    std::string item = inside.substr(
        at, comma == std::string::npos ? std::string::npos : comma - at);
    size_t first = item.find_first_not_of(' ');
    if (first != std::string::npos) {
      item = item.substr(first, item.find_last_not_of(' ') - first + 1);
      char *end = nullptr;
      long long value = std::strtoll(item.c_str(), &end, 10);
      if (end == item.c_str() || *end != '\0' || value < 0)
        return std::nullopt;
      shape.push_back(value);
    }
    if (comma == std::string::npos)
      break;
    at = comma + 1;
  }
  return shape;
}

} // namespace

std::optional<NpyArray> NpyArray::open(const std::string &path,
                                       std::string &error) {
  auto fail = [&](const std::string &what) {
    error = path + ": " + what;
    return std::nullopt;
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fail(std::strerror(errno));
  struct stat info;
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    return fail("not a regular file");
  }
  auto mapping = std::make_shared<Mapping>();
  mapping->size = static_cast<size_t>(info.st_size);
  if (mapping->size > 0)
    mapping->address =
        ::mmap(nullptr, mapping->size, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (mapping->size == 0 || mapping->address == MAP_FAILED)
    return fail("cannot map the file (empty or unreadable)");
  std::optional<NpyArray> array =
      fromBytes(path, static_cast<const unsigned char *>(mapping->address),
                mapping->size, error);
  if (array)
    array->mapping = std::move(mapping);
  return array;
}

std::optional<NpyArray> NpyArray::fromBytes(const std::string &name,
                                            const unsigned char *bytes,
                                            size_t size, std::string &error) {
  auto fail = [&](const std::string &what) {
    error = name + ": " + what;
    return std::nullopt;
  };

  static const unsigned char kMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (size < 10 || std::memcmp(bytes, kMagic, sizeof kMagic) != 0)
    return fail("not a .npy file (no \\x93NUMPY magic)");
  int major = bytes[6];
  size_t headerLength = 0, headerStart = 0;
  if (major == 1) {
    headerLength = bytes[8] | (bytes[9] << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12)
      return fail("truncated header");
    headerLength = static_cast<size_t>(bytes[8]) | (bytes[9] << 8) |
                   (bytes[10] << 16) | (static_cast<size_t>(bytes[11]) << 24);
    headerStart = 12;
  } else {
    return fail("format version " + std::to_string(major) +
                " is not supported (1 to 3 are)");
  }
  if (headerStart + headerLength > size)
    return fail("truncated header");
  std::string header(reinterpret_cast<const char *>(bytes + headerStart),
                     headerLength);

  NpyArray array;
  array.filePath = name;
  std::optional<std::string> descr = valueOf(header, "descr");
  if (!descr || descr->size() < 2 || (*descr)[0] != '\'' ||
      descr->find('\'', 1) == std::string::npos)
    return fail("the header has no 'descr'");
  array.typeString = descr->substr(1, descr->find('\'', 1) - 1);
  std::optional<std::string> fortran = valueOf(header, "fortran_order");
  if (!fortran)
    return fail("the header has no 'fortran_order'");
  if (fortran->rfind("True", 0) == 0)
    return fail("the array is in Fortran order; save it in C order "
                "(numpy.ascontiguousarray)");
  std::optional<std::string> shapeText = valueOf(header, "shape");
  std::optional<std::vector<int64_t>> shape =
      shapeText ? parseShape(*shapeText) : std::nullopt;
  if (!shape)
    return fail("the header has no readable 'shape'");
  array.arrayShape = *shape;

  // "=" is the machine's order, little-endian on every machine tessel
  // runs on.
  std::string &type = array.typeString;
  if (type.size() == 3 && type[0] == '=')
    type[0] = '<';
  bool byteSized =
      type.size() == 3 && (type[0] == '|' || type[0] == '<') && type[2] == '1';
  if (type.size() != 3 || (type[0] != '<' && !byteSized))
    return fail("element type '" + type +
                "' is not supported (little-endian or byte-sized only)");
  array.kind = type[1];
  array.elementBytes = type[2] - '0';
  bool anyWidth = array.elementBytes == 1 || array.elementBytes == 2 ||
                  array.elementBytes == 4 || array.elementBytes == 8;
  bool known = (array.kind == 'f' && array.elementBytes != 1 && anyWidth) ||
               ((array.kind == 'i' || array.kind == 'u') && anyWidth) ||
               (array.kind == 'b' && array.elementBytes == 1);
  if (!known)
    return fail("element type '" + type +
                "' is not supported (bool, uint8/16/32/64, int8/16/32/64, "
                "float16/32/64 are)");

  size_t dataStart = headerStart + headerLength;
  int64_t needed = array.elementBytes;
  for (int64_t extent : array.arrayShape)
    if (__builtin_mul_overflow(needed, extent, &needed))
      return fail("the header's shape is too large to exist");
  if (static_cast<int64_t>(size - dataStart) < needed)
    return fail("truncated: the header promises " + std::to_string(needed) +
                " bytes of data, the file holds " +
                std::to_string(size - dataStart));
  array.data = bytes + dataStart;
  return array;
}

int64_t NpyArray::numElements() const {
  int64_t count = 1;
  for (int64_t size : arrayShape)
    count *= size;
  return count;
}

double NpyArray::at(int64_t flat) const {
  const unsigned char *element = data + flat * elementBytes;
  // memcpy: the data start is 16-byte aligned in files numpy writes, but
  // nothing promises it for every file.
  auto load = [&](auto value) {
    std::memcpy(&value, element, sizeof value);
    return static_cast<double>(value);
  };
  switch (kind) {
  case 'f':
    switch (elementBytes) {
    case 2:
      return load(_Float16());
    case 4:
      return load(float());
    default:
      return load(double());
    }
  case 'b':
    return load(uint8_t());
  case 'u':
    switch (elementBytes) {
    case 1:
      return load(uint8_t());
    case 2:
      return load(uint16_t());
    case 4:
      return load(uint32_t());
    default:
      return load(uint64_t());
    }
  default:
    switch (elementBytes) {
    case 1:
      return load(int8_t());
    case 2:
      return load(int16_t());
    case 4:
      return load(int32_t());
    default:
      return load(int64_t());
    }
  }
}

} // namespace tessel::ref
