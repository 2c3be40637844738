//===- CommTest.cpp - The communicator against its definition -------------===//
//
// Each test runs on every rank of the job, on every mesh with as many ranks
// as mpirun started, over every ordered list of that mesh's axes. Inputs are
// filled with values that encode (rank, index); the expected result on this
// rank is computed here element by element from the definition of the op
// (the one in reference/Collectives.h) using layouts/Mesh.h for
// groups and positions, independently of how the runtime packs and moves
// blocks.
//
//===----------------------------------------------------------------------===//

#include "tessel/runtime/comm.h"
#include "base/ElementType.h"
#include "base/Float16.h"
#include "layouts/Mesh.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using tessel::layout::Mesh;

namespace {

//===----------------------------------------------------------------------===//
// Jobs, meshes and axis lists
//===----------------------------------------------------------------------===//

int worldRank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int worldSize() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

/// The meshes with as many ranks as this job has: 1-D, 2-D with both
/// splits, and a 3-D one whose group axes need not be adjacent.
std::vector<Mesh> meshesForThisJob() {
  switch (worldSize()) {
  case 1:
    return {Mesh({"x"}, {1}), Mesh({"data", "model"}, {1, 1})};
  case 2:
    return {Mesh({"x"}, {2}), Mesh({"data", "model"}, {2, 1}),
            Mesh({"data", "model"}, {1, 2})};
  case 4:
    return {Mesh({"x"}, {4}), Mesh({"data", "model"}, {2, 2}),
            Mesh({"a", "b", "c"}, {2, 1, 2})};
  default:
    return {Mesh({"x"}, {worldSize()})};
  }
}

/// Every ordered list of distinct axes of the mesh, the empty one included:
/// {}, {data}, {model}, {data, model}, {model, data}, ...
std::vector<std::vector<std::string>> axisLists(const Mesh &mesh) {
  std::vector<std::vector<std::string>> result;
  std::function<void(std::vector<std::string> &)> extend =
      [&](std::vector<std::string> &prefix) {
        result.push_back(prefix);
        for (const std::string &axis : mesh.axisNames()) {
          if (std::find(prefix.begin(), prefix.end(), axis) != prefix.end())
            continue;
          prefix.push_back(axis);
          extend(prefix);
          prefix.pop_back();
        }
      };
  std::vector<std::string> empty;
  extend(empty);
  return result;
}

std::string describe(const Mesh &mesh) {
  std::string text;
  for (unsigned i = 0; i < mesh.numAxes(); ++i)
    text += (i ? " x " : "") + mesh.axisNames()[i] + ":" +
            std::to_string(mesh.axisSizes()[i]);
  return text;
}

std::string describe(const std::vector<std::string> &list) {
  std::string text = "[";
  for (size_t i = 0; i < list.size(); ++i)
    text += (i ? ", " : "") + list[i];
  return text + "]";
}

std::string describe(const std::vector<int64_t> &list) {
  std::string text = "[";
  for (size_t i = 0; i < list.size(); ++i)
    text += (i ? ", " : "") + std::to_string(list[i]);
  return text + "]";
}

/// A communicator for the length of a test.
class Comm {
public:
  explicit Comm(const Mesh &mesh) {
    std::vector<const char *> names;
    for (const std::string &name : mesh.axisNames())
      names.push_back(name.c_str());
    tessel_status_t status =
        tessel_comm_create(static_cast<int32_t>(names.size()), names.data(),
                           mesh.axisSizes().data(), &comm);
    EXPECT_EQ(status, TESSEL_STATUS_OK) << tessel_last_error_message();
  }
  ~Comm() {
    EXPECT_EQ(tessel_comm_destroy(comm), TESSEL_STATUS_OK)
        << tessel_last_error_message();
  }
  Comm(const Comm &) = delete;
  Comm &operator=(const Comm &) = delete;

  tessel_comm_t *get() const { return comm; }

private:
  tessel_comm_t *comm = nullptr;
};

/// A C array of axis names that lives as long as the list.
struct AxisArgs {
  explicit AxisArgs(const std::vector<std::string> &axes) {
    for (const std::string &axis : axes)
      pointers.push_back(axis.c_str());
  }
  int32_t count() const { return static_cast<int32_t>(pointers.size()); }
  const char *const *names() const { return pointers.data(); }

  std::vector<const char *> pointers;
};

//===----------------------------------------------------------------------===//
// Host tensors and values
//===----------------------------------------------------------------------===//

const tessel_element_type_t kAllTypes[] = {
    TESSEL_ELEMENT_TYPE_F32, TESSEL_ELEMENT_TYPE_F64, TESSEL_ELEMENT_TYPE_BF16,
    TESSEL_ELEMENT_TYPE_F16, TESSEL_ELEMENT_TYPE_I32, TESSEL_ELEMENT_TYPE_I64};

const char *typeName(tessel_element_type_t type) {
  switch (type) {
  case TESSEL_ELEMENT_TYPE_F32:
    return "f32";
  case TESSEL_ELEMENT_TYPE_F64:
    return "f64";
  case TESSEL_ELEMENT_TYPE_BF16:
    return "bf16";
  case TESSEL_ELEMENT_TYPE_F16:
    return "f16";
  case TESSEL_ELEMENT_TYPE_I32:
    return "i32";
  case TESSEL_ELEMENT_TYPE_I64:
    return "i64";
  }
  return "?";
}

bool isFloating(tessel_element_type_t type) {
  return type != TESSEL_ELEMENT_TYPE_I32 && type != TESSEL_ELEMENT_TYPE_I64;
}

int64_t numElements(const std::vector<int64_t> &shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

std::vector<int64_t> unravel(int64_t flat, const std::vector<int64_t> &shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    index[i] = flat % shape[i];
    flat /= shape[i];
  }
  return index;
}

int64_t ravel(const std::vector<int64_t> &index,
              const std::vector<int64_t> &shape) {
  int64_t flat = 0;
  for (size_t i = 0; i < shape.size(); ++i)
    flat = flat * shape[i] + index[i];
  return flat;
}

/// A dense tensor of any element type, read and written as doubles.
class HostTensor {
public:
  HostTensor(tessel_element_type_t type, std::vector<int64_t> shape)
      : type(type), shape(std::move(shape)),
        bytes(size_t(numElements(this->shape)) *
                  tessel::runtime::elementSize(type),
              0xAB) {}

  int64_t size() const { return numElements(shape); }

