//===- SearchStages.cpp - where tessel search may cut pipeline stages -----===//

#include "tools/tessel/SearchStages.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <limits>
#include <set>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::search;

namespace {

/// Whether running `op` makes or reads a parameter: a call whose callee
/// (or a function it calls) makes one, or an op that reads one made in
/// @forward's own body (a parameter is made by the stage that uses it).
bool readsParameter(Operation *op,
                    llvm::SmallPtrSetImpl<Operation *> &visited) {
  for (Value operand : op->getOperands())
    if (operand.getDefiningOp<ParameterOp>())
      return true;
  auto call = dyn_cast<func::CallOp>(op);
  if (!call)
    return false;
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (!callee || callee.isExternal() || !visited.insert(callee).second)
    return false;
  bool found = false;
  callee.walk([&](Operation *inner) {
    if (isa<ParameterOp>(inner) ||
        (isa<func::CallOp>(inner) && readsParameter(inner, visited)))
      found = true;
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

} // namespace

std::vector<LayerSegment> search::layerSegments(func::FuncOp forward) {
  struct Unit {
    std::vector<std::string> scopes;
    bool hasParameters = false;
  };
  std::vector<Unit> units;
  std::set<std::string> seen;
  // What precedes the first call belongs to the first stage.
  bool preambleHasParameters = false;
  for (Operation &op : forward.getBody().front().without_terminator()) {
    auto scope = op.getAttrOfType<StringAttr>(TesselDialect::kScopeAttrName);
    if (isa<func::CallOp>(op) && scope && seen.insert(scope.str()).second)
      units.push_back({{scope.str()}, false});
    llvm::SmallPtrSet<Operation *, 8> visited;
    bool reads = readsParameter(&op, visited);
    if (units.empty())
      preambleHasParameters |= reads;
    else
      units.back().hasParameters |= reads;
  }
  if (units.empty())
    return {};
  units.front().hasParameters |= preambleHasParameters;

  // A stage must hold a parameter: a unit without one cannot start a
  // stage, so it joins the unit before it (the first, the one after).
  std::vector<Unit> merged;
  for (Unit &unit : units) {
    if (!merged.empty() &&
        (!unit.hasParameters || !merged.back().hasParameters)) {
      Unit &previous = merged.back();
      previous.scopes.insert(previous.scopes.end(), unit.scopes.begin(),
                             unit.scopes.end());
      previous.hasParameters |= unit.hasParameters;
      continue;
    }
    merged.push_back(std::move(unit));
  }
  std::vector<LayerSegment> segments;
  for (Unit &unit : merged)
    if (unit.hasParameters)
      segments.push_back({std::move(unit.scopes)});
  return segments;
}

std::vector<size_t> search::balanceStages(const std::vector<double> &seconds,
                                          size_t stages) {
  size_t n = seconds.size();
  std::vector<double> prefix(n + 1, 0);
  for (size_t i = 0; i < n; ++i)
    prefix[i + 1] = prefix[i] + seconds[i];
  constexpr double kNone = std::numeric_limits<double>::infinity();
  // slowest[k][j]: the smallest largest run when the first j segments form
  // k runs; cut[k][j]: where the last of those runs starts.
  std::vector<std::vector<double>> slowest(stages + 1,
                                           std::vector<double>(n + 1, kNone));
  std::vector<std::vector<size_t>> cut(stages + 1,
                                       std::vector<size_t>(n + 1, 0));
  slowest[0][0] = 0;
  for (size_t k = 1; k <= stages; ++k)
    for (size_t j = k; j <= n; ++j)
      for (size_t i = k - 1; i < j; ++i) {
        double candidate = std::max(slowest[k - 1][i], prefix[j] - prefix[i]);
        if (candidate < slowest[k][j]) {
          slowest[k][j] = candidate;
          cut[k][j] = i;
        }
      }
  std::vector<size_t> starts(stages);
  size_t end = n;
  for (size_t k = stages; k >= 1; --k) {
    starts[k - 1] = cut[k][end];
    end = cut[k][end];
  }
  return starts;
}

std::vector<std::vector<std::string>>
search::stageScopes(const std::vector<LayerSegment> &segments,
                    const std::vector<size_t> &starts) {
  std::vector<std::vector<std::string>> stages;
  for (size_t k = 0; k < starts.size(); ++k) {
    size_t end = k + 1 < starts.size() ? starts[k + 1] : segments.size();
    std::vector<std::string> &scopes = stages.emplace_back();
    for (size_t i = starts[k]; i < end; ++i)
      scopes.insert(scopes.end(), segments[i].scopes.begin(),
                    segments[i].scopes.end());
  }
  return stages;
}

std::vector<size_t>
search::stageStarts(const std::vector<LayerSegment> &segments,
                    const std::vector<std::vector<std::string>> &stages) {
  std::vector<size_t> starts;
  for (const std::vector<std::string> &stage : stages) {
    auto first = std::find_if(
        segments.begin(), segments.end(), [&](const LayerSegment &segment) {
          return !stage.empty() && !segment.scopes.empty() &&
                 segment.scopes.front() == stage.front();
        });
    if (first == segments.end())
      return {};
    starts.push_back(static_cast<size_t>(first - segments.begin()));
  }
  return starts;
}

std::vector<std::vector<size_t>>
search::neighbouringCuts(const std::vector<size_t> &starts,
                         size_t segmentCount) {
  std::vector<std::vector<size_t>> cuts;
  for (size_t i = 1; i < starts.size(); ++i) {
    size_t before = starts[i - 1];
    size_t after = i + 1 < starts.size() ? starts[i + 1] : segmentCount;
    if (starts[i] > before + 1) {
      std::vector<size_t> earlier = starts;
      --earlier[i];
      cuts.push_back(std::move(earlier));
    }
    if (starts[i] + 1 < after) {
      std::vector<size_t> later = starts;
      ++later[i];
      cuts.push_back(std::move(later));
    }
  }
  return cuts;
}
