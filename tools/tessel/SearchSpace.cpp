//===- SearchSpace.cpp - the layouts tessel search considers --------------===//

#include "tools/tessel/SearchSpace.h"

#include "dialect/MeshConversion.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::search;

namespace {

/// More dims than this on one axis would make the sets of dims too many to
/// list; the largest ones are kept (small dims are poor splits anyway).
constexpr size_t kMaxDimsPerAxis = 16;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The divisors of `n` (at least 1) in ascending order, found up to its
/// square root: a loop up to `n` itself took 8 s for 2^31 ranks.
std::vector<int64_t> divisors(int64_t n) {
  std::vector<int64_t> small, large;
  for (int64_t d = 1; d <= n / d; ++d)
    if (n % d == 0) {
      small.push_back(d);
      if (d != n / d)
        large.push_back(n / d);
    }
  small.insert(small.end(), large.rbegin(), large.rend());
  return small;
}

int64_t elementBytes(Type type) {
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

/// The sets of `dims` that `axisSize` ranks can split together: dims at
/// least that large, no two in one tensor; each alone and every maximal
/// set.
std::vector<std::vector<Dim>> dimSets(const ModelDims &model,
                                      const std::vector<Dim> &dims,
                                      int64_t axisSize) {
  std::vector<Dim> eligible;
  for (const Dim &dim : dims)
    if (dim.size >= axisSize)
      eligible.push_back(dim);
  std::stable_sort(eligible.begin(), eligible.end(),
                   [](const Dim &a, const Dim &b) { return a.size > b.size; });
  if (eligible.size() > kMaxDimsPerAxis)
    eligible.resize(kMaxDimsPerAxis);

  std::vector<std::vector<Dim>> sets;
  for (const Dim &dim : eligible)
    sets.push_back({dim});
  // Maximal independent sets of the "share a tensor" graph, by extending
  // each set with every later compatible dim in turn.
  std::vector<Dim> current;
  std::function<void(size_t)> extend = [&](size_t next) {
    bool extended = false;
    for (size_t i = next; i < eligible.size(); ++i) {
      bool compatible = true;
      for (const Dim &chosen : current)
        compatible &= !model.shareATensor(chosen.name, eligible[i].name);
      if (!compatible)
        continue;
      current.push_back(eligible[i]);
      extend(i + 1);
      current.pop_back();
      extended = true;
    }
    if (extended || current.size() < 2)
      return;
    // Maximal: no dim at all (earlier ones included) could join.
    for (const Dim &other : eligible) {
      bool in = false, compatible = true;
      for (const Dim &chosen : current) {
        in |= chosen.name == other.name;
        compatible &= !model.shareATensor(chosen.name, other.name);
      }
      if (!in && compatible)
        return;
    }
    sets.push_back(current);
  };
  extend(0);
  return sets;
}

/// Whether any rule of `candidate` splits a dim unevenly somewhere.
bool needsPadding(const ModelDims &model, const Candidate &candidate) {
  auto uneven = [&](const std::string &dim, const std::string &axis) {
    auto it = model.sizesOf.find(dim);
    if (it == model.sizesOf.end())
      return false;
    for (int64_t size : it->second)
      if (size % candidate.axisSize(axis) != 0)
        return true;
    return false;
  };
  for (const auto &[dim, axis] : candidate.rules)
    if (uneven(dim, axis))
      return true;
  for (const auto &[tensor, rule] : candidate.overrides)
    if (uneven(rule.first, rule.second))
      return true;
  return false;
}

/// Adds ZeRO overrides to `candidate`: every parameter split over `data`
/// along its largest dim that no other axis splits, preferring one that
/// divides. Returns false when no parameter can be split.
bool addZeroOverrides(const ModelDims &model, Candidate &candidate) {
  int64_t data = candidate.axisSize("data");
  std::set<std::string> taken;
  for (const auto &[dim, axis] : candidate.rules)
    taken.insert(dim);
  for (const StateTensor &parameter : model.parameters) {
    const Dim *best = nullptr;
    for (const Dim &dim : parameter.dims) {
      if (taken.count(dim.name) || dim.size < data)
        continue;
      auto score = [&](const Dim &d) {
        return std::make_pair(d.size % data == 0, d.size);
      };
      if (!best || score(dim) > score(*best))
        best = &dim;
    }
    if (best)
      candidate.overrides.push_back({parameter.name, {best->name, "data"}});
  }
  candidate.zero = !candidate.overrides.empty();
  return candidate.zero;
}

/// Spells a YAML key, quoted when it is more than a plain name.
std::string yamlKey(const std::string &name) {
  bool plain =
      !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
               c == '.';
      });
  return plain ? name : fmt::format("\"{}\"", name);
}

} // namespace