  void set(int64_t i, double value) {
    void *at = bytes.data() + i * tessel::runtime::elementSize(type);
    switch (type) {
    case TESSEL_ELEMENT_TYPE_F32: {
      float v = static_cast<float>(value);
      std::memcpy(at, &v, sizeof(v));
      return;
    }
    case TESSEL_ELEMENT_TYPE_F64:
      std::memcpy(at, &value, sizeof(value));
      return;
    case TESSEL_ELEMENT_TYPE_BF16: {
      uint16_t v = tessel::runtime::floatToBf16(static_cast<float>(value));
      std::memcpy(at, &v, sizeof(v));
      return;
    }
    case TESSEL_ELEMENT_TYPE_F16: {
      uint16_t v = tessel::runtime::floatToF16(static_cast<float>(value));
      std::memcpy(at, &v, sizeof(v));
      return;
    }
    case TESSEL_ELEMENT_TYPE_I32: {
      int32_t v = static_cast<int32_t>(value);
      std::memcpy(at, &v, sizeof(v));
      return;
    }
    case TESSEL_ELEMENT_TYPE_I64: {
      int64_t v = static_cast<int64_t>(value);
      std::memcpy(at, &v, sizeof(v));
      return;
    }
    }
  }

  double get(int64_t i) const {
    const void *at = bytes.data() + i * tessel::runtime::elementSize(type);
    switch (type) {
    case TESSEL_ELEMENT_TYPE_F32: {
      float v;
      std::memcpy(&v, at, sizeof(v));
      return v;
    }
    case TESSEL_ELEMENT_TYPE_F64: {
      double v;
      std::memcpy(&v, at, sizeof(v));
      return v;
    }
    case TESSEL_ELEMENT_TYPE_BF16:
    case TESSEL_ELEMENT_TYPE_F16: {
      uint16_t v;
      std::memcpy(&v, at, sizeof(v));
      return type == TESSEL_ELEMENT_TYPE_BF16 ? tessel::runtime::bf16ToFloat(v)
                                              : tessel::runtime::f16ToFloat(v);
    }
    case TESSEL_ELEMENT_TYPE_I32: {
      int32_t v;
      std::memcpy(&v, at, sizeof(v));
      return v;
    }
    case TESSEL_ELEMENT_TYPE_I64: {
      int64_t v;
      std::memcpy(&v, at, sizeof(v));
      return static_cast<double>(v);
    }
    }
    return 0;
  }

  /// `value` as this tensor's type stores it (rounded for 16-bit floats).
  double representable(double value) const {
    HostTensor one(type, {});
    one.set(0, value);
    return one.get(0);
  }

  tessel_tensor_t descriptor() {
    return {bytes.data(), type, static_cast<int32_t>(shape.size()),
            shape.data()};
  }

