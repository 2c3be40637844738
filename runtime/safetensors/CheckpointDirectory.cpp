//===- CheckpointDirectory.cpp - Writing a sharded checkpoint -------------===//

#include "safetensors/CheckpointDirectory.h"

#include "safetensors/CheckpointFile.h"
#include "safetensors/Safetensors.h"
#include "safetensors/ShardIndex.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <unistd.h>

namespace tessel::safetensors {

namespace fs = std::filesystem;

namespace {

/// fsyncs a directory, so that the names made in it survive a crash.
bool syncDirectory(const std::string &directory) {
  int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0)
    return false;
  bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

} // namespace

std::string temporaryCheckpointDirectory(const std::string &dir, int64_t step) {
  return (fs::path(dir) / fmt::format(".step-{:08d}.tmp", step)).string();
}

bool startCheckpointDirectory(const std::string &dir, int64_t step,
                              std::string &error) {
  std::string temporary = temporaryCheckpointDirectory(dir, step);
  std::error_code failure;
  fs::create_directories(dir, failure);
  if (!failure)
    fs::remove_all(temporary, failure);
  if (!failure)
    fs::create_directory(temporary, failure);
  if (failure) {
    error = fmt::format("cannot create {}: {}", temporary, failure.message());
    return false;
  }
  return true;
}

void abandonCheckpointDirectory(const std::string &dir, int64_t step) {
  std::error_code ignored;
  fs::remove_all(temporaryCheckpointDirectory(dir, step), ignored);
}

bool publishCheckpointDirectory(
    const std::string &dir, int64_t step,
    const std::map<std::string, std::string> &weightMap, uint64_t totalSize,
    std::string &error) {
  std::string temporary = temporaryCheckpointDirectory(dir, step);
  std::string target = checkpointDirectory(dir, step);
  auto failWith = [&](const std::string &message) {
    error = message;
    abandonCheckpointDirectory(dir, step);
    return false;
  };
  std::string index = shardIndexText(weightMap, totalSize, step);
  if (!writeAtomically((fs::path(temporary) / kIndexFileName).string(),
                       {{index.data(), index.size()}}, error))
    return failWith(error);
  if (!syncDirectory(temporary))
    return failWith(
        fmt::format("cannot write {}: {}", temporary, std::strerror(errno)));
  std::error_code failure;
  bool replacing = fs::exists(fs::symlink_status(target, failure));
  if (replacing && !isShardedCheckpoint(target))
    return failWith(fmt::format("cannot write {}: something that is not a "
                                "checkpoint is in the way (move it)",
                                target));
  if (replacing) {
    // The old checkpoint of this step stays whole until the new one takes
    // its name in the same instant; then it is removed.
    if (::renameat2(AT_FDCWD, temporary.c_str(), AT_FDCWD, target.c_str(),
                    RENAME_EXCHANGE) != 0) {
      // A file system without the exchange: the old one is moved aside
      // first, so for a moment this step has no checkpoint (the ones
      // before it stay).
      int exchangeErrno = errno;
      if (exchangeErrno != EINVAL && exchangeErrno != ENOSYS)
        return failWith(fmt::format("cannot replace {}: {}", target,
                                    std::strerror(exchangeErrno)));
      std::string aside = temporary + ".old";
      fs::remove_all(aside, failure);
      if (::rename(target.c_str(), aside.c_str()) != 0 ||
          ::rename(temporary.c_str(), target.c_str()) != 0)
        return failWith(
            fmt::format("cannot replace {}: {}", target, std::strerror(errno)));
      fs::remove_all(aside, failure);
    } else {
      fs::remove_all(temporary, failure);
    }
  } else if (::rename(temporary.c_str(), target.c_str()) != 0) {
    return failWith(
        fmt::format("cannot write {}: {}", target, std::strerror(errno)));
  }
  syncDirectory(dir);
  return true;
}

} // namespace tessel::safetensors
