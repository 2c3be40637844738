//===- Checkpoint.cpp - Safetensors checkpoints of the training state -----===//

#include "driver/Checkpoint.h"

#include "driver/Blocks.h"
#include "driver/LossScaling.h"
#include "executor/Buffers.h"
#include "safetensors/CheckpointDirectory.h"

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

namespace tessel::driver {

namespace {

/// The most bytes one message carries: MPI's counts are ints, so a larger
/// block travels in pieces.
constexpr int64_t kMessageBytes = int64_t(1) << 30;

/// Posts nonblocking sends of `bytes` bytes at `data` to rank `to`, in
/// pieces of at most kMessageBytes (MPI delivers messages of one source
/// and tag in order, so the receiver's pieces match).
void sendPieces(const void *data, int64_t bytes, int64_t to, int tag,
                std::vector<MPI_Request> &requests) {
  const auto *at = static_cast<const unsigned char *>(data);
  for (int64_t done = 0; done < bytes; done += kMessageBytes) {
    requests.emplace_back();
    MPI_Isend(at + done,
              static_cast<int>(std::min(kMessageBytes, bytes - done)), MPI_BYTE,
              static_cast<int>(to), tag, MPI_COMM_WORLD, &requests.back());
  }
}

/// The receiving side of sendPieces.
void receivePieces(void *data, int64_t bytes, int64_t from, int tag,
                   std::vector<MPI_Request> &requests) {
  auto *at = static_cast<unsigned char *>(data);
  for (int64_t done = 0; done < bytes; done += kMessageBytes) {
    requests.emplace_back();
    MPI_Irecv(at + done,
              static_cast<int>(std::min(kMessageBytes, bytes - done)), MPI_BYTE,
              static_cast<int>(from), tag, MPI_COMM_WORLD, &requests.back());
  }
}

void waitAll(std::vector<MPI_Request> &requests) {
  // MPI_Waitall's count is an int too.
  for (size_t done = 0; done < requests.size(); done += INT_MAX / 2)
    MPI_Waitall(
        static_cast<int>(std::min<size_t>(requests.size() - done, INT_MAX / 2)),
        requests.data() + done, MPI_STATUSES_IGNORE);
  requests.clear();
}

/// Part of a collective over MPI_COMM_WORLD that every rank enters for the
/// same tensors in the same order: the first rank holding each distinct
/// block of `tensor` sends it to `owner` (posting the sends in `sends`, to
/// be waited for later), and `owner` receives them and assembles the global
/// tensor in `global`. A block the owner holds itself is not sent. Ranks
/// only post sends and the owner waits only for its own receives, so no
/// order of owners can deadlock.
void assembleAt(const StateTensor &tensor, const layout::Mesh &mesh,
                int64_t rank, int64_t owner, int tag,
                std::vector<unsigned char> &global,
                std::vector<MPI_Request> &sends) {
  const ValueSpec &spec = *tensor.spec;
  int64_t ranks = mesh.numRanks();
  layout::TensorLayout tensorLayout = spec.tensorLayout();
  std::vector<std::vector<int64_t>> offsets(ranks);
  std::map<std::vector<int64_t>, int64_t> firstHolder;
  for (int64_t r = 0; r < ranks; ++r) {
    offsets[r] = layout::shardOffset(mesh, tensorLayout, r);
    if (tensor.heldBy(r))
      firstHolder.emplace(offsets[r], r);
  }
  int64_t localBytes = spec.local.numBytes();
  if (rank != owner) {
    if (tensor.heldBy(rank) && firstHolder.at(offsets[rank]) == rank &&
        offsets[rank] != offsets[owner])
      sendPieces(tensor.local, localBytes, owner, tag, sends);
    return;
  }
  size_t elementBytes = runtime::elementBytes(spec.global.type);
  global.assign(static_cast<size_t>(spec.global.numBytes()), 0);
  placeBlock(tensor.local, spec.local.shape, offsets[owner], spec.global.shape,
             elementBytes, global.data());
  std::vector<std::pair<int64_t, std::vector<unsigned char>>> received;
  std::vector<MPI_Request> receives;
  for (const auto &[blockOffsets, holder] : firstHolder) {
    if (blockOffsets == offsets[owner])
      continue;
    received.emplace_back(
        holder, std::vector<unsigned char>(static_cast<size_t>(localBytes)));
    receivePieces(received.back().second.data(), localBytes, holder, tag,
                  receives);
  }
  waitAll(receives);
  for (const auto &[holder, block] : received)
    placeBlock(block.data(), spec.local.shape, offsets[holder],
               spec.global.shape, elementBytes, global.data());
}

/// Collective over MPI_COMM_WORLD: `text` of rank `root` on every rank.
std::string broadcastString(const std::string &text, int64_t rank,
                            int64_t root) {
  uint64_t length = text.size();
  MPI_Bcast(&length, 1, MPI_UINT64_T, static_cast<int>(root), MPI_COMM_WORLD);
  std::string shared = rank == root ? text : std::string(length, '\0');
  for (uint64_t done = 0; done < length; done += kMessageBytes)
    MPI_Bcast(
        shared.data() + done,
        static_cast<int>(std::min<uint64_t>(kMessageBytes, length - done)),
        MPI_CHAR, static_cast<int>(root), MPI_COMM_WORLD);
  return shared;
}

/// Collective over MPI_COMM_WORLD: whether every rank is `ok`; when one is
/// not, the `error` of the lowest such rank is put in `error` everywhere.
bool allSucceeded(bool ok, int64_t rank, std::string &error) {
  int failing = ok ? INT_MAX : static_cast<int>(rank);
  MPI_Allreduce(MPI_IN_PLACE, &failing, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (failing == INT_MAX)
    return true;
  error = broadcastString(error, rank, failing);
  return false;
}

} // namespace

bool StateTensor::heldBy(int64_t rank) const {
  return holders.empty() ||
         std::binary_search(holders.begin(), holders.end(), rank);
}

bool gatherGlobal(const StateTensor &tensor, const layout::Mesh &mesh,
                  int64_t rank, std::vector<unsigned char> &global,
                  std::string &) {
  std::vector<MPI_Request> sends;
  assembleAt(tensor, mesh, rank, /*owner=*/0, /*tag=*/0, global, sends);
  waitAll(sends);
  return true;
}

std::optional<std::string>
uncheckpointableState(const std::vector<ValueSpec> &state) {
  std::set<std::string> names;
  for (const ValueSpec &tensor : state) {
    if (tensor.name == "__metadata__")
      return std::string("the model has a tensor named '__metadata__', the "
                         "name safetensors checkpoints reserve; rename it");
    if (!names.insert(tensor.name).second)
      return fmt::format("the model has two tensors named '{}'; a checkpoint "
                         "would keep only one",
                         tensor.name);
  }
  return std::nullopt;
}

std::vector<int64_t> checkpointOwners(const std::vector<StateTensor> &tensors,
                                      int64_t ranks) {
  std::vector<size_t> order(tensors.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return tensors[a].spec->global.numBytes() >
           tensors[b].spec->global.numBytes();
  });
  std::vector<int64_t> owners(tensors.size(), 0), load(ranks, 0);
  for (size_t i : order) {
    int64_t least = -1;
    for (int64_t r = 0; r < ranks; ++r)
      if (tensors[i].heldBy(r) && (least < 0 || load[r] < load[least]))
        least = r;
    owners[i] = least;
    load[least] += tensors[i].spec->global.numBytes();
  }
  return owners;
}

bool writeCheckpoint(const std::string &dir, int64_t step,
                     const std::vector<StateTensor> &tensors,
                     const layout::Mesh &mesh, int64_t rank,
                     std::string &error) {
  // Refused alike on every rank (they have the same names), before any
  // file is touched: a tensor of the reserved name, or one of two of a
  // name in different shards, would vanish from the checkpoint.
  std::set<std::string> names;
  for (const StateTensor &tensor : tensors) {
    const std::string &name = tensor.spec->name;
    if (name == "__metadata__") {
      error = fmt::format("{}: a tensor cannot be named '__metadata__', the "
                          "name safetensors reserves for the metadata",
                          safetensors::checkpointDirectory(dir, step));
      return false;
    }
    if (!names.insert(name).second) {
      error = fmt::format("{}: two tensors are named '{}'",
                          safetensors::checkpointDirectory(dir, step), name);
      return false;
    }
  }
  // Every rank writes into rank 0's directory, which rank 0 prepares.
  bool ok =
      rank != 0 || safetensors::startCheckpointDirectory(dir, step, error);
  if (!allSucceeded(ok, rank, error))
    return false;
  std::string where = broadcastString(dir, rank, 0);

  int64_t ranks = mesh.numRanks();
  std::vector<int64_t> owners = checkpointOwners(tensors, ranks);
  // Shards are numbered over the ranks that own a tensor, in rank order.
  std::vector<int64_t> shardNumber(ranks, 0);
  int64_t shards = 0;
  for (int64_t r = 0; r < ranks; ++r)
    if (std::find(owners.begin(), owners.end(), r) != owners.end())
      shardNumber[r] = ++shards;

  std::vector<std::vector<unsigned char>> globals(tensors.size());
  std::vector<MPI_Request> sends;
  for (size_t i = 0; i < tensors.size(); ++i)
    assembleAt(tensors[i], mesh, rank, owners[i], static_cast<int>(i % 32768),
               globals[i], sends);
  waitAll(sends);
  std::vector<safetensors::CheckpointTensor> mine;
  for (size_t i = 0; i < tensors.size(); ++i)
    if (owners[i] == rank)
      mine.push_back({tensors[i].spec->name, tensors[i].spec->global.spec(),
                      globals[i].data()});
  std::string temporary =
      safetensors::temporaryCheckpointDirectory(where, step);
  ok = mine.empty() ||
       safetensors::writeCheckpointTensors(
           (std::filesystem::path(temporary) /
            safetensors::shardFileName(shardNumber[rank], shards))
               .string(),
           step, mine, error);
  globals.clear();
  if (!allSucceeded(ok, rank, error)) {
    if (rank == 0)
      safetensors::abandonCheckpointDirectory(where, step);
    return false;
  }
  if (rank == 0) {
    std::map<std::string, std::string> weightMap;
    uint64_t totalSize = 0;
    for (size_t i = 0; i < tensors.size(); ++i) {
      weightMap[tensors[i].spec->name] =
          safetensors::shardFileName(shardNumber[owners[i]], shards);
      totalSize += safetensors::storedBytes(tensors[i].spec->global.spec());
    }
    ok = safetensors::publishCheckpointDirectory(where, step, weightMap,
                                                 totalSize, error);
  }
  return allSucceeded(ok, rank, error);
}

bool readCheckpoint(const std::string &path,
                    const std::vector<StateTensor> &tensors,
                    const layout::Mesh &mesh, int64_t rank, int64_t &step,
                    std::string &error) {
  safetensors::CheckpointFile file;
  return file.open(path, error) &&
         readCheckpoint(file, tensors, mesh, rank, step, error);
}

bool readCheckpoint(std::istream &stream, uint64_t fileSize,
                    const std::string &path,
                    const std::vector<StateTensor> &tensors,
                    const layout::Mesh &mesh, int64_t rank, int64_t &step,
                    std::string &error) {
  safetensors::CheckpointFile file;
  return file.open(stream, fileSize, path, error) &&
         readCheckpoint(file, tensors, mesh, rank, step, error);
}

bool readCheckpoint(safetensors::CheckpointFile &file,
                    const std::vector<StateTensor> &tensors,
                    const layout::Mesh &mesh, int64_t rank, int64_t &step,
                    std::string &error) {
  step = file.step();
  // The loss scale's state is in a checkpoint exactly when its program
  // scaled its loss: --loss-scale (on by default for --precision f16) must
  // be as it was.
  auto scalingDiffers = [&](const std::string &name, bool programHasIt) {
    error = fmt::format(
        "checkpoint {}: it has {}tensor '{}', which the program {}: {} "
        "scales its loss and {} does not; compile with --loss-scale as the "
        "checkpoint's program was (docs/training.md)",
        file.filePath(), programHasIt ? "no " : "", name,
        programHasIt ? "needs" : "does not have",
        programHasIt ? "the program" : "the checkpoint's program",
        programHasIt ? "the checkpoint's" : "this one");
  };
  for (const std::string &name : file.names()) {
    bool known = false;
    for (const StateTensor &tensor : tensors)
      known = known || tensor.spec->name == name;
    if (!known && LossScaling::isScaleState(name)) {
      scalingDiffers(name, /*programHasIt=*/false);
      return false;
    }
    if (!known) {
      error = fmt::format("checkpoint {}: it has tensor '{}', which the "
                          "program does not have (a different model or "
                          "optimizer?)",
                          file.filePath(), name);
      return false;
    }
  }
  for (const StateTensor &tensor : tensors) {
    const std::string &name = tensor.spec->name;
    if (LossScaling::isScaleState(name) &&
        std::find(file.names().begin(), file.names().end(), name) ==
            file.names().end()) {
      scalingDiffers(name, /*programHasIt=*/true);
      return false;
    }
  }
  return readBlocks(file, tensors, mesh, rank, error);
}

bool readBlocks(safetensors::CheckpointFile &file,
                const std::vector<StateTensor> &tensors,
                const layout::Mesh &mesh, int64_t rank, std::string &error) {
  for (const StateTensor &tensor : tensors) {
    if (!tensor.heldBy(rank))
      continue;
    const ValueSpec &spec = *tensor.spec;
    std::vector<safetensors::ByteRun> runs;
    for (const BlockRun &run :
         blockRuns(spec.global.shape,
                   layout::shardOffset(mesh, spec.tensorLayout(), rank),
                   spec.local.shape, runtime::elementBytes(spec.global.type)))
      runs.push_back({run.globalAt, run.bytes, run.blockAt});
    // The padding of a padded block holds zeros.
    std::memset(tensor.local, 0, static_cast<size_t>(spec.local.numBytes()));
    if (!file.readRuns(spec.name, spec.global.spec(), runs, tensor.local,
                       error))
      return false;
  }
  return true;
}

namespace {

/// Collective over MPI_COMM_WORLD: rank 0's `found` on every rank.
std::optional<std::string>
broadcastFromRankZero(const std::optional<std::string> &found, int64_t rank) {
  // The path's length, or all ones when rank 0 found none.
  uint64_t length = found ? found->size() : UINT64_MAX;
  MPI_Bcast(&length, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (length == UINT64_MAX || length > INT_MAX)
    return std::nullopt;
  std::string agreed = rank == 0 ? *found : std::string(length, '\0');
  MPI_Bcast(agreed.data(), static_cast<int>(length), MPI_CHAR, 0,
            MPI_COMM_WORLD);
  return agreed;
}

} // namespace

std::optional<std::string> agreedCheckpoint(const std::string &path,
                                            int64_t rank, std::string &error) {
  std::optional<std::string> found;
  if (rank == 0)
    found = resolveCheckpoint(path, error);
  return broadcastFromRankZero(found, rank);
}

std::optional<std::string> agreedLatestCheckpoint(const std::string &dir,
                                                  int64_t rank) {
  std::optional<std::string> found;
  if (rank == 0)
    found = latestCheckpoint(dir);
  return broadcastFromRankZero(found, rank);
}

} // namespace tessel::driver