  tessel_element_type_t type;
  std::vector<int64_t> shape;
  std::vector<unsigned char> bytes;
};

/// The value element `flat` of `rank`'s input holds in tests that move data:
/// the rank and the index, both recoverable. 16-bit floats hold integers
/// exactly only up to 256, so they keep the index modulo 64.
double movedValue(int64_t rank, int64_t flat, tessel_element_type_t type) {
  bool narrow =
      type == TESSEL_ELEMENT_TYPE_BF16 || type == TESSEL_ELEMENT_TYPE_F16;
  int64_t modulus = narrow ? 64 : 1000;
  return static_cast<double>(rank * modulus + flat % modulus);
}

/// The value in tests that reduce: small integers of both signs that vary
/// with rank and index, so that max and min pick different ranks for
/// different elements, and sums and products stay exact in f32.
double reducedValue(int64_t rank, int64_t flat) {
  return static_cast<double>((flat * 3 + rank * 5) % 11 - 5);
}

HostTensor inputOf(int64_t rank, tessel_element_type_t type,
                   const std::vector<int64_t> &shape, bool forReduction) {
  HostTensor tensor(type, shape);
  for (int64_t i = 0; i < tensor.size(); ++i)
    tensor.set(i, forReduction ? reducedValue(rank, i)
                               : movedValue(rank, i, type));
  return tensor;
}

/// Compares every element; on a mismatch names the first one.
::testing::AssertionResult matches(const HostTensor &actual,
                                   const std::vector<double> &expected) {
  if (actual.size() != static_cast<int64_t>(expected.size()))
    return ::testing::AssertionFailure()
           << "size " << actual.size() << ", expected " << expected.size();
  int64_t wrong = 0;
  std::ostringstream first;
  for (int64_t i = 0; i < actual.size(); ++i) {
    double value = actual.get(i);
    double want = actual.representable(expected[i]);
    if (value == want)
      continue;
    if (wrong++ == 0)
      first << "element " << i << " at " << describe(unravel(i, actual.shape))
            << " is " << value << ", expected " << want;
  }
  if (wrong)
    return ::testing::AssertionFailure() << wrong << " of " << actual.size()
                                         << " elements differ; " << first.str();
  return ::testing::AssertionSuccess();
}

#define EXPECT_OK(call)                                                        \
  do {                                                                         \
    tessel_status_t status = (call);                                           \
    EXPECT_EQ(status, TESSEL_STATUS_OK)                                        \
        << tessel_status_name(status) << ": " << tessel_last_error_message();  \
  } while (false)

/// Tests the started `request` until it is done, checks that `started`, its
/// output, is then whole (`expected`), and waits for the finished request.
void expectWholeOnceTestedDone(tessel_comm_request_t *request,
                               const HostTensor &started,
                               const std::vector<double> &expected) {
  int32_t done = 0;
  tessel_status_t tested = TESSEL_STATUS_OK;
  while (!done && tested == TESSEL_STATUS_OK)
    tested = tessel_comm_test(request, &done);
  EXPECT_OK(tested);
  EXPECT_TRUE(matches(started, expected)) << "started, tested";
  EXPECT_OK(tessel_comm_wait(request));
}

/// Runs `body(mesh, comm, axes)` for every mesh of this job and every
/// ordered axis list of it, with the mesh and axes in failure messages.
void forEachGroup(
    const std::function<void(const Mesh &, Comm &,
                             const std::vector<std::string> &)> &body) {
  for (const Mesh &mesh : meshesForThisJob()) {
    SCOPED_TRACE("mesh " + describe(mesh));
    Comm comm(mesh);
    for (const std::vector<std::string> &axes : axisLists(mesh)) {
      SCOPED_TRACE("axes " + describe(axes));
      body(mesh, comm, axes);
    }
  }
}

// The shapes of the tests along a dim: 1-D (nothing outside the dim), and
// 3-D so that each dim is in turn outermost, middle and innermost. Every
// size divides by every group size of a 4-rank mesh.
const std::vector<std::vector<int64_t>> kShapes = {{8}, {4, 4, 8}};

const tessel_reduction_t kReductions[] = {
    TESSEL_REDUCTION_SUM, TESSEL_REDUCTION_PROD, TESSEL_REDUCTION_MAX,
    TESSEL_REDUCTION_MIN, TESSEL_REDUCTION_MEAN};

const char *reductionName(tessel_reduction_t reduction) {
  switch (reduction) {
  case TESSEL_REDUCTION_SUM:
    return "sum";
  case TESSEL_REDUCTION_PROD:
    return "prod";
  case TESSEL_REDUCTION_MAX:
    return "max";
  case TESSEL_REDUCTION_MIN:
    return "min";
  case TESSEL_REDUCTION_MEAN:
    return "mean";
  }
  return "?";
}

/// The reduction of reducedValue(member, flat) over the members, exact.
double reduceOver(const std::vector<int64_t> &members, int64_t flat,
                  tessel_reduction_t reduction) {
  double result = reducedValue(members.front(), flat);
  for (size_t i = 1; i < members.size(); ++i) {
    double value = reducedValue(members[i], flat);
    switch (reduction) {
    case TESSEL_REDUCTION_SUM:
    case TESSEL_REDUCTION_MEAN:
      result += value;
      break;
    case TESSEL_REDUCTION_PROD:
      result *= value;
      break;
    case TESSEL_REDUCTION_MAX:
      result = std::max(result, value);
      break;
    case TESSEL_REDUCTION_MIN:
      result = std::min(result, value);
      break;
    }
  }
  if (reduction == TESSEL_REDUCTION_MEAN)
    result /= static_cast<double>(members.size());
  return result;
}

//===----------------------------------------------------------------------===//
// The communicator itself
//===----------------------------------------------------------------------===//

TEST(Comm, RankSizeCoordinatesAndGroupsFollowTheMesh) {
  forEachGroup([](const Mesh &mesh, Comm &comm,
                  const std::vector<std::string> &axes) {
    int64_t rank = -1, size = -1;
    EXPECT_OK(tessel_comm_rank(comm.get(), &rank));
    EXPECT_OK(tessel_comm_size(comm.get(), &size));
    EXPECT_EQ(rank, worldRank());
    EXPECT_EQ(size, worldSize());
    std::vector<int64_t> coords = mesh.coordinatesOf(rank);
    for (unsigned i = 0; i < mesh.numAxes(); ++i) {
      int64_t coordinate = -1;
      EXPECT_OK(tessel_comm_coordinate(comm.get(), mesh.axisNames()[i].c_str(),
                                       &coordinate));
      EXPECT_EQ(coordinate, coords[i]) << "axis " << mesh.axisNames()[i];
    }
    AxisArgs args(axes);
    int64_t groupSize = -1, position = -1;
    EXPECT_OK(tessel_comm_group(comm.get(), args.count(), args.names(),
                                &groupSize, &position));
    EXPECT_EQ(groupSize, mesh.groupSize(axes));
    EXPECT_EQ(position, mesh.positionInGroup(rank, axes));
  });
}

TEST(Comm, MeshThatDoesNotMatchTheJobIsAClearError) {
  // A mesh with one rank too many, named with both numbers.
  int size = worldSize();
  const char *names[] = {"data", "model"};
  int64_t sizes[] = {size + 1, 1};
  tessel_comm_t *comm = reinterpret_cast<tessel_comm_t *>(0x1);
  EXPECT_EQ(tessel_comm_create(2, names, sizes, &comm),
            TESSEL_STATUS_FAILED_PRECONDITION);
  EXPECT_EQ(comm, nullptr);
  std::string expected = "mesh data:" + std::to_string(size + 1) +
                         " x model:1 needs " + std::to_string(size + 1) +
                         " ranks, but mpirun started " + std::to_string(size);
  EXPECT_EQ(std::string(tessel_last_error_message()), expected);

  // MPI is still usable afterwards: the program initialised it, so the
  // runtime neither aborted nor finalised it.
  Comm good(Mesh({"x"}, {size}));
  int64_t rank = -1;
  EXPECT_OK(tessel_comm_rank(good.get(), &rank));
  EXPECT_EQ(rank, worldRank());
}

TEST(Comm, InvalidMeshesAndArgumentsAreErrors) {
  const char *twice[] = {"x", "x"};
  int64_t sizes[] = {1, worldSize()};
  tessel_comm_t *comm = nullptr;
  EXPECT_EQ(tessel_comm_create(2, twice, sizes, &comm),
            TESSEL_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tessel_last_error_message()).find("more than once"),
            std::string::npos)
      << tessel_last_error_message();

  Comm good(Mesh({"data", "model"}, {worldSize(), 1}));
  HostTensor input = inputOf(worldRank(), TESSEL_ELEMENT_TYPE_F32, {4, 4},
                             /*forReduction=*/true);
  tessel_tensor_t in = input.descriptor();