bool ModelDims::shareATensor(const std::string &a, const std::string &b) const {
  return together.count(a < b ? std::make_pair(a, b) : std::make_pair(b, a));
}

ModelDims search::analyzeTrainStep(func::FuncOp trainStep) {
  ModelDims model;
  auto note = [&](NamedTensorType type) {
    std::vector<std::string> names;
    for (auto [name, size] : llvm::zip(type.getDimNames(), type.getShape())) {
      names.push_back(name.str());
      model.sizesOf[name.str()].insert(size);
    }
    for (size_t i = 0; i < names.size(); ++i)
      for (size_t j = i + 1; j < names.size(); ++j)
        model.together.insert(names[i] < names[j]
                                  ? std::make_pair(names[i], names[j])
                                  : std::make_pair(names[j], names[i]));
  };
  trainStep.walk([&](Operation *op) {
    for (Value result : op->getResults())
      if (auto type = dyn_cast<NamedTensorType>(result.getType()))
        note(type);
  });

  Block &body = trainStep.getBody().front();
  std::set<std::string> parameterDims;
  std::vector<std::set<std::string>> dataInputs;
  // Parameters come before their state in the arguments; the state's name
  // is the parameter's with a suffix (w1.adam_m).
  for (BlockArgument argument : body.getArguments()) {
    auto type = dyn_cast<NamedTensorType>(argument.getType());
    if (!type)
      continue;
    note(type);
    auto role = trainStep.getArgAttrOfType<StringAttr>(argument.getArgNumber(),
                                                       kRoleAttrName);
    std::string name = getTensorName(argument).str();
    int64_t bytes = elementBytes(type.getElementType());
    for (int64_t size : type.getShape())
      bytes *= size;
    if (role && role.getValue() == "parameter") {
      StateTensor parameter;
      parameter.name = name;
      for (auto [dim, size] : llvm::zip(type.getDimNames(), type.getShape())) {
        parameter.dims.push_back({dim.str(), size});
        parameterDims.insert(dim.str());
      }
      parameter.bytes = bytes;
      model.parameters.push_back(parameter);
    } else if (role) {
      // Optimizer state: counted with the parameter it follows, the one
      // whose name is its longest prefix (a.w.adam_m follows a.w, not a).
      StateTensor *owner = nullptr;
      for (StateTensor &parameter : model.parameters)
        if (name.rfind(parameter.name + ".", 0) == 0 &&
            (!owner || parameter.name.size() > owner->name.size()))
          owner = &parameter;
      if (owner)
        owner->bytes += bytes;
    } else if (type.getRank() > 0) {
      std::set<std::string> dims;
      for (StringAttr dim : type.getDimNames())
        dims.insert(dim.str());
      dataInputs.push_back(dims);
    }
  }
  for (const auto &[name, sizes] : model.sizesOf) {
    int64_t size = *sizes.begin();
    if (size < 2)
      continue;
    bool inEveryInput = !dataInputs.empty();
    for (const std::set<std::string> &input : dataInputs)
      inEveryInput &= input.count(name) > 0;
    if (parameterDims.count(name))
      model.modelDims.push_back({name, size});
    else if (inEveryInput)
      model.batchDims.push_back({name, size});
  }
  return model;
}

int64_t Candidate::axisSize(const std::string &axis) const {
  for (const Axis &entry : mesh)
    if (entry.name == axis)
      return entry.size;
  return 1;
}

std::string Candidate::meshText() const {
  std::vector<std::string> parts;
  for (const Axis &axis : mesh)
    parts.push_back(fmt::format("{}:{}", axis.name, axis.size));
  return fmt::format("{}", fmt::join(parts, " x "));
}

