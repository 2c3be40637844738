//===- LayoutPicture.cpp - a layout drawn: which rank holds what ----------===//
//
// A tensor is drawn over two of its dimensions (all of them when it has two
// or fewer; otherwise the split ones first, then the first others), each cut
// into the blocks its layout makes: a dimension split over axes A has
// groupSize(A) blocks of the local size (the last ones shorter, or empty,
// when the split is padded), and rank r holds block positionInGroup(r, A),
// as the partitioner and the runtime place them (layouts/Mesh.h). Block
// sizes are drawn in proportion to their extents, with a minimum that keeps
// their labels readable.
//
//===----------------------------------------------------------------------===//

#include "tools/tessel/LayoutPicture.h"

#include "layouts/Mesh.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <optional>

using ::tessel::analysis::CostReport;
using ::tessel::analysis::TensorCost;
using ::tessel::layout::Mesh;

namespace {

// ColorBrewer's Set3: light enough for black labels.
constexpr const char *kPalette[] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072",
                                    "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
                                    "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"};
constexpr double kDrawingWidth = 480;
constexpr double kMinBlockWidth = 56;
constexpr double kMinBlockHeight = 28;

std::string escape(const std::string &text) {
  std::string result;
  for (char c : text) {
    switch (c) {
    case '&':
      result += "&amp;";
      break;
    case '<':
      result += "&lt;";
      break;
    case '>':
      result += "&gt;";
      break;
    case '"':
      result += "&quot;";
      break;
    default:
      result += c;
    }
  }
  return result;
}

/// "0-3, 8, 10": ascending ranks with runs shortened.
std::string rankList(const std::vector<int64_t> &ranks) {
  std::string text;
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
      ++j;
    if (!text.empty())
      text += ", ";
    text += std::to_string(ranks[i]);
    if (j > i)
      text += (j == i + 1 ? ", " : "-") + std::to_string(ranks[j]);
    i = j + 1;
  }
  return text;
}

std::string joined(const std::vector<int64_t> &values, const char *sep) {
  std::string text;
  for (int64_t value : values)
    text += (text.empty() ? "" : sep) + std::to_string(value);
  return text;
}

/// One drawn dimension of a tensor, cut into the blocks of its layout.
struct Cut {
  std::string dim;
  int64_t global = 1;
  int64_t local = 1;
  std::vector<std::string> axes;
  int64_t blocks = 1;

  int64_t begin(int64_t block) const { return std::min(global, block * local); }
  int64_t end(int64_t block) const {
    return std::min(global, (block + 1) * local);
  }
};

/// The pixel sizes of `cut`'s blocks, in proportion to their extents over
/// `total` pixels, none under `minimum`.
std::vector<double> blockSizes(const Cut &cut, double total, double minimum) {
  std::vector<double> sizes;
  for (int64_t block = 0; block < cut.blocks; ++block) {
    double share = double(cut.end(block) - cut.begin(block)) /
                   double(std::max<int64_t>(cut.global, 1));
    sizes.push_back(std::max(minimum, share * total));
  }
  return sizes;
}

size_t splitDims(const TensorCost &tensor) {
  return std::count_if(tensor.axes.begin(), tensor.axes.end(),
                       [](const auto &axes) { return !axes.empty(); });
}

std::string layoutText(const TensorCost &tensor) {
  std::string text;
  for (size_t i = 0; i < tensor.dims.size(); ++i) {
    if (tensor.axes[i].empty())
      continue;
    std::string axes;
    for (const std::string &axis : tensor.axes[i])
      axes += (axes.empty() ? "" : ",") + axis;
    text += (text.empty() ? "" : ", ") + tensor.dims[i] + "->" + axes;
  }
  return text.empty() ? "replicated" : text;
}

std::string shapeText(const TensorCost &tensor,
                      const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < tensor.dims.size(); ++i)
    text += (i ? ", " : "") + tensor.dims[i] + ":" + std::to_string(shape[i]);
  return text + "]";
}

