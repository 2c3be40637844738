//===- LayoutPicture.h - a layout drawn: which rank holds what --*- C++ -*-===//
//
// `tessel explain --picture FILE.html` draws a layout in the spirit of JAX's
// visualize_array_sharding: the mesh as a grid of ranks, and each chosen
// tensor as a grid of the blocks the layout cuts it into, every block
// labelled with the ranks that hold it and coloured by that set of ranks.
// One self-contained HTML file (inline SVG, no scripts) that is also
// well-formed XML, so that tests can read its structure.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_TESSEL_LAYOUTPICTURE_H
#define TESSEL_TOOLS_TESSEL_LAYOUTPICTURE_H

#include "analysis/CostReport.h"

#include <string>
#include <vector>

namespace mlir::tessel {

/// Renders `report`'s mesh and the tensors named in `tensors` (all its
/// parameters and inputs when empty) as an HTML page. Sets `error` (naming
/// the tensor) and returns an empty string when a name is not a tensor of
/// the report.
std::string renderLayoutPicture(const ::tessel::analysis::CostReport &report,
                                const std::vector<std::string> &tensors,
                                std::string &error);

} // namespace mlir::tessel

#endif // TESSEL_TOOLS_TESSEL_LAYOUTPICTURE_H
