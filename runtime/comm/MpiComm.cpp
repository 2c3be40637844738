//===- MpiComm.cpp - One rank of a mesh, over MPI -------------------------===//

#include "comm/MpiComm.h"

#include "base/Status.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cassert>
#include <climits>
#include <cstring>
#include <mutex>

namespace tessel::runtime {

namespace {
/// Who owns MPI. A program may initialise MPI itself (then it also
/// finalises it), or leave both to the runtime, which then finalises when
/// its last communicator goes away: MPI must be finalised before exit, and
/// cannot be initialised twice, so the count is process-wide.
struct MpiLifetime {
  std::mutex mutex;
  bool runtimeInitialised = false;
  int liveComms = 0;
};

MpiLifetime &lifetime() {
  static MpiLifetime instance;
  return instance;
}
} // namespace

/// Takes a reference on MPI for one communicator, initialising it if
/// nobody has.
static tessel_status_t acquireMpi() {
  MpiLifetime &state = lifetime();
  std::lock_guard<std::mutex> lock(state.mutex);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized)
    return fail(TESSEL_STATUS_FAILED_PRECONDITION,
                "tessel_comm_create: MPI has already been finalised (the "
                "runtime finalises MPI it initialised itself when its last "
                "communicator is destroyed; initialise MPI in the program to "
                "keep it alive)");
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    tessel_comm_choose_mpi_algorithms();
    if (int code = MPI_Init(nullptr, nullptr); code != MPI_SUCCESS)
      return checkMpi(code, "MPI_Init", "tessel_comm_create");
    state.runtimeInitialised = true;
  }
  ++state.liveComms;
  return TESSEL_STATUS_OK;
}

/// Drops a reference taken by acquireMpi.
static tessel_status_t releaseMpi() {
  MpiLifetime &state = lifetime();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (--state.liveComms > 0 || !state.runtimeInitialised)
    return TESSEL_STATUS_OK;
  state.runtimeInitialised = false;
  return checkMpi(MPI_Finalize(), "MPI_Finalize", "tessel_comm_destroy");
}

tessel_status_t mpiFailure(int code, const char *call, const char *op) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
    length = 0;
  int rank = -1;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return failf(
      TESSEL_STATUS_MPI_ERROR, "{}: {} failed on rank {}: {}", op, call, rank,
      length ? std::string(text, length) : fmt::format("code {}", code));
}

tessel_status_t tooManyForMpi(int64_t count, const char *op) {
  return failf(TESSEL_STATUS_RESOURCE_EXHAUSTED,
               "{}: {} elements in one message is more than one MPI call "
               "can move ({})",
               op, count, INT_MAX);
}

MPI_Datatype mpiDatatype(tessel_element_type_t type) {
  switch (type) {
  case TESSEL_ELEMENT_TYPE_F32:
    return MPI_FLOAT;
  case TESSEL_ELEMENT_TYPE_F64:
    return MPI_DOUBLE;
  case TESSEL_ELEMENT_TYPE_BF16:
  case TESSEL_ELEMENT_TYPE_F16:
    return MPI_UINT16_T;
  case TESSEL_ELEMENT_TYPE_I32:
    return MPI_INT32_T;
  case TESSEL_ELEMENT_TYPE_I64:
    return MPI_INT64_T;
  }
  assert(false && "invalid element type");
  return MPI_DATATYPE_NULL;
}

std::string meshString(const std::vector<std::string> &names,
                       const std::vector<int64_t> &sizes) {
  if (names.empty())
    return "<no axes>";
  std::string result;
  for (size_t i = 0; i < names.size() && i < sizes.size(); ++i)
    result += fmt::format("{}{}:{}", i ? " x " : "", names[i], sizes[i]);
  return result;
}

std::string MpiComm::meshString() const {
  return runtime::meshString(meshValue.axisNames(), meshValue.axisSizes());
}

/// The product of the axis sizes, or -1 when it exceeds what MPI can count.
static int64_t ranksNeeded(const std::vector<int64_t> &sizes) {
  int64_t product = 1;
  for (int64_t size : sizes) {
    product *= size;
    if (product > INT_MAX)
      return -1;
  }
  return product;
}

