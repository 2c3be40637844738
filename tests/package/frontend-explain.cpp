//===- frontend-explain.cpp - a model built with an installed front end ---===//
//
// A C++ program of a tessel user's: builds a small MLP with the installed
// front end (Tessel::TesselFrontend) and prints what `tessel explain` says a
// data-parallel layout costs, through the installed tessel that the front
// end finds beside itself (<prefix>/bin).
//
//===----------------------------------------------------------------------===//

#include "tessel/frontend/Layers.h"
#include "tessel/frontend/Toolchain.h"

#include <iostream>

int main() {
  try {
    tessel::Model model;
    tessel::Dim batch("batch", 8), pixels("pixels", 16), hidden("hidden", 32),
        classes("classes", 4);
    model.define("forward",
                 {tessel::Input("images", {batch, pixels}),
                  tessel::Input("labels", {batch}, tessel::DType::I32)},
                 [&](const std::vector<tessel::Tensor> &in)
                     -> std::vector<tessel::Output> {
                   tessel::Tensor h = tessel::relu(
                       tessel::Linear("fc1", {hidden}, {"pixels"})(in[0]));
                   tessel::Tensor logits =
                       tessel::Linear("fc2", {classes}, {"hidden"})(h);
                   return {tessel::reduceMean(
                       tessel::crossEntropy(logits, in[1], "classes"))};
                 });
    std::cout << "tool: " << tessel::toolPath() << "\n"
              << tessel::explain(
                     model, tessel::Layout::fromMesh("data:2", "batch:data"));
  } catch (const std::exception &error) {
    std::cerr << "frontend-explain: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