/// The mesh as a grid: the first axis down, the others (row-major, the
/// last fastest) across, each cell a rank with its coordinates.
void drawMesh(llvm::raw_ostream &os, const Mesh &mesh) {
  const std::vector<int64_t> &sizes = mesh.axisSizes();
  int64_t rows = sizes.empty() ? 1 : sizes[0];
  int64_t columns = mesh.numRanks() / rows;
  double cellWidth = 110, cellHeight = 44;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"mesh\" width=\""
     << columns * cellWidth + 2 << "\" height=\"" << rows * cellHeight + 2
     << "\">\n";
  for (int64_t rank = 0; rank < mesh.numRanks(); ++rank) {
    std::vector<int64_t> coords = mesh.coordinatesOf(rank);
    double x = 1 + double(rank % columns) * cellWidth;
    double y = 1 + double(rank / columns) * cellHeight;
    std::string where;
    for (size_t axis = 0; axis < coords.size(); ++axis)
      where += (axis ? " " : "") + mesh.axisNames()[axis] + "=" +
               std::to_string(coords[axis]);
    os << "<g class=\"rank\" data-rank=\"" << rank << "\" data-coords=\""
       << joined(coords, " ") << "\"><rect x=\"" << x << "\" y=\"" << y
       << "\" width=\"" << cellWidth << "\" height=\"" << cellHeight
       << "\" fill=\"#f4f4f4\" stroke=\"#444\"/><text x=\"" << x + cellWidth / 2
       << "\" y=\"" << y + 18
       << "\" text-anchor=\"middle\" font-size=\"14\">rank " << rank
       << "</text><text x=\"" << x + cellWidth / 2 << "\" y=\"" << y + 35
       << "\" text-anchor=\"middle\" font-size=\"11\">" << escape(where)
       << "</text></g>\n";
  }
  os << "</svg>\n";
}

/// The tensor over its drawn dimensions, a block per cell.
void drawTensor(llvm::raw_ostream &os, const TensorCost &tensor,
                const Mesh &mesh) {
  // The dimensions drawn: all of up to two, else the split ones first.
  std::vector<size_t> drawn;
  for (size_t i = 0; i < tensor.dims.size(); ++i)
    if (!tensor.axes[i].empty() && drawn.size() < 2)
      drawn.push_back(i);
  for (size_t i = 0; i < tensor.dims.size() && drawn.size() < 2; ++i)
    if (std::find(drawn.begin(), drawn.end(), i) == drawn.end())
      drawn.push_back(i);
  std::sort(drawn.begin(), drawn.end());
  auto cutOf = [&](std::optional<size_t> index) {
    Cut cut;
    if (!index)
      return cut;
    cut.dim = tensor.dims[*index];
    cut.global = tensor.globalShape[*index];
    cut.local = tensor.localShape[*index];
    cut.axes = tensor.axes[*index];
    cut.blocks = mesh.groupSize(cut.axes);
    return cut;
  };
  // One drawn dimension runs across; two: the first down, the second across.
  Cut rows = cutOf(drawn.size() == 2 ? std::optional(drawn[0]) : std::nullopt);
  Cut columns =
      cutOf(drawn.empty() ? std::nullopt : std::optional(drawn.back()));

  // Room on the left for the row dimension's label (about 7 px a
  // character at 12 px).
  std::string rowLabel =
      rows.dim.empty()
          ? ""
          : rows.dim + " (" + std::to_string(rows.global) + ") \u2193";
  double margin = 12 + 7.0 * double(rowLabel.size());

  std::map<std::pair<int64_t, int64_t>, std::vector<int64_t>> holders;
  for (int64_t rank = 0; rank < mesh.numRanks(); ++rank)
    holders[{mesh.positionInGroup(rank, rows.axes),
             mesh.positionInGroup(rank, columns.axes)}]
        .push_back(rank);

  double height =
      rows.dim.empty()
          ? kMinBlockHeight + 12
          : std::clamp(kDrawingWidth * double(rows.global) /
                           double(std::max<int64_t>(columns.global, 1)),
                       80.0, 360.0);
  std::vector<double> heights = blockSizes(rows, height, kMinBlockHeight + 12);
  std::vector<double> widths =
      blockSizes(columns, kDrawingWidth, kMinBlockWidth);
  double totalWidth = 0, totalHeight = 0;
  for (double w : widths)
    totalWidth += w;
  for (double h : heights)
    totalHeight += h;

  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"tensor\" "
        "data-name=\""
     << escape(tensor.name) << "\" data-row-dim=\"" << escape(rows.dim)
     << "\" data-column-dim=\"" << escape(columns.dim) << "\" width=\""
     << margin + totalWidth + 2 << "\" height=\"" << totalHeight + 24
     << "\">\n";
  if (!columns.dim.empty())
    os << "<text x=\"" << margin + totalWidth / 2
       << "\" y=\"14\" text-anchor=\"middle\" font-size=\"12\">"
       << escape(columns.dim) << " (" << columns.global << ") &#8594;</text>\n";
  if (!rows.dim.empty())
    os << "<text x=\"" << margin - 6 << "\" y=\"" << 22 + totalHeight / 2
       << "\" text-anchor=\"end\" font-size=\"12\">" << escape(rowLabel)
       << "</text>\n";

  std::map<std::vector<int64_t>, size_t> colours;
  double y = 22;
  for (int64_t row = 0; row < rows.blocks; ++row) {
    double x = margin;
    for (int64_t column = 0; column < columns.blocks; ++column) {
      const std::vector<int64_t> &ranks = holders[{row, column}];
      size_t colour = colours.emplace(ranks, colours.size()).first->second;
      double w = widths[column], h = heights[row];
      os << "<g class=\"block\" data-ranks=\"" << joined(ranks, " ")
         << "\" data-rows=\"" << rows.begin(row) << ":" << rows.end(row)
         << "\" data-columns=\"" << columns.begin(column) << ":"
         << columns.end(column) << "\"><title>ranks " << rankList(ranks)
         << " hold " << escape(rows.dim.empty() ? "" : rows.dim + " ")
         << (rows.dim.empty() ? ""
                              : std::to_string(rows.begin(row)) + ".." +
                                    std::to_string(rows.end(row)) + ", ")
         << escape(columns.dim) << " " << columns.begin(column) << ".."
         << columns.end(column) << "</title><rect x=\"" << x << "\" y=\"" << y
         << "\" width=\"" << w << "\" height=\"" << h << "\" fill=\""
         << kPalette[colour % std::size(kPalette)]
         << "\" stroke=\"#333\"/><text x=\"" << x + w / 2 << "\" y=\""
         << y + h / 2 + 4 << "\" text-anchor=\"middle\" font-size=\"12\">"
         << rankList(ranks) << "</text></g>\n";
      x += w;
    }
    y += heights[row];
  }
  os << "</svg>\n";
}

} // namespace