  // An axis the mesh does not have, and one listed twice.
  const char *unknown[] = {"pipeline"};
  EXPECT_EQ(tessel_comm_all_reduce(good.get(), 1, unknown, TESSEL_REDUCTION_SUM,
                                   &in, &in),
            TESSEL_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tessel_last_error_message()),
            "tessel_comm_all_reduce: 'pipeline' is not an axis of the mesh "
            "data:" +
                std::to_string(worldSize()) + " x model:1");
  const char *repeated[] = {"model", "model"};
  EXPECT_EQ(tessel_comm_all_reduce(good.get(), 2, repeated,
                                   TESSEL_REDUCTION_SUM, &in, &in),
            TESSEL_STATUS_INVALID_ARGUMENT);

  // An output of the wrong shape names both shapes.
  const char *data[] = {"data"};
  HostTensor wrong(TESSEL_ELEMENT_TYPE_F32, {4, 5});
  tessel_tensor_t out = wrong.descriptor();
  EXPECT_EQ(tessel_comm_all_gather(good.get(), 1, data, 1, &in, &out),
            TESSEL_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tessel_last_error_message())
                .find("the output is [4, 5] x f32 but the input [4, 4] x f32 "
                      "gives [4, " +
                      std::to_string(4 * worldSize()) + "] x f32"),
            std::string::npos)
      << tessel_last_error_message();

  // A dim that is not there.
  EXPECT_EQ(tessel_comm_all_gather(good.get(), 1, data, 2, &in, &out),
            TESSEL_STATUS_INVALID_ARGUMENT);

  // A halo wider than a neighbour's shard.
  HostTensor halo(TESSEL_ELEMENT_TYPE_F32, {4, 10});
  tessel_tensor_t haloOut = halo.descriptor();
  EXPECT_EQ(tessel_comm_halo_exchange(good.get(), "data", 1, 5, 1, 0.0, &in,
                                      &haloOut),
            TESSEL_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tessel_last_error_message())
                .find("halos come from the immediate neighbours only"),
            std::string::npos)
      << tessel_last_error_message();

  // A permutation position outside the group.
  HostTensor permuted(TESSEL_ELEMENT_TYPE_F32, {4, 4});
  tessel_tensor_t permutedOut = permuted.descriptor();
  int64_t pairs[] = {0, worldSize()};
  EXPECT_EQ(tessel_comm_collective_permute(good.get(), 1, data, 1, pairs, &in,
                                           &permutedOut),
            TESSEL_STATUS_INVALID_ARGUMENT);

  // The mean of integers is not an integer.
  HostTensor ints = inputOf(worldRank(), TESSEL_ELEMENT_TYPE_I32, {4}, true);
  tessel_tensor_t intsIn = ints.descriptor();
  EXPECT_EQ(tessel_comm_all_reduce(good.get(), 1, data, TESSEL_REDUCTION_MEAN,
                                   &intsIn, &intsIn),
            TESSEL_STATUS_UNIMPLEMENTED);

  // An output that overlaps the input, for an op that cannot run in place.
  tessel_tensor_t overlapping = in;
  overlapping.data = static_cast<char *>(in.data) + 4;
  EXPECT_EQ(tessel_comm_collective_permute(good.get(), 1, data, 0, nullptr, &in,
                                           &overlapping),
            TESSEL_STATUS_INVALID_ARGUMENT);
}

//===----------------------------------------------------------------------===//
// all_reduce
//===----------------------------------------------------------------------===//

TEST(Comm, AllReduce) {
  forEachGroup([](const Mesh &mesh, Comm &comm,
                  const std::vector<std::string> &axes) {
    int64_t rank = worldRank();
    std::vector<int64_t> members = mesh.groupOf(rank, axes);
    AxisArgs args(axes);
    for (tessel_element_type_t type : kAllTypes) {
      for (tessel_reduction_t reduction : kReductions) {
        if (reduction == TESSEL_REDUCTION_MEAN && !isFloating(type))
          continue;
        SCOPED_TRACE(std::string(typeName(type)) + " " +
                     reductionName(reduction));
        std::vector<int64_t> shape = {3, 5};
        std::vector<double> expected(numElements(shape));
        for (int64_t i = 0; i < numElements(shape); ++i)
          expected[i] = reduceOver(members, i, reduction);

        HostTensor input = inputOf(rank, type, shape, true);
        HostTensor output(type, shape);
        tessel_tensor_t in = input.descriptor(), out = output.descriptor();
        EXPECT_OK(tessel_comm_all_reduce(comm.get(), args.count(), args.names(),
                                         reduction, &in, &out));
        EXPECT_TRUE(matches(output, expected)) << "out of place";

        // In place: the output is the input.
        EXPECT_OK(tessel_comm_all_reduce(comm.get(), args.count(), args.names(),
                                         reduction, &in, &in));
        EXPECT_TRUE(matches(input, expected)) << "in place";

        // Started, then waited for: the same result.
        HostTensor fresh = inputOf(rank, type, shape, true);
        HostTensor started(type, shape);
        tessel_tensor_t freshIn = fresh.descriptor(),
                        startedOut = started.descriptor();
        tessel_comm_request_t *request = nullptr;
        EXPECT_OK(tessel_comm_all_reduce_start(
            comm.get(), args.count(), args.names(), reduction, &freshIn,
            &startedOut, &request));
        EXPECT_OK(tessel_comm_wait(request));
        EXPECT_TRUE(matches(started, expected)) << "started";
      }
    }
  });
}

TEST(Comm, AllReduceOfAScalar) {
  forEachGroup([](const Mesh &mesh, Comm &comm,
                  const std::vector<std::string> &axes) {
    AxisArgs args(axes);
    HostTensor scalar = inputOf(worldRank(), TESSEL_ELEMENT_TYPE_F64, {}, true);
    tessel_tensor_t in = scalar.descriptor();
    in.shape = nullptr;
    EXPECT_OK(tessel_comm_all_reduce(comm.get(), args.count(), args.names(),
                                     TESSEL_REDUCTION_MAX, &in, &in));
    EXPECT_TRUE(matches(scalar, {reduceOver(mesh.groupOf(worldRank(), axes), 0,
                                            TESSEL_REDUCTION_MAX)}));
  });
}

TEST(Comm, HalfFloatSumsAreRoundedOnce) {
  // Rank 0 holds 1 and every other rank 2^-8, half a bf16 ulp at 1. Over
  // four ranks the exact sum 1 + 3 * 2^-8 rounds once to 1 + 2^-6; adding in
  // bf16 step by step would lose some of the 2^-8s to ties and give 1 or
  // 1 + 2^-7. In f16 every partial sum is exact.
  forEachGroup([](const Mesh &mesh, Comm &comm,
                  const std::vector<std::string> &axes) {
    AxisArgs args(axes);
    std::vector<int64_t> members = mesh.groupOf(worldRank(), axes);
    auto valueOf = [](int64_t rank) { return rank == 0 ? 1.0 : 0x1p-8; };
    double exact = 0;
    for (int64_t member : members)
      exact += valueOf(member);
    for (tessel_element_type_t type :
         {TESSEL_ELEMENT_TYPE_BF16, TESSEL_ELEMENT_TYPE_F16}) {
      SCOPED_TRACE(typeName(type));
      HostTensor tensor(type, {1});
      tensor.set(0, valueOf(worldRank()));
      tessel_tensor_t in = tensor.descriptor();
      EXPECT_OK(tessel_comm_all_reduce(comm.get(), args.count(), args.names(),
                                       TESSEL_REDUCTION_SUM, &in, &in));
      EXPECT_TRUE(matches(tensor, {exact}));

      // Started: reduced in f32 as well, and rounded once at the end; 8
      // elements, as many as the largest group's ranks or more, so that
      // the sum is started (fewer run blocking at the start).
      HostTensor eight(type, {8});
      for (int64_t i = 0; i < 8; ++i)
        eight.set(i, valueOf(worldRank()));
      tessel_tensor_t eightIn = eight.descriptor();
      tessel_comm_request_t *request = nullptr;
      EXPECT_OK(tessel_comm_all_reduce_start(comm.get(), args.count(),
                                             args.names(), TESSEL_REDUCTION_SUM,
                                             &eightIn, &eightIn, &request));
      EXPECT_OK(tessel_comm_wait(request));
      EXPECT_TRUE(matches(eight, std::vector<double>(8, exact))) << "started";
    }
  });
}

