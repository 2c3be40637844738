//===- LayoutFileTest.cpp - reading layout files and strings --------------===//

#include "layouts/LayoutFile.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace tessel::layout;

namespace {

std::optional<LayoutSpec> parse(const std::string &text,
                                std::vector<Diagnostic> &diagnostics) {
  return parseLayoutText(text, "layout.yaml", diagnostics);
}

/// Returns the diagnostics spelled as the tools print them.
std::vector<std::string> spelled(const std::vector<Diagnostic> &diagnostics) {
  std::vector<std::string> result;
  for (const Diagnostic &diagnostic : diagnostics)
    result.push_back(diagnostic.str());
  return result;
}

TEST(LayoutFileTest, MapsAndStringsGiveTheSameLayout) {
  std::vector<Diagnostic> diagnostics;
  std::optional<LayoutSpec> fromMaps =
      parse("mesh: {data: 2, model: 4}\n"
            "layout: {batch: data, hidden: model, d_ff: [data, model]}\n",
            diagnostics);
  std::optional<LayoutSpec> fromStrings = parseLayoutStrings(
      "data:2; model:4", "batch:data;hidden:model;d_ff:data,model;",
      diagnostics);
  ASSERT_TRUE(fromMaps && fromStrings) << spelled(diagnostics).front();
  EXPECT_EQ(fromMaps->mesh, fromStrings->mesh);
  EXPECT_EQ(formatMesh(fromMaps->mesh), "data:2;model:4");
  EXPECT_EQ(formatRules(fromMaps->rules), formatRules(fromStrings->rules));
  EXPECT_EQ(formatRules(fromMaps->rules),
            "batch:data;hidden:model;d_ff:data,model");
  EXPECT_EQ(fromMaps->axesFor("", "d_ff"), (AxisList{"data", "model"}));
  EXPECT_TRUE(fromMaps->axesFor("", "seq").empty());
}

TEST(LayoutFileTest, OverridesWinOverRulesForTheirTensorOnly) {
  std::vector<Diagnostic> diagnostics;
  std::optional<LayoutSpec> spec =
      parse("mesh: {data: 2, model: 2}\n"
            "layout: {batch: data, hidden: model}\n"
            "overrides:\n"
            "  logits: {vocab: model, hidden: []}\n",
            diagnostics);
  ASSERT_TRUE(spec);
  EXPECT_EQ(spec->axesFor("logits", "vocab"), (AxisList{"model"}));
  EXPECT_TRUE(spec->axesFor("logits", "hidden").empty());
  EXPECT_EQ(spec->axesFor("logits", "batch"), (AxisList{"data"}));
  EXPECT_EQ(spec->axesFor("h", "hidden"), (AxisList{"model"}));
  EXPECT_TRUE(spec->axesFor("h", "vocab").empty());
  const DimRule *rule = spec->ruleFor("logits", "vocab");
  ASSERT_TRUE(rule);
  EXPECT_EQ(rule->location.line, 4);
}

TEST(LayoutFileTest, ErrorsNameFileLineAndName) {
  struct Case {
    const char *text;
    const char *message;
  } cases[] = {
      {"mesh: {data: 0}\n",
       "layout.yaml:1:14: error: mesh axis 'data' has size 0; sizes must be "
       ">= 1"},
      {"mesh: {data: x}\n",
       "layout.yaml:1:14: error: mesh axis 'data' has size 'x'; sizes must be "
       "integers"},
      {"mesh: {}\n", "layout.yaml:1:7: error: the mesh has no axes"},
      {"layout: {batch: data}\n",
       "layout.yaml:1:1: error: the layout file has no 'mesh'"},
      {"- 1\n", "layout.yaml:1:1: error: a layout file must be a map with "
                "'mesh' and 'layout'"},
      {"mesh: {data: 2}\nlayout: {batch: pipe}\n",
       "layout.yaml:2:10: error: dimension 'batch' is split over 'pipe', which "
       "is not an axis of the mesh data:2"},
      {"mesh: {data: 2}\nlayout: {batch: [data, data]}\n",
       "layout.yaml:2:10: error: dimension 'batch' uses mesh axis 'data' "
       "twice"},
      {"mesh: {data: 2}\nlayout:\n  batch: data\n  batch: data\n",
       "layout.yaml:4:3: error: duplicate key 'batch' in the rules"},
      {"mesh: {data: 2}\nmesh: {data: 2}\n",
       "layout.yaml:2:1: error: duplicate key 'mesh' in the layout file"},
      {"mesh: {data: 2}\noverrides:\n  w: {k: data}\n  w: {k: data}\n",
       "layout.yaml:4:3: error: duplicate key 'w' in overrides"},
      {"mesh: {data: 2}\noverrides:\n  w: {k: pipe}\n",
       "layout.yaml:3:7: error: dimension 'k' of tensor 'w' is split over "
       "'pipe', which is not an axis of the mesh data:2"},
      {"mesh: {data: 2}\nlayuot: {}\n",
       "layout.yaml:2:1: error: unknown key 'layuot' (expected mesh, layout "
       "or overrides)"},
      {"mesh: \"data:2;model\"\n",
       "layout.yaml:1:7: error: malformed mesh axis 'model' (expected "
       "name:size)"},
  };
  for (const Case &c : cases) {
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(parse(c.text, diagnostics)) << c.text;
    ASSERT_FALSE(diagnostics.empty()) << c.text;
    EXPECT_EQ(diagnostics.front().str(), c.message) << c.text;
  }
}

TEST(LayoutFileTest, MalformedYamlIsAnErrorNotAnException) {
  std::vector<Diagnostic> diagnostics;
  EXPECT_FALSE(parse("mesh: {data: 2\nlayout: [\n", diagnostics));
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics[0].str().find("layout.yaml:"), std::string::npos);
  EXPECT_NE(diagnostics[0].message.find("malformed YAML"), std::string::npos);
}

TEST(LayoutFileTest, FilesAreReadAndMissingOnesReported) {
  std::string path = ::testing::TempDir() + "/tessel_layout_test.yaml";
  {
    std::ofstream out(path);
    out << "mesh: {data: 4}\nlayout:\n  batch: data\n";
  }
  std::vector<Diagnostic> diagnostics;
  std::optional<LayoutSpec> spec = parseLayoutFile(path, diagnostics);
  ASSERT_TRUE(spec);
  EXPECT_EQ(spec->source, path);
  EXPECT_EQ(spec->rules.at(0).location.line, 3);
  EXPECT_EQ(spec->mesh.numRanks(), 4);

  EXPECT_FALSE(parseLayoutFile(path + ".absent", diagnostics));
  EXPECT_EQ(diagnostics.back().str(),
            path + ".absent: error: cannot open layout file");
}

TEST(LayoutFileTest, MalformedStringsNameTheSegment) {
  std::vector<Diagnostic> diagnostics;
  EXPECT_FALSE(parseLayoutStrings("data:2", "batch", diagnostics));
  EXPECT_EQ(diagnostics.back().str(),
            "<command line>: error: malformed rule 'batch' (expected "
            "dim:axis or dim:axis,axis)");
  EXPECT_FALSE(parseLayoutStrings("data:two", "", diagnostics));
  EXPECT_EQ(diagnostics.back().str(),
            "<command line>: error: malformed mesh axis 'data:two' (expected "
            "name:size)");
}

} // namespace