/// Checks the mesh description and that mpirun started as many ranks as it
/// has; the same on every rank, so all ranks fail alike.
static tessel_status_t checkMesh(const std::vector<std::string> &names,
                                 const std::vector<int64_t> &sizes) {
  std::string error;
  if (!layout::validateMesh(names, sizes, error))
    return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                 "tessel_comm_create: invalid mesh {}: {}",
                 meshString(names, sizes), error);
  int worldSize = 0;
  TESSEL_RETURN_IF_ERROR(checkMpi(MPI_Comm_size(MPI_COMM_WORLD, &worldSize),
                                  "MPI_Comm_size", "tessel_comm_create"));
  int64_t needed = ranksNeeded(sizes);
  if (needed != worldSize)
    return failf(TESSEL_STATUS_FAILED_PRECONDITION,
                 "mesh {} needs {} ranks, but mpirun started {}",
                 meshString(names, sizes),
                 needed < 0 ? fmt::format("more than {}", INT_MAX)
                            : std::to_string(needed),
                 worldSize);
  return TESSEL_STATUS_OK;
}

/// Duplicates MPI_COMM_WORLD, so that the runtime's messages never match the
/// program's own, and makes MPI errors on it return codes instead of
/// aborting. The program's handler on MPI_COMM_WORLD is restored afterwards.
static tessel_status_t duplicateWorld(MPI_Comm &out) {
  const char *op = "tessel_comm_create";
  MPI_Errhandler previous;
  TESSEL_RETURN_IF_ERROR(
      checkMpi(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &previous),
               "MPI_Comm_get_errhandler", op));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int code = MPI_Comm_dup(MPI_COMM_WORLD, &out);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, previous);
  MPI_Errhandler_free(&previous);
  TESSEL_RETURN_IF_ERROR(checkMpi(code, "MPI_Comm_dup", op));
  return checkMpi(MPI_Comm_set_errhandler(out, MPI_ERRORS_RETURN),
                  "MPI_Comm_set_errhandler", op);
}

tessel_status_t MpiComm::create(std::vector<std::string> axisNames,
                                std::vector<int64_t> axisSizes,
                                std::unique_ptr<MpiComm> &out) {
  TESSEL_RETURN_IF_ERROR(acquireMpi());
  // From here on a failure must give the reference back, so that MPI the
  // runtime initialised is finalised and the process can exit cleanly.
  auto failAndRelease = [](tessel_status_t status) {
    (void)releaseMpi();
    return status;
  };
  if (tessel_status_t status = checkMesh(axisNames, axisSizes))
    return failAndRelease(status);
  int rank = 0;
  if (tessel_status_t status = checkMpi(MPI_Comm_rank(MPI_COMM_WORLD, &rank),
                                        "MPI_Comm_rank", "tessel_comm_create"))
    return failAndRelease(status);
  MPI_Comm world = MPI_COMM_NULL;
  if (tessel_status_t status = duplicateWorld(world)) {
    if (world != MPI_COMM_NULL)
      MPI_Comm_free(&world);
    return failAndRelease(status);
  }
  out.reset(new MpiComm(
      layout::Mesh(std::move(axisNames), std::move(axisSizes)), rank, world));
  return TESSEL_STATUS_OK;
}

MpiComm::~MpiComm() {
  if (worldComm != MPI_COMM_NULL)
    (void)destroy();
}

tessel_status_t MpiComm::destroy() {
  // Free everything even after a failure, and report the first failure.
  tessel_status_t first = TESSEL_STATUS_OK;
  auto keep = [&first](tessel_status_t status) {
    if (first == TESSEL_STATUS_OK)
      first = status;
  };
  for (auto &entry : groups)
    if (entry.second.comm != MPI_COMM_NULL)
      keep(checkMpi(MPI_Comm_free(&entry.second.comm), "MPI_Comm_free",
                    "tessel_comm_destroy"));
  groups.clear();
  if (worldComm != MPI_COMM_NULL) {
    keep(checkMpi(MPI_Comm_free(&worldComm), "MPI_Comm_free",
                  "tessel_comm_destroy"));
    worldComm = MPI_COMM_NULL;
    keep(releaseMpi());
  }
  return first;
}