TEST(Comm, ASmallStartedSumRunsAtItsStartAmongCollectivesInFlight) {
  // A started all_reduce of one element (which runs blocking at its start:
  // fewer elements than the largest power of two within the group, here
  // of 2 or 4 ranks) between a started all_reduce and a started all_gather
  // still in flight: it is complete when its start returns, and the
  // three, waited for in the reverse order, each get their own result.
  forEachGroup([](const Mesh &mesh, Comm &comm,
                  const std::vector<std::string> &axes) {
    int64_t rank = worldRank();
    std::vector<int64_t> members = mesh.groupOf(rank, axes);
    AxisArgs args(axes);
    std::vector<int64_t> shape = {16, 3};
    std::vector<double> sums(numElements(shape));
    for (int64_t i = 0; i < numElements(shape); ++i)
      sums[i] = reduceOver(members, i, TESSEL_REDUCTION_SUM);
    HostTensor input = inputOf(rank, TESSEL_ELEMENT_TYPE_F32, shape, true);
    HostTensor summed(TESSEL_ELEMENT_TYPE_F32, shape);
    HostTensor one = inputOf(rank, TESSEL_ELEMENT_TYPE_F32, {1}, true);
    HostTensor oneSummed(TESSEL_ELEMENT_TYPE_F32, {1});
    std::vector<int64_t> gatheredShape = {
        16 * static_cast<int64_t>(members.size()), 3};
    HostTensor gathered(TESSEL_ELEMENT_TYPE_F32, gatheredShape);
    tessel_tensor_t in = input.descriptor(), sumOut = summed.descriptor(),
                    oneIn = one.descriptor(), oneOut = oneSummed.descriptor(),
                    gatherOut = gathered.descriptor();
    tessel_comm_request_t *sum = nullptr, *small = nullptr, *gather = nullptr;
    EXPECT_OK(tessel_comm_all_reduce_start(comm.get(), args.count(),
                                           args.names(), TESSEL_REDUCTION_SUM,
                                           &in, &sumOut, &sum));
    EXPECT_OK(tessel_comm_all_reduce_start(comm.get(), args.count(),
                                           args.names(), TESSEL_REDUCTION_SUM,
                                           &oneIn, &oneOut, &small));
    int32_t done = 0;
    EXPECT_OK(tessel_comm_test(small, &done));
    EXPECT_EQ(done, 1) << "the small sum was left in flight";
    EXPECT_OK(tessel_comm_all_gather_start(
        comm.get(), args.count(), args.names(), 0, &in, &gatherOut, &gather));
    EXPECT_OK(tessel_comm_wait(gather));
    EXPECT_OK(tessel_comm_wait(small));
    EXPECT_OK(tessel_comm_wait(sum));
    EXPECT_TRUE(matches(summed, sums));
    EXPECT_TRUE(
        matches(oneSummed, {reduceOver(members, 0, TESSEL_REDUCTION_SUM)}));
    // Member m's block of 16 rows is m's input.
    for (size_t m = 0; m < members.size(); ++m)
      for (int64_t i = 0; i < 48; ++i)
        EXPECT_EQ(
            gathered.get(static_cast<int64_t>(m) * 48 + i),
            inputOf(members[m], TESSEL_ELEMENT_TYPE_F32, shape, true).get(i))
            << "member " << m << " element " << i;
  });
}

TEST(Comm, StartedCollectivesMayBeInFlightTogether) {
  // Two all_reduces and an all_gather in flight at once, a blocking
  // all_reduce between, waited for in another order than started: each
  // gets its own result.
  forEachGroup([](const Mesh &mesh, Comm &comm,
                  const std::vector<std::string> &axes) {
    int64_t rank = worldRank();
    std::vector<int64_t> members = mesh.groupOf(rank, axes);
    AxisArgs args(axes);
    std::vector<int64_t> shape = {4, 3};
    std::vector<double> sums(numElements(shape)), maxima(numElements(shape));
    for (int64_t i = 0; i < numElements(shape); ++i) {
      sums[i] = reduceOver(members, i, TESSEL_REDUCTION_SUM);
      maxima[i] = reduceOver(members, i, TESSEL_REDUCTION_MAX);
    }
    HostTensor input = inputOf(rank, TESSEL_ELEMENT_TYPE_F32, shape, true);
    HostTensor summed(TESSEL_ELEMENT_TYPE_F32, shape),
        largest(TESSEL_ELEMENT_TYPE_F32, shape),
        blocking(TESSEL_ELEMENT_TYPE_F32, shape);
    tessel_tensor_t in = input.descriptor(), sumOut = summed.descriptor(),
                    maxOut = largest.descriptor(),
                    blockingOut = blocking.descriptor();
    tessel_comm_request_t *sum = nullptr, *max = nullptr;
    EXPECT_OK(tessel_comm_all_reduce_start(comm.get(), args.count(),
                                           args.names(), TESSEL_REDUCTION_SUM,
                                           &in, &sumOut, &sum));
    EXPECT_OK(tessel_comm_all_reduce_start(comm.get(), args.count(),
                                           args.names(), TESSEL_REDUCTION_MAX,
                                           &in, &maxOut, &max));
    EXPECT_OK(tessel_comm_all_reduce(comm.get(), args.count(), args.names(),
                                     TESSEL_REDUCTION_SUM, &in, &blockingOut));
    EXPECT_OK(tessel_comm_wait(max));
    EXPECT_OK(tessel_comm_wait(sum));
    EXPECT_TRUE(matches(summed, sums));
    EXPECT_TRUE(matches(largest, maxima));
    EXPECT_TRUE(matches(blocking, sums));
  });
}

