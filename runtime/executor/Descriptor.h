//===- Descriptor.h - Op descriptors parsed from the compiler's JSON -*- C++
//-*-===//
//
// The compiler writes one JSON object per op into the program (the format is
// in tessel/runtime/program.h). This is its C++ form, made once per call
// site, plus checked accessors for the attributes, so that a malformed
// descriptor is an error naming the attribute instead of a crash in a
// kernel.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_DESCRIPTOR_H
#define TESSEL_RUNTIME_EXECUTOR_DESCRIPTOR_H

#include "reference/Tensor.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessel::runtime {

/// A descriptor, an attribute or an operand that the runtime cannot use. It
/// never leaves the executor: tessel_rt_execute turns it into the job's
/// error message.
class OpError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A TENSOR of the descriptor: named dims with the rank's local sizes, in
/// row-major storage order.
struct TensorType {
  std::vector<std::string> dims;
  std::vector<int64_t> shape;
  ref::ElementType type = ref::ElementType::F32;

  int rank() const { return static_cast<int>(dims.size()); }
  int64_t numElements() const;
  int64_t numBytes() const;
  /// The position of the named dim; an OpError naming `what` when absent.
  int dimIndex(const std::string &name, const char *what) const;
  ref::TensorSpec spec() const { return {dims, shape, type}; }
  /// "[batch:16, pixels:784] f32", for messages.
  std::string str() const;
};

/// Reads {"dims": [...], "shape": [...], "type": "f32"}; `what` names it in
/// errors ("operand 1", "the result", "argument 'w1'").
TensorType parseTensorType(const nlohmann::json &json, const std::string &what);

struct OpDescriptor {
  std::string op;
  std::string loc;
  std::vector<TensorType> operands;
  TensorType result;
  /// The results after the first, of an op that has several (a fused op's
  /// "more_results"): their buffers follow the operands' in the call.
  std::vector<TensorType> moreResults;
  nlohmann::json attrs = nlohmann::json::object();

  // Attribute accessors: the named attribute, or `fallback` when it is
  // absent (the op's default value in ODS, which the compiler may leave
  // out); an OpError when it is absent without a fallback or has the wrong
  // JSON type.
  std::string stringAttr(const char *name) const;
  std::vector<std::string> stringListAttr(const char *name) const;
  int64_t intAttr(const char *name,
                  std::optional<int64_t> fallback = std::nullopt) const;
  std::vector<int64_t> intListAttr(
      const char *name,
      std::optional<std::vector<int64_t>> fallback = std::nullopt) const;
  double doubleAttr(const char *name,
                    std::optional<double> fallback = std::nullopt) const;

  /// Checks that there are `count` operands.
  void expectOperands(size_t count) const;
};

/// Parses a descriptor into `desc`; an OpError says what is wrong with it.
/// The op's name and location are filled in first, so that an error about
/// the rest can name them.
void parseDescriptor(const char *text, OpDescriptor &desc);

/// A number as JSON carries it, or one of the strings "inf", "-inf" and
/// "nan" that JSON has no number for.
std::optional<double> jsonNumber(const nlohmann::json &value);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_DESCRIPTOR_H