std::string
mlir::tessel::renderLayoutPicture(const CostReport &report,
                                  const std::vector<std::string> &names,
                                  std::string &error) {
  std::vector<const TensorCost *> chosen;
  for (const std::string &name : names) {
    auto found = std::find_if(
        report.tensors.begin(), report.tensors.end(),
        [&](const TensorCost &tensor) { return tensor.name == name; });
    if (found == report.tensors.end()) {
      error = "no tensor named '" + name + "' in @" + report.function +
              " (tessel explain lists them)";
      return "";
    }
    chosen.push_back(&*found);
  }
  if (names.empty())
    for (const TensorCost &tensor : report.tensors)
      if (tensor.kind == "parameter" || tensor.kind == "input")
        chosen.push_back(&tensor);

  Mesh mesh(report.meshAxes, report.meshSizes);
  std::string meshText;
  for (size_t i = 0; i < report.meshAxes.size(); ++i)
    meshText += (i ? ", " : "") + report.meshAxes[i] + ":" +
                std::to_string(report.meshSizes[i]);
  std::string title = "@" + report.function + " on mesh [" + meshText + "]";

  std::string page;
  llvm::raw_string_ostream os(page);
  os << "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\">\n"
        "<head><meta charset=\"utf-8\"/><title>"
     << escape(title)
     << "</title>\n<style>body { font-family: sans-serif; margin: 2em; } "
        "h2 { font-size: 1.1em; margin-top: 1.6em; } "
        "p { color: #333; }</style></head>\n<body>\n<h1>"
     << escape(title) << " (" << mesh.numRanks() << " ranks)</h1>\n"
     << "<h2>mesh</h2>\n";
  drawMesh(os, mesh);
  os << "<p>Each tensor below is cut into the blocks its layout makes; a "
        "block is labelled with the ranks that hold it (one colour per set "
        "of ranks).</p>\n";
  for (const TensorCost *tensor : chosen) {
    os << "<h2>" << escape(tensor->name) << "</h2>\n<p>" << tensor->kind << " "
       << escape(shapeText(*tensor, tensor->globalShape)) << " "
       << escape(tensor->elementType) << ", " << escape(layoutText(*tensor))
       << ": each rank holds " << escape(shapeText(*tensor, tensor->localShape))
       << ", " << tensor->bytesPerRank << " B";
    if (tensor->dims.size() > 2)
      os << " (drawn over two of its dimensions, the split ones first; a "
            "block's ranks hold it whole along the others"
         << (splitDims(*tensor) > 2 ? ", or a part of them where listed as "
                                      "split"
                                    : "")
         << ")";
    os << "</p>\n";
    drawTensor(os, *tensor, mesh);
  }
  os << "</body>\n</html>\n";
  return page;
}