TEST(Comm, ChoosesMpiAlgorithmsWithoutOverridingTheUser) {
  // Open MPI's started all-reduce reduce-scatters and all-gathers (3)
  // unless the user chose otherwise (here 2, the binomial tree).
  const char *name = "OMPI_MCA_coll_libnbc_iallreduce_algorithm";
  const char *set = std::getenv(name);
  std::optional<std::string> before;
  if (set)
    before = set;
  unsetenv(name);
  tessel_comm_choose_mpi_algorithms();
  ASSERT_NE(std::getenv(name), nullptr);
  EXPECT_STREQ(std::getenv(name), "3");
  setenv(name, "2", /*overwrite=*/1);
  tessel_comm_choose_mpi_algorithms();
  EXPECT_STREQ(std::getenv(name), "2");
  if (before)
    setenv(name, before->c_str(), /*overwrite=*/1);
  else
    unsetenv(name);
}

TEST(Comm, OpenMpiReadsTheChosenStartedAllReduceAlgorithm) {
  // The variable tessel_comm_choose_mpi_algorithms sets (CommTestMain calls
  // it before MPI_Init) is the one Open MPI reads: its control variable
  // says 3, unless the user chose another. Skipped under other MPIs.
  int provided = 0;
  ASSERT_EQ(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
  int index = -1;
  if (MPI_T_cvar_get_index("coll_libnbc_iallreduce_algorithm", &index) !=
      MPI_SUCCESS) {
    MPI_T_finalize();
    GTEST_SKIP() << "no Open MPI libnbc control variable";
  }
  MPI_T_cvar_handle handle;
  int count = 0;
  ASSERT_EQ(MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count),
            MPI_SUCCESS);
  int algorithm = -1;
  EXPECT_EQ(MPI_T_cvar_read(handle, &algorithm), MPI_SUCCESS);
  MPI_T_cvar_handle_free(&handle);
  MPI_T_finalize();
  const char *set = std::getenv("OMPI_MCA_coll_libnbc_iallreduce_algorithm");
  ASSERT_NE(set, nullptr);
  EXPECT_EQ(algorithm, std::atoi(set));
}

TEST(Comm, StartingChecksItsArguments) {
  forEachGroup([](const Mesh &, Comm &comm,
                  const std::vector<std::string> &axes) {
    AxisArgs args(axes);
    HostTensor input = inputOf(worldRank(), TESSEL_ELEMENT_TYPE_F32, {2}, true);
    HostTensor wrong(TESSEL_ELEMENT_TYPE_F32, {3});
    tessel_tensor_t in = input.descriptor(), out = wrong.descriptor();
    tessel_comm_request_t *request = nullptr;
    EXPECT_EQ(tessel_comm_all_reduce_start(comm.get(), args.count(),
                                           args.names(), TESSEL_REDUCTION_SUM,
                                           &in, &out, &request),
              TESSEL_STATUS_INVALID_ARGUMENT);
    EXPECT_EQ(request, nullptr);
    EXPECT_EQ(tessel_comm_all_reduce_start(comm.get(), args.count(),
                                           args.names(), TESSEL_REDUCTION_SUM,
                                           &in, &in, nullptr),
              TESSEL_STATUS_INVALID_ARGUMENT);
    EXPECT_EQ(tessel_comm_wait(nullptr), TESSEL_STATUS_INVALID_ARGUMENT);
  });
}

//===----------------------------------------------------------------------===//
// all_gather, reduce_scatter, all_to_all, shard_slice
//===----------------------------------------------------------------------===//

TEST(Comm, AllGather) {
  forEachGroup([](const Mesh &mesh, Comm &comm,
                  const std::vector<std::string> &axes) {
    int64_t rank = worldRank();
    std::vector<int64_t> members = mesh.groupOf(rank, axes);
    int64_t count = static_cast<int64_t>(members.size());
    AxisArgs args(axes);
    for (tessel_element_type_t type : kAllTypes) {
      for (const std::vector<int64_t> &shape : kShapes) {
        for (int32_t dim = 0; dim < int32_t(shape.size()); ++dim) {
          SCOPED_TRACE(std::string(typeName(type)) + " " + describe(shape) +
                       " dim " + std::to_string(dim));
          std::vector<int64_t> gathered = shape;
          gathered[dim] *= count;
          // Element j comes from member j[dim] / local, at j[dim] % local.
          std::vector<double> expected(numElements(gathered));
          for (int64_t flat = 0; flat < numElements(gathered); ++flat) {
            std::vector<int64_t> index = unravel(flat, gathered);
            int64_t member = members[index[dim] / shape[dim]];
            index[dim] %= shape[dim];
            expected[flat] = movedValue(member, ravel(index, shape), type);
          }
          HostTensor input = inputOf(rank, type, shape, false);
          HostTensor output(type, gathered);
          tessel_tensor_t in = input.descriptor(), out = output.descriptor();
          EXPECT_OK(tessel_comm_all_gather(comm.get(), args.count(),
                                           args.names(), dim, &in, &out));
          EXPECT_TRUE(matches(output, expected));

          // Started, tested until done (the output is whole then, the
          // chunks joined along `dim`), then waited for.
          HostTensor started(type, gathered);
          tessel_tensor_t startedOut = started.descriptor();
          tessel_comm_request_t *request = nullptr;
          EXPECT_OK(tessel_comm_all_gather_start(comm.get(), args.count(),
                                                 args.names(), dim, &in,
                                                 &startedOut, &request));
          expectWholeOnceTestedDone(request, started, expected);
        }
      }
    }
  });
}

