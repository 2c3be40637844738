//===- WeightMap.h - Names of weights in PyTorch and in tessel ---*- C++
//-*-===//
//
// A name map says which tensor of a PyTorch (or Hugging Face) state_dict is
// which tessel parameter, and in which order its axes hold the parameter's
// dims. It is a small YAML mapping, one line per tensor:
//
//   fc1.weight: {name: fc1.w, dims: [hidden, pixels]}  # torch's [out, in]
//   fc1.bias: fc1.b                       # the same dims in the same order
//   attn.q.weight: {name: attn.q.w, dims: [[heads, head_dim], embed]}
//   lm_head.weight: null                  # in the file, not a parameter
//   h.0.attn.c_attn.weight:               # q, k and v side by side in axis 1
//     split: 1
//     parts: [{name: q.w, dims: [d_model, [heads, head_dim]]}, ...]
//
// `dims` lists torch's axes in order, each a dim of the parameter, or a list
// of them that the axis holds flattened, major first. Import permutes (and
// unflattens) torch's axes into the parameter's dim order; export does the
// reverse. yaml-cpp reports errors by throwing; this library catches them
// inside, so that the MLIR tools (built without exceptions) can use it.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_WEIGHTS_WEIGHTMAP_H
#define TESSEL_WEIGHTS_WEIGHTMAP_H

#include <optional>
#include <string>
#include <vector>

namespace tessel::weights {

/// One line of a name map: a PyTorch tensor, or one part of it, and the
/// parameter it is.
struct MapEntry {
  /// The tensor's name in the PyTorch file.
  std::string theirs;
  /// For a tensor that holds several parameters side by side: the torch
  /// axis they are concatenated along, and this entry's place among them
  /// (the entries of one tensor are consecutive, in order). -1 otherwise.
  int splitAxis = -1;
  int part = 0;
  /// The tessel parameter; empty for a tensor mapped to null (skipped).
  std::string ours;
  /// Torch's axes, each as the parameter dims it holds (major first); empty
  /// when the map gives no dims (the parameter's own order).
  std::vector<std::vector<std::string>> axes;
  bool hasDims = false;
  /// Where the entry is, for messages: "map.yaml:3".
  std::string where;
};

struct WeightMap {
  std::string path;
  std::vector<MapEntry> entries;

  /// The (first) entry of a PyTorch tensor.
  const MapEntry *findTheirs(const std::string &name) const;
  const MapEntry *findOurs(const std::string &name) const;
};

/// Reads a name map. Errors name the file and line: a file that is not a
/// YAML mapping, an entry that is neither null, a name, {name, dims} nor
/// {split: AXIS, parts: [...]}, an unknown key, and two entries for one
/// tessel parameter.
std::optional<WeightMap> readWeightMap(const std::string &path,
                                       std::string &error);

/// Reads a name map from `text`, as readWeightMap reads the file `path`
/// (which messages name).
std::optional<WeightMap> parseWeightMap(const std::string &text,
                                        const std::string &path,
                                        std::string &error);

} // namespace tessel::weights

#endif // TESSEL_WEIGHTS_WEIGHTMAP_H
