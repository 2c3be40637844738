//===- MachineFacts.cpp - The machine a profile describes -----------------===//

#include "calibrate/MachineFacts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <unistd.h>

namespace tessel::calibrate {
namespace {

/// The first line of `path`, empty where it cannot be read.
std::string firstLine(const std::string &path) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  return line;
}

std::string cpuName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      size_t start = line.find_first_not_of(' ', colon + 1);
      if (colon != std::string::npos && start != std::string::npos)
        return line.substr(start);
    }
  return "unknown";
}

/// As Linux describes the first core's caches
/// (/sys/devices/system/cpu/cpu0/cache): glibc's sysconf reports the whole
/// socket's level 3 inside a virtual machine.
int64_t sharedCacheBytes(int64_t cores) {
  int64_t bytes = 0;
  for (int index = 0;; ++index) {
    std::string dir =
        fmt::format("/sys/devices/system/cpu/cpu0/cache/index{}/", index);
    std::string level = firstLine(dir + "level");
    if (level.empty())
      break;
    std::string size = firstLine(dir + "size");
    int64_t kib = std::atoll(size.c_str());
    if (size.empty() || size.back() != 'K' || kib <= 0)
      continue;
    if (level == "2")
      bytes += cores * kib * 1024;
    else if (level == "3")
      bytes += kib * 1024;
  }
  return bytes;
}

} // namespace

MachineFacts machineFacts() {
  MachineFacts facts;
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  facts.host = host;
  facts.cpu = cpuName();
  facts.cores = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
  facts.cacheBytes = sharedCacheBytes(facts.cores);
  std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  facts.measuredAt = text;
  return facts;
}

} // namespace tessel::calibrate