TEST(Comm, ReduceScatter) {
  forEachGroup([](const Mesh &mesh, Comm &comm,
                  const std::vector<std::string> &axes) {
    int64_t rank = worldRank();
    std::vector<int64_t> members = mesh.groupOf(rank, axes);
    int64_t count = static_cast<int64_t>(members.size());
    int64_t position = mesh.positionInGroup(rank, axes);
    AxisArgs args(axes);
    for (tessel_element_type_t type : kAllTypes) {
      for (tessel_reduction_t reduction : kReductions) {
        if (reduction == TESSEL_REDUCTION_MEAN && !isFloating(type))
          continue;
        for (const std::vector<int64_t> &shape : kShapes) {
          for (int32_t dim = 0; dim < int32_t(shape.size()); ++dim) {
            SCOPED_TRACE(std::string(typeName(type)) + " " +
                         reductionName(reduction) + " " + describe(shape) +
                         " dim " + std::to_string(dim));
            std::vector<int64_t> scattered = shape;
            scattered[dim] /= count;
            // Element j is the reduction at j[dim] + position * chunk.
            std::vector<double> expected(numElements(scattered));
            for (int64_t flat = 0; flat < numElements(scattered); ++flat) {
              std::vector<int64_t> index = unravel(flat, scattered);
              index[dim] += position * scattered[dim];
              expected[flat] =
                  reduceOver(members, ravel(index, shape), reduction);
            }
            HostTensor input = inputOf(rank, type, shape, true);
            HostTensor output(type, scattered);
            tessel_tensor_t in = input.descriptor(), out = output.descriptor();
            EXPECT_OK(tessel_comm_reduce_scatter(comm.get(), args.count(),
                                                 args.names(), reduction, dim,
                                                 &in, &out));
            EXPECT_TRUE(matches(output, expected));

            HostTensor started(type, scattered);
            tessel_tensor_t startedOut = started.descriptor();
            tessel_comm_request_t *request = nullptr;
            EXPECT_OK(tessel_comm_reduce_scatter_start(
                comm.get(), args.count(), args.names(), reduction, dim, &in,
                &startedOut, &request));
            EXPECT_OK(tessel_comm_wait(request));
            EXPECT_TRUE(matches(started, expected)) << "started";
          }
        }
      }
    }
  });
}

TEST(Comm, AllToAll) {
  forEachGroup([](const Mesh &mesh, Comm &comm,
                  const std::vector<std::string> &axes) {
    int64_t rank = worldRank();
    std::vector<int64_t> members = mesh.groupOf(rank, axes);
    int64_t count = static_cast<int64_t>(members.size());
    int64_t position = mesh.positionInGroup(rank, axes);
    AxisArgs args(axes);
    for (tessel_element_type_t type : kAllTypes) {
      for (const std::vector<int64_t> &shape : kShapes) {
        int32_t rankOfShape = static_cast<int32_t>(shape.size());
        for (int32_t split = 0; split < rankOfShape; ++split) {
          for (int32_t concat = 0; concat < rankOfShape; ++concat) {
            SCOPED_TRACE(std::string(typeName(type)) + " " + describe(shape) +
                         " split " + std::to_string(split) + " concat " +
                         std::to_string(concat));
            std::vector<int64_t> chunk = shape;
            chunk[split] /= count;
            std::vector<int64_t> result = chunk;
            result[concat] *= count;
            // Element j is in the chunk from member i = j[concat] / chunk
            // size, which is that member's chunk number `position` along the
            // split dim.
            std::vector<double> expected(numElements(result));
            for (int64_t flat = 0; flat < numElements(result); ++flat) {
              std::vector<int64_t> index = unravel(flat, result);
              int64_t from = index[concat] / chunk[concat];
              index[concat] %= chunk[concat];
              index[split] += position * chunk[split];
              expected[flat] =
                  movedValue(members[from], ravel(index, shape), type);
            }
            HostTensor input = inputOf(rank, type, shape, false);
            HostTensor output(type, result);
            tessel_tensor_t in = input.descriptor(), out = output.descriptor();
            EXPECT_OK(tessel_comm_all_to_all(comm.get(), args.count(),
                                             args.names(), split, concat, &in,
                                             &out));
            EXPECT_TRUE(matches(output, expected));
          }
        }
      }
    }
  });
}

TEST(Comm, ShardSlice) {
  forEachGroup([](const Mesh &mesh, Comm &comm,
                  const std::vector<std::string> &axes) {
    int64_t rank = worldRank();
    int64_t count = mesh.groupSize(axes);
    int64_t position = mesh.positionInGroup(rank, axes);
    AxisArgs args(axes);
    for (const std::vector<int64_t> &shape : kShapes) {
      for (int32_t dim = 0; dim < int32_t(shape.size()); ++dim) {
        SCOPED_TRACE(describe(shape) + " dim " + std::to_string(dim));
        std::vector<int64_t> sliced = shape;
        sliced[dim] /= count;
        std::vector<double> expected(numElements(sliced));
        for (int64_t flat = 0; flat < numElements(sliced); ++flat) {
          std::vector<int64_t> index = unravel(flat, sliced);
          index[dim] += position * sliced[dim];
          expected[flat] =
              movedValue(rank, ravel(index, shape), TESSEL_ELEMENT_TYPE_I64);
        }
        HostTensor input = inputOf(rank, TESSEL_ELEMENT_TYPE_I64, shape, false);
        HostTensor output(TESSEL_ELEMENT_TYPE_I64, sliced);
        tessel_tensor_t in = input.descriptor(), out = output.descriptor();
        EXPECT_OK(tessel_comm_shard_slice(comm.get(), args.count(),
                                          args.names(), dim, &in, &out));
        EXPECT_TRUE(matches(output, expected));
      }
    }
  });
}

//===----------------------------------------------------------------------===//
// halo_exchange and collective_permute
//===----------------------------------------------------------------------===//

/// What a halo exchange along `axis`, widening `dim` of `shape` by `low`
/// and `high`, leaves on `rank` when every rank's input is
/// inputOf(its rank, `type`, `shape`, false): element j along the dim is the
/// predecessor's local-low+j for j < low, the successor's j-low-local past
/// the own part, and `pad` where the neighbour would be off the axis.
std::vector<double> haloExchanged(const Mesh &mesh, const std::string &axis,
                                  int64_t rank, tessel_element_type_t type,
                                  const std::vector<int64_t> &shape,
                                  int32_t dim, int64_t low, int64_t high,
                                  double pad) {
  unsigned axisIndex = *mesh.axisIndex(axis);
  std::vector<int64_t> coords = mesh.coordinatesOf(rank);
  int64_t local = shape[dim];
  std::vector<int64_t> widened = shape;
  widened[dim] += low + high;
  std::vector<double> expected(numElements(widened));
  for (int64_t flat = 0; flat < numElements(widened); ++flat) {
    std::vector<int64_t> index = unravel(flat, widened);
    std::vector<int64_t> from = coords;
    int64_t along = index[dim] - low;
    if (along < 0) {
      --from[axisIndex];
      along += local;
    } else if (along >= local) {
      ++from[axisIndex];
      along -= local;
    }
    if (from[axisIndex] < 0 || from[axisIndex] >= mesh.axisSizes()[axisIndex]) {
      expected[flat] = pad;
      continue;
    }
    index[dim] = along;
    expected[flat] = movedValue(mesh.rankAt(from), ravel(index, shape), type);
  }
  return expected;
}