tessel_status_t MpiComm::checkAxes(const std::vector<std::string> &axes,
                                   const char *op) const {
  for (size_t i = 0; i < axes.size(); ++i) {
    if (!meshValue.axisIndex(axes[i]))
      return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                   "{}: '{}' is not an axis of the mesh {}", op, axes[i],
                   meshString());
    if (std::find(axes.begin(), axes.begin() + i, axes[i]) != axes.begin() + i)
      return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                   "{}: mesh axis '{}' is listed twice in the group", op,
                   axes[i]);
  }
  return TESSEL_STATUS_OK;
}

const Group *MpiComm::cachedGroup(int32_t numAxes,
                                  const char *const *axes) const {
  if (numAxes < 0 || (numAxes > 0 && !axes))
    return nullptr;
  for (const auto &[names, group] : groups) {
    if (names.size() != static_cast<size_t>(numAxes))
      continue;
    bool same = true;
    for (int32_t i = 0; i < numAxes && same; ++i)
      same = axes[i] && std::strcmp(names[i].c_str(), axes[i]) == 0;
    if (same)
      return &group;
  }
  return nullptr;
}

int MpiComm::groupTag(const std::vector<std::string> &axes) const {
  // The axes' mesh indices as digits of base numAxes + 1: one number per
  // ordered list of distinct axes.
  int64_t tag = 0;
  for (const std::string &axis : axes)
    tag = tag * (meshValue.numAxes() + 1) + *meshValue.axisIndex(axis) + 1;
  // MPI promises tags up to 32767 at least.
  return static_cast<int>(tag % 32768);
}

tessel_status_t MpiComm::group(const std::vector<std::string> &axes,
                               const char *op, const Group *&out) {
  TESSEL_RETURN_IF_ERROR(checkAxes(axes, op));
  auto found = groups.find(axes);
  if (found != groups.end()) {
    out = &found->second;
    return TESSEL_STATUS_OK;
  }
  Group group;
  group.axes = axes;
  group.size = meshValue.groupSize(axes);
  group.position = meshValue.positionInGroup(rankValue, axes);
  // Made by the group's members alone (MPI_Comm_create_group), not by
  // every rank at once: the ranks of a pipelined program run different
  // functions, and each reaches its first collective over a group when its
  // own stage does. The members are listed by position, so the
  // sub-communicator's rank is the position; the tag tells apart the
  // groups a rank makes (a pair of ranks may share several).
  std::vector<int64_t> members = meshValue.groupOf(rankValue, axes);
  std::vector<int> ranks(members.begin(), members.end());
  MPI_Group worldGroup = MPI_GROUP_NULL, members_ = MPI_GROUP_NULL;
  TESSEL_RETURN_IF_ERROR(
      checkMpi(MPI_Comm_group(worldComm, &worldGroup), "MPI_Comm_group", op));
  int included = MPI_Group_incl(worldGroup, static_cast<int>(ranks.size()),
                                ranks.data(), &members_);
  MPI_Group_free(&worldGroup);
  TESSEL_RETURN_IF_ERROR(checkMpi(included, "MPI_Group_incl", op));
  int created =
      MPI_Comm_create_group(worldComm, members_, groupTag(axes), &group.comm);
  MPI_Group_free(&members_);
  TESSEL_RETURN_IF_ERROR(checkMpi(created, "MPI_Comm_create_group", op));
  // Cache it before anything else can fail, so that destroy() frees it.
  Group &cached = groups.emplace(axes, std::move(group)).first->second;
  TESSEL_RETURN_IF_ERROR(
      checkMpi(MPI_Comm_set_errhandler(cached.comm, MPI_ERRORS_RETURN),
               "MPI_Comm_set_errhandler", op));
  int size = 0, rank = 0;
  TESSEL_RETURN_IF_ERROR(
      checkMpi(MPI_Comm_size(cached.comm, &size), "MPI_Comm_size", op));
  TESSEL_RETURN_IF_ERROR(
      checkMpi(MPI_Comm_rank(cached.comm, &rank), "MPI_Comm_rank", op));
  if (size != cached.size || rank != cached.position)
    return failf(TESSEL_STATUS_INTERNAL,
                 "{}: the MPI group over [{}] has {} ranks with this one at "
                 "{}, but the mesh says {} at position {}",
                 op, fmt::join(axes, ", "), size, rank, cached.size,
                 cached.position);
  out = &cached;
  return TESSEL_STATUS_OK;
}

} // namespace tessel::runtime