std::string Candidate::rulesText() const {
  std::vector<std::string> parts;
  for (const auto &[dim, axis] : rules)
    parts.push_back(fmt::format("{}->{}", dim, axis));
  if (zero)
    parts.push_back("ZeRO over data");
  if (pipeline) {
    std::vector<std::string> starts;
    for (const std::vector<std::string> &stage : pipeline->stages)
      starts.push_back(stage.empty() ? "?" : stage.front());
    parts.push_back(fmt::format("stages {} ({} micro-batches{})",
                                fmt::join(starts, "|"), pipeline->microbatches,
                                pipeline->remat ? ", remat" : ""));
  }
  if (parts.empty())
    return "replicated";
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string Candidate::canonicalKey() const {
  std::map<std::string, std::vector<std::string>> dimsOf;
  for (const auto &[dim, axis] : rules)
    dimsOf[axis].push_back(dim);
  std::vector<std::string> modelAxes;
  std::string key;
  for (const Axis &axis : mesh) {
    std::vector<std::string> &dims = dimsOf[axis.name];
    std::sort(dims.begin(), dims.end());
    std::string part = fmt::format("{}:[{}]", axis.size, fmt::join(dims, ","));
    if (axis.name == "data")
      key += "data=" + part + ";";
    else if (pipeline && axis.name == pipeline->axis)
      key += "stage=" + part + ";";
    else
      modelAxes.push_back(part);
  }
  std::sort(modelAxes.begin(), modelAxes.end());
  key += fmt::format("model={}", fmt::join(modelAxes, ";"));
  std::vector<std::string> overridden;
  for (const auto &[tensor, rule] : overrides)
    overridden.push_back(
        fmt::format("{}.{}->{}", tensor, rule.first, rule.second));
  std::sort(overridden.begin(), overridden.end());
  key += fmt::format(";overrides={}", fmt::join(overridden, ","));
  if (pipeline) {
    std::vector<std::string> stages;
    for (const std::vector<std::string> &stage : pipeline->stages)
      stages.push_back(fmt::format("{}", fmt::join(stage, ",")));
    key += fmt::format(";pipeline={}x[{}]{}", pipeline->microbatches,
                       fmt::join(stages, "|"), pipeline->remat ? ",remat" : "");
  }
  return key;
}

std::string Candidate::yaml(const std::string &header) const {
  std::string text = header;
  std::vector<std::string> axes;
  for (const Axis &axis : mesh)
    axes.push_back(fmt::format("{}: {}", axis.name, axis.size));
  text += fmt::format("mesh: {{{}}}\n", fmt::join(axes, ", "));
  if (rules.empty()) {
    text += "layout: {}\n";
  } else {
    text += "layout:\n";
    for (const auto &[dim, axis] : rules)
      text += fmt::format("  {}: {}\n", yamlKey(dim), axis);
  }
  if (!overrides.empty()) {
    text += "overrides:\n";
    for (const auto &[tensor, rule] : overrides)
      text += fmt::format("  {}: {{{}: {}}}\n", yamlKey(tensor),
                          yamlKey(rule.first), rule.second);
  }
  if (padUneven)
    text += "pad_uneven: true\n";
  if (pipeline) {
    text += "pipeline:\n";
    text += fmt::format("  axis: {}\n", pipeline->axis);
    text += fmt::format("  microbatches: {}\n", pipeline->microbatches);
    text += "  schedule: 1f1b\n";
    if (pipeline->remat)
      text += "  remat: true\n";
    if (pipeline->batchDim != "batch")
      text += fmt::format("  batch_dim: {}\n", yamlKey(pipeline->batchDim));
    std::vector<std::string> stages;
    for (const std::vector<std::string> &stage : pipeline->stages) {
      std::vector<std::string> scopes;
      for (const std::string &scope : stage)
        scopes.push_back(yamlKey(scope));
      stages.push_back(fmt::format("[{}]", fmt::join(scopes, ", ")));
    }
    text += fmt::format("  stages: [{}]\n", fmt::join(stages, ", "));
  }
  return text;
}

int64_t search::stateBytesPerRank(const ModelDims &model,
                                  const Candidate &candidate) {
  std::map<std::string, std::string> axisOf(candidate.rules.begin(),
                                            candidate.rules.end());
  int64_t total = 0;
  for (const StateTensor &parameter : model.parameters) {
    int64_t elements = 1, local = 1;
    for (const Dim &dim : parameter.dims) {
      std::string axis;
      if (auto it = axisOf.find(dim.name); it != axisOf.end())
        axis = it->second;
      for (const auto &[tensor, rule] : candidate.overrides)
        if (tensor == parameter.name && rule.first == dim.name)
          axis = rule.second;
      elements *= dim.size;
      local *=
          axis.empty() ? dim.size : ceilDiv(dim.size, candidate.axisSize(axis));
    }
    total += elements ? parameter.bytes / elements * local : 0;
  }
  return total;
}

std::vector<Candidate> search::baseCandidates(const ModelDims &model,
                                              int64_t ranks) {
  std::vector<Candidate> candidates;
  for (int64_t data : divisors(ranks)) {
    int64_t modelSize = ranks / data;
    // The data axis: each batch-like dim large enough, or none.
    std::vector<const Dim *> batchChoices;
    if (data == 1)
      batchChoices.push_back(nullptr);
    for (const Dim &dim : model.batchDims)
      if (data > 1 && dim.size >= data)
        batchChoices.push_back(&dim);
    std::vector<std::vector<Dim>> modelChoices =
        modelSize == 1 ? std::vector<std::vector<Dim>>{{}}
                       : dimSets(model, model.modelDims, modelSize);
    for (const Dim *batch : batchChoices)
      for (const std::vector<Dim> &set : modelChoices) {
        Candidate candidate;
        if (data > 1)
          candidate.mesh.push_back({"data", data});
        if (modelSize > 1)
          candidate.mesh.push_back({"model", modelSize});
        if (candidate.mesh.empty())
          candidate.mesh.push_back({"data", 1});
        if (batch)
          candidate.rules.push_back({batch->name, "data"});
        for (const Dim &dim : set)
          candidate.rules.push_back({dim.name, "model"});
        candidate.padUneven = needsPadding(model, candidate);
        candidates.push_back(candidate);
        if (std::optional<Candidate> zero = withZero(model, candidate))
          candidates.push_back(std::move(*zero));
      }
  }
  return candidates;
}

std::vector<Candidate> search::refine(const ModelDims &model,
                                      const Candidate &base) {
  std::vector<Candidate> candidates;
  int64_t modelSize = base.axisSize("model");
  std::set<std::string> split;
  for (const auto &[dim, axis] : base.rules)
    if (axis == "model")
      split.insert(dim);
  std::vector<Dim> others;
  for (const Dim &dim : model.modelDims)
    if (!split.count(dim.name))
      others.push_back(dim);
  for (int64_t first : divisors(modelSize)) {
    if (first == 1 || first == modelSize)
      continue;
    int64_t second = modelSize / first;
    // The first axis keeps the base's dims, so they must still fit it.
    bool fits = true;
    for (const Dim &dim : model.modelDims)
      if (split.count(dim.name))
        fits &= dim.size >= first;
    if (!fits)
      continue;
    for (const std::vector<Dim> &set : dimSets(model, others, second)) {
      Candidate candidate = base;
      candidate.overrides.clear();
      for (Axis &axis : candidate.mesh)
        if (axis.name == "model")
          axis.size = first;
      candidate.mesh.push_back({"model2", second});
      for (const Dim &dim : set)
        candidate.rules.push_back({dim.name, "model2"});
      if (base.zero && !addZeroOverrides(model, candidate))
        continue;
      candidate.padUneven = needsPadding(model, candidate);
      candidates.push_back(candidate);
    }
  }
  return candidates;
}

std::vector<Candidate> search::pipelinedCandidates(
    const ModelDims &model, int64_t ranks,
    const std::vector<std::vector<std::string>> &stages, const Dim &batch,
    const std::vector<std::vector<std::string>> &modelSets) {
  std::vector<Candidate> candidates;
  int64_t numStages = static_cast<int64_t>(stages.size());
  if (numStages < 2 || ranks % numStages != 0)
    return candidates;
  std::map<std::string, int64_t> sizeOf;
  for (const Dim &dim : model.modelDims)
    sizeOf[dim.name] = dim.size;
  int64_t rest = ranks / numStages;
  for (int64_t data : divisors(rest)) {
    int64_t modelSize = rest / data;
    std::vector<std::string> modelSet;
    if (modelSize > 1) {
      for (const std::vector<std::string> &set : modelSets) {
        bool fits = !set.empty();
        for (const std::string &dim : set)
          fits &= sizeOf.count(dim) && sizeOf[dim] >= modelSize;
        if (fits) {
          modelSet = set;
          break;
        }
      }
      if (modelSet.empty()) {
        std::vector<std::vector<Dim>> sets =
            dimSets(model, model.modelDims, modelSize);
        if (sets.empty())
          continue;
        for (const Dim &dim : sets.front())
          modelSet.push_back(dim.name);
      }
    }
    // Micro-batches: the bubble (p - 1) / (m + p - 1) shrinks with m, each
    // micro-batch's kernels grow less efficient; p, 2p and 4p where the
    // batch divides into m micro-batches that the data axis splits evenly,
    // else the most micro-batches up to 4p that it divides into.
    std::vector<int64_t> microbatchCounts;
    for (int64_t factor : {1, 2, 4})
      if (batch.size % (factor * numStages * data) == 0)
        microbatchCounts.push_back(factor * numStages);
    for (int64_t m = 4 * numStages; microbatchCounts.empty() && m >= 2; --m)
      if (batch.size % (m * data) == 0)
        microbatchCounts.push_back(m);
    for (int64_t microbatches : microbatchCounts) {
      Candidate candidate;
      if (data > 1)
        candidate.mesh.push_back({"data", data});
      candidate.mesh.push_back({"stage", numStages});
      if (modelSize > 1)
        candidate.mesh.push_back({"model", modelSize});
      if (data > 1)
        candidate.rules.push_back({batch.name, "data"});
      for (const std::string &dim : modelSet)
        candidate.rules.push_back({dim, "model"});
      PipelinePlan plan;
      plan.microbatches = microbatches;
      plan.stages = stages;
      plan.batchDim = batch.name;
      candidate.pipeline = plan;
      candidate.padUneven = needsPadding(model, candidate);
      candidates.push_back(candidate);
    }
  }
  return candidates;
}

std::optional<Candidate>
search::withTwiceTheMicrobatches(const ModelDims &model,
                                 const Candidate &candidate) {
  if (!candidate.pipeline)
    return std::nullopt;
  auto batch = std::find_if(
      model.batchDims.begin(), model.batchDims.end(),
      [&](const Dim &dim) { return dim.name == candidate.pipeline->batchDim; });
  int64_t twice = 2 * candidate.pipeline->microbatches;
  if (batch == model.batchDims.end() ||
      batch->size % (twice * candidate.axisSize("data")) != 0)
    return std::nullopt;
  Candidate more = candidate;
  more.pipeline->microbatches = twice;
  return more;
}

std::optional<Candidate> search::withZero(const ModelDims &model,
                                          const Candidate &candidate) {
  Candidate zero = candidate;
  if (candidate.zero || candidate.axisSize("data") < 2 ||
      !addZeroOverrides(model, zero))
    return std::nullopt;
  zero.padUneven = needsPadding(model, zero);
  return zero;
}

std::vector<Candidate> search::lessMemoryVariants(const ModelDims &model,
                                                  const Candidate &candidate,
                                                  bool stateOverBudget) {
  std::vector<Candidate> variants;
  if (!candidate.pipeline || candidate.zero || candidate.pipeline->remat)
    return variants;
  auto recomputing = [](Candidate variant) {
    variant.pipeline->remat = true;
    return variant;
  };
  if (!stateOverBudget)
    variants.push_back(recomputing(candidate));
  if (std::optional<Candidate> zero = withZero(model, candidate)) {
    variants.push_back(*zero);
    variants.push_back(recomputing(std::move(*zero)));
  }
  return variants;
}