TEST(Comm, HaloExchange) {
  const double pad = -3;
  const std::vector<std::pair<int64_t, int64_t>> widths = {
      {0, 0}, {1, 0}, {0, 1}, {1, 2}, {4, 4}};
  for (const Mesh &mesh : meshesForThisJob()) {
    SCOPED_TRACE("mesh " + describe(mesh));
    Comm comm(mesh);
    int64_t rank = worldRank();
    for (const std::string &axis : mesh.axisNames()) {
      for (tessel_element_type_t type : kAllTypes) {
        for (const std::vector<int64_t> &shape : kShapes) {
          for (int32_t dim = 0; dim < int32_t(shape.size()); ++dim) {
            for (auto [low, high] : widths) {
              SCOPED_TRACE("axis " + axis + " " + typeName(type) + " " +
                           describe(shape) + " dim " + std::to_string(dim) +
                           " low " + std::to_string(low) + " high " +
                           std::to_string(high));
              std::vector<int64_t> widened = shape;
              widened[dim] += low + high;
              std::vector<double> expected = haloExchanged(
                  mesh, axis, rank, type, shape, dim, low, high, pad);
              HostTensor input = inputOf(rank, type, shape, false);
              HostTensor output(type, widened), started(type, widened);
              tessel_tensor_t in = input.descriptor(),
                              out = output.descriptor(),
                              startedOut = started.descriptor();
              // Started, a blocking exchange of the same halos (same
              // neighbours and tags) run while it is in flight, then tested
              // until done: both get the whole result, the started one's
              // halos and padding written when it completes.
              tessel_comm_request_t *request = nullptr;
              EXPECT_OK(tessel_comm_halo_exchange_start(
                  comm.get(), axis.c_str(), dim, low, high, pad, &in,
                  &startedOut, &request));
              EXPECT_OK(tessel_comm_halo_exchange(comm.get(), axis.c_str(), dim,
                                                  low, high, pad, &in, &out));
              EXPECT_TRUE(matches(output, expected));
              expectWholeOnceTestedDone(request, started, expected);
            }
          }
        }
      }
    }
  }
}

TEST(Comm, StartedHaloExchangesMayBeInFlightTogether) {
  // Two exchanges on one axis in flight at once, waited for in the other
  // order than started: the messages match in the order posted, so each
  // gets its own input's halos.
  for (const Mesh &mesh : meshesForThisJob()) {
    SCOPED_TRACE("mesh " + describe(mesh));
    Comm comm(mesh);
    int64_t rank = worldRank();
    const std::string &axis = mesh.axisNames().front();
    std::vector<int64_t> shape = {3, 4}, widened = {3, 6};
    HostTensor first = inputOf(rank, TESSEL_ELEMENT_TYPE_F32, shape, false);
    HostTensor second(TESSEL_ELEMENT_TYPE_F32, shape);
    for (int64_t i = 0; i < numElements(shape); ++i)
      second.set(i, -first.get(i));
    HostTensor firstOut(TESSEL_ELEMENT_TYPE_F32, widened),
        secondOut(TESSEL_ELEMENT_TYPE_F32, widened);
    tessel_tensor_t firstIn = first.descriptor(),
                    secondIn = second.descriptor(),
                    firstResult = firstOut.descriptor(),
                    secondResult = secondOut.descriptor();
    tessel_comm_request_t *a = nullptr, *b = nullptr;
    EXPECT_OK(tessel_comm_halo_exchange_start(comm.get(), axis.c_str(), 1, 1, 1,
                                              0.0, &firstIn, &firstResult, &a));
    EXPECT_OK(tessel_comm_halo_exchange_start(
        comm.get(), axis.c_str(), 1, 1, 1, 0.0, &secondIn, &secondResult, &b));
    EXPECT_OK(tessel_comm_wait(b));
    EXPECT_OK(tessel_comm_wait(a));
    std::vector<double> expected = haloExchanged(
        mesh, axis, rank, TESSEL_ELEMENT_TYPE_F32, shape, 1, 1, 1, 0.0);
    EXPECT_TRUE(matches(firstOut, expected)) << "first";
    for (double &value : expected)
      value = -value;
    EXPECT_TRUE(matches(secondOut, expected)) << "second";
  }
}

TEST(Comm, CollectivePermute) {
  forEachGroup([](const Mesh &mesh, Comm &comm,
                  const std::vector<std::string> &axes) {
    int64_t rank = worldRank();
    std::vector<int64_t> members = mesh.groupOf(rank, axes);
    int64_t count = static_cast<int64_t>(members.size());
    int64_t position = mesh.positionInGroup(rank, axes);
    AxisArgs args(axes);

    // A cyclic shift; one pair (0 -> last), so the others receive nothing;
    // two pairs for one target (the last counts) with a self-pair; none.
    std::vector<std::vector<int64_t>> permutations(4);
    for (int64_t i = 0; i < count; ++i)
      permutations[0].insert(permutations[0].end(), {i, (i + 1) % count});
    permutations[1] = {0, count - 1};
    permutations[2] = {0, 0, count - 1, 0, count - 1, count - 1};

    for (tessel_element_type_t type : kAllTypes) {
      for (const std::vector<int64_t> &pairs : permutations) {
        SCOPED_TRACE(std::string(typeName(type)) + " pairs " + describe(pairs));
        int64_t source = -1;
        for (size_t i = 0; i + 1 < pairs.size(); i += 2)
          if (pairs[i + 1] == position)
            source = pairs[i];
        std::vector<int64_t> shape = {3, 4};
        std::vector<double> expected(numElements(shape), 0.0);
        if (source >= 0)
          for (int64_t flat = 0; flat < numElements(shape); ++flat)
            expected[flat] = movedValue(members[source], flat, type);

        HostTensor input = inputOf(rank, type, shape, false);
        HostTensor output(type, shape);
        tessel_tensor_t in = input.descriptor(), out = output.descriptor();
        EXPECT_OK(tessel_comm_collective_permute(
            comm.get(), args.count(), args.names(),
            static_cast<int32_t>(pairs.size() / 2), pairs.data(), &in, &out));
        EXPECT_TRUE(matches(output, expected));
      }
    }
  });
}

} // namespace
