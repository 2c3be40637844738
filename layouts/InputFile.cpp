//===- InputFile.cpp - what a text input may be ---------------------------===//

#include "layouts/InputFile.h"

#include <filesystem>
#include <system_error>

namespace fs = std::filesystem;

std::optional<std::string>
tessel::layout::notATextFile(const std::string &path) {
  std::error_code code;
  fs::file_status status = fs::status(path, code);
  if (code)
    return std::nullopt;
  switch (status.type()) {
  case fs::file_type::character:
    return "it is a character device, not a file";
  case fs::file_type::block:
    return "it is a block device, not a file";
  case fs::file_type::socket:
    return "it is a socket, not a file";
  default:
    return std::nullopt;
  }
}
