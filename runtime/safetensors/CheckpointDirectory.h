//===- CheckpointDirectory.h - Writing a sharded checkpoint -----*- C++ -*-===//
//
// A sharded checkpoint (CheckpointFile.h, ShardIndex.h) is written by many
// ranks at once, so it cannot appear by one file's rename. It is written
// into a temporary directory beside its place (DIR/.step-N.tmp), each shard
// fsync'd by its writer; the index is written last, and the directory is
// then fsync'd and renamed to DIR/step-N in one step, and DIR fsync'd. A
// crash, a kill or a full disk before that rename leaves a temporary
// directory that no reader looks at (and the next write of that step
// removes), and the checkpoints before it whole.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_SAFETENSORS_CHECKPOINTDIRECTORY_H
#define TESSEL_RUNTIME_SAFETENSORS_CHECKPOINTDIRECTORY_H

#include <cstdint>
#include <map>
#include <string>

namespace tessel::safetensors {

/// Where the checkpoint after `step` steps is written before it is
/// published: DIR/.step-N.tmp.
std::string temporaryCheckpointDirectory(const std::string &dir, int64_t step);

/// Creates `dir` if need be and an empty temporaryCheckpointDirectory in it
/// (removing one a killed writer left). False with the reason in `error`.
bool startCheckpointDirectory(const std::string &dir, int64_t step,
                              std::string &error);

/// Writes the index of `weightMap` (tensor -> shard file) into the
/// temporary directory, fsyncs it and renames it to checkpointDirectory(dir,
/// step), then fsyncs `dir`. A checkpoint of that step already there is
/// replaced (the two are exchanged atomically, then the old one removed);
/// anything else of that name is an error and stays. On failure the
/// temporary directory is removed and `error` says why.
bool publishCheckpointDirectory(
    const std::string &dir, int64_t step,
    const std::map<std::string, std::string> &weightMap, uint64_t totalSize,
    std::string &error);

/// Removes the temporary directory of a write that failed.
void abandonCheckpointDirectory(const std::string &dir, int64_t step);

} // namespace tessel::safetensors

#endif // TESSEL_RUNTIME_SAFETENSORS_CHECKPOINTDIRECTORY_H
