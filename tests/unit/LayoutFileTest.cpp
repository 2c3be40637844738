//===- LayoutFileTest.cpp - reading layout files and strings --------------===//

#include "layouts/LayoutFile.h"
#include "layouts/Sharding.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace tessel::layout;
using Messages = std::vector<std::string>;

namespace {

/// Writes `text` to a file named `name` in the test's temporary directory and
/// returns its path, so that diagnostics carry a real file name.
std::string writeTempFile(const std::string &name, const std::string &text) {
  std::string path = ::testing::TempDir() + "/tessel_layout_" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return path;
}

/// Returns the diagnostics spelled as the tools print them.
Messages spelled(const std::vector<Diagnostic> &diagnostics) {
  Messages result;
  for (const Diagnostic &diagnostic : diagnostics)
    result.push_back(diagnostic.str());
  return result;
}

/// A layout read from a temporary file, with everything the reader said.
struct FileResult {
  std::string path;
  std::optional<LayoutSpec> spec;
  Messages messages;
};

FileResult parseFile(const std::string &name, const std::string &text) {
  FileResult result;
  result.path = writeTempFile(name, text);
  std::vector<Diagnostic> diagnostics;
  result.spec = parseLayoutFile(result.path, diagnostics);
  result.messages = spelled(diagnostics);
  return result;
}

LayoutSpec parseValid(const std::string &name, const std::string &text) {
  FileResult result = parseFile(name, text);
  EXPECT_TRUE(result.spec) << testing::PrintToString(result.messages);
  EXPECT_TRUE(result.messages.empty())
      << testing::PrintToString(result.messages);
  return result.spec.value_or(LayoutSpec());
}

LayoutSpec parseValidStrings(std::string_view mesh, std::string_view rules) {
  std::vector<Diagnostic> diagnostics;
  std::optional<LayoutSpec> spec = parseLayoutStrings(mesh, rules, diagnostics);
  EXPECT_TRUE(spec) << testing::PrintToString(spelled(diagnostics));
  return spec.value_or(LayoutSpec());
}

//===----------------------------------------------------------------------===//
// Layouts that are read
//===----------------------------------------------------------------------===//

TEST(LayoutFileTest, MapsAndStringsGiveTheSameLayout) {
  LayoutSpec fromMaps =
      parseValid("maps.yaml", "mesh: {data: 2, model: 4}\n"
                              "layout: {batch: data, hidden: model, "
                              "heads: model, d_ff: [data, model]}\n");
  LayoutSpec fromStrings = parseValidStrings(
      "data:2;model:4", "batch:data;hidden:model;heads:model;d_ff:data,model");
  LayoutSpec fromStringsInYaml =
      parseValid("strings.yaml", "mesh: \"data:2;model:4\"\n"
                                 "layout: \"batch:data;hidden:model;"
                                 "heads:model;d_ff:data,model\"\n");
  for (const LayoutSpec *spec : {&fromMaps, &fromStrings, &fromStringsInYaml}) {
    EXPECT_EQ(spec->mesh, Mesh({"data", "model"}, {2, 4}));
    EXPECT_EQ(formatMesh(spec->mesh), "data:2;model:4");
    EXPECT_EQ(formatRules(spec->rules),
              "batch:data;hidden:model;heads:model;d_ff:data,model");
    EXPECT_EQ(spec->axisLocations.size(), 2u);
    EXPECT_EQ(spec->axesFor("", "batch"), (AxisList{"data"}));
    EXPECT_EQ(spec->axesFor("", "heads"), (AxisList{"model"}));
    EXPECT_EQ(spec->axesFor("", "d_ff"), (AxisList{"data", "model"}));
    EXPECT_TRUE(spec->axesFor("", "seq").empty());
    EXPECT_TRUE(spec->overrides.empty());
  }
  EXPECT_EQ(fromStrings.source, "<command line>");
  EXPECT_EQ(fromStrings.rules[0].location.line, 0);
}

TEST(LayoutFileTest, PadUnevenIsReadAndAllowsSplitsThatDoNotDivide) {
  LayoutSpec padded = parseValid("padded.yaml", "mesh: {model: 3}\n"
                                                "layout: {hidden: model}\n"
                                                "pad_uneven: true\n");
  EXPECT_TRUE(padded.padUneven);
  EXPECT_FALSE(parseValid("plain.yaml", "mesh: {model: 3}\n"
                                        "layout: {hidden: model}\n")
                   .padUneven);
  TensorLayout hidden{{"hidden"}, {1024}, {{"model"}}};
  std::string error;
  EXPECT_FALSE(checkLayout(padded.mesh, hidden, error));
  EXPECT_TRUE(checkLayout(padded.mesh, hidden, error, /*padUneven=*/true));
  // Blocks of ceil(1024 / 3) = 342 starting at multiples of 342.
  EXPECT_EQ(localShape(padded.mesh, hidden), std::vector<int64_t>{342});
  EXPECT_EQ(shardOffset(padded.mesh, hidden, 2), std::vector<int64_t>{684});
  std::vector<Diagnostic> diagnostics;
  EXPECT_FALSE(parseLayoutText("mesh: {model: 3}\npad_uneven: maybe\n",
                               "bad.yaml", diagnostics));
  ASSERT_FALSE(diagnostics.empty());
  EXPECT_NE(diagnostics.front().message.find("'pad_uneven' must be true or "
                                             "false"),
            std::string::npos);
}

TEST(LayoutFileTest, PipelineSectionIsRead) {
  LayoutSpec spec = parseValid(
      "pipeline",
      "mesh: {data: 2, stage: 3}\n"
      "layout: {batch: data}\n"
      "pipeline:\n"
      "  axis: stage\n"
      "  microbatches: 8\n"
      "  schedule: gpipe\n"
      "  remat: true\n"
      "  batch_dim: examples\n"
      "  stages: [[block0], block1, [block2, block3]]\n");
  ASSERT_TRUE(spec.pipeline);
  EXPECT_EQ(spec.pipeline->axis, "stage");
  EXPECT_EQ(spec.pipeline->microbatches, 8);
  EXPECT_STREQ(spec.pipeline->scheduleName(), "gpipe");
  EXPECT_TRUE(spec.pipeline->remat);
  EXPECT_EQ(spec.pipeline->batchDim, "examples");
  std::vector<std::vector<std::string>> stages = {
      {"block0"}, {"block1"}, {"block2", "block3"}};
  EXPECT_EQ(spec.pipeline->stages, stages);

  LayoutSpec defaults =
      parseValid("pipeline_defaults",
                 "mesh: {stage: 2}\npipeline: {axis: stage}\n");
  ASSERT_TRUE(defaults.pipeline);
  EXPECT_EQ(defaults.pipeline->microbatches, 1);
  EXPECT_STREQ(defaults.pipeline->scheduleName(), "1f1b");
  EXPECT_FALSE(defaults.pipeline->remat);
  EXPECT_EQ(defaults.pipeline->batchDim, "batch");
  EXPECT_TRUE(defaults.pipeline->stages.empty());
  EXPECT_FALSE(parseValid("no_pipeline", "mesh: {data: 2}\n").pipeline);
}

TEST(LayoutFileTest, StringSyntaxAllowsWhitespaceAndEmptySegments) {
  LayoutSpec spec = parseValidStrings(" data : 2 ;; model:4 ; ",
                                      " batch : data , model ; ;hidden:;");
  EXPECT_EQ(formatMesh(spec.mesh), "data:2;model:4");
  EXPECT_EQ(spec.axesFor("", "batch"), (AxisList{"data", "model"}));
  // "hidden:" keeps the dimension whole, like [] in YAML.
  ASSERT_NE(spec.ruleFor("", "hidden"), nullptr);
  EXPECT_TRUE(spec.axesFor("", "hidden").empty());
  EXPECT_EQ(formatRules(spec.rules), "batch:data,model;hidden:");
}

TEST(LayoutFileTest, FormattedLayoutsReadBackTheSame) {
  LayoutSpec spec = parseValid("roundtrip.yaml",
                               "mesh: {pod: 2, data: 3, model: 4}\n"
                               "layout: {batch: [pod, data], hidden: model, "
                               "heads: [], d_ff: [model, pod]}\n");
  LayoutSpec reread =
      parseValidStrings(formatMesh(spec.mesh), formatRules(spec.rules));
  EXPECT_EQ(reread.mesh, spec.mesh);
  EXPECT_EQ(formatRules(reread.rules), formatRules(spec.rules));
  EXPECT_EQ(formatRules(spec.rules),
            "batch:pod,data;hidden:model;heads:;d_ff:model,pod");
}

TEST(LayoutFileTest, MultiAxisDimsKeepTheirAxisOrder) {
  LayoutSpec spec = parseValid("multi.yaml", "mesh: {data: 2, model: 4}\n"
                                             "layout:\n"
                                             "  d_ff: [data, model]\n"
                                             "  vocab: [model, data]\n"
                                             "  hidden: [model]\n");
  EXPECT_EQ(spec.axesFor("", "d_ff"), (AxisList{"data", "model"}));
  EXPECT_EQ(spec.axesFor("", "vocab"), (AxisList{"model", "data"}));
  EXPECT_EQ(spec.axesFor("", "hidden"), (AxisList{"model"}));
}

TEST(LayoutFileTest, OverridesWinOverRulesForTheirTensorOnly) {
  FileResult result =
      parseFile("overrides.yaml", "mesh: {data: 2, model: 2}\n"
                                  "layout: {batch: data, hidden: model}\n"
                                  "overrides:\n"
                                  "  logits: {vocab: model, hidden: []}\n"
                                  "  emb: {vocab: [model, data]}\n");
  ASSERT_TRUE(result.spec);
  const LayoutSpec &spec = *result.spec;
  EXPECT_EQ(spec.axesFor("logits", "vocab"), (AxisList{"model"}));
  EXPECT_TRUE(spec.axesFor("logits", "hidden").empty());
  EXPECT_EQ(spec.axesFor("logits", "batch"), (AxisList{"data"}));
  EXPECT_EQ(spec.axesFor("emb", "vocab"), (AxisList{"model", "data"}));
  EXPECT_EQ(spec.axesFor("h", "hidden"), (AxisList{"model"}));
  EXPECT_TRUE(spec.axesFor("h", "vocab").empty());
  // An unnamed value only ever sees the general rules.
  EXPECT_EQ(spec.axesFor("", "hidden"), (AxisList{"model"}));
  EXPECT_TRUE(spec.axesFor("", "vocab").empty());

  // ruleFor points at the entry that decided, for error notes.
  const DimRule *overridden = spec.ruleFor("logits", "hidden");
  ASSERT_NE(overridden, nullptr);
  EXPECT_EQ(overridden->location.file, result.path);
  EXPECT_EQ(overridden->location.line, 4);
  EXPECT_EQ(overridden->location.column, 26);
  const DimRule *general = spec.ruleFor("logits", "batch");
  ASSERT_NE(general, nullptr);
  EXPECT_EQ(general->location.line, 2);
  EXPECT_EQ(general->location.column, 10);
  EXPECT_EQ(spec.ruleFor("logits", "seq"), nullptr);

  ASSERT_EQ(spec.overrides.size(), 2u);
  EXPECT_EQ(spec.overrides[0].tensor, "logits");
  EXPECT_EQ(spec.overrides[0].location.line, 4);
  EXPECT_EQ(spec.overrides[1].tensor, "emb");
  EXPECT_EQ(spec.overrides[1].location.line, 5);
}

TEST(LayoutFileTest, LocationsPointAtTheDeclarations) {
  FileResult result = parseFile("locations.yaml", "mesh:\n"
                                                  "  data: 2\n"
                                                  "  model: 4\n"
                                                  "layout:\n"
                                                  "  batch: data\n"
                                                  "  hidden: model\n");
  ASSERT_TRUE(result.spec);
  EXPECT_EQ(result.spec->source, result.path);
  ASSERT_EQ(result.spec->axisLocations.size(), 2u);
  EXPECT_EQ(result.spec->axisLocations[0].line, 2);
  EXPECT_EQ(result.spec->axisLocations[1].line, 3);
  EXPECT_EQ(result.spec->axisLocations[1].column, 3);
  ASSERT_EQ(result.spec->rules.size(), 2u);
  EXPECT_EQ(result.spec->rules[0].dim, "batch");
  EXPECT_EQ(result.spec->rules[0].location.line, 5);
  EXPECT_EQ(result.spec->rules[1].dim, "hidden");
  EXPECT_EQ(result.spec->rules[1].location.line, 6);
}

TEST(LayoutFileTest, EmptyLayoutAndOverridesReplicateEverything) {
  LayoutSpec spec =
      parseValid("empty_rules.yaml", "mesh: {data: 8}\nlayout:\noverrides:\n");
  EXPECT_TRUE(spec.rules.empty());
  EXPECT_TRUE(spec.overrides.empty());
  EXPECT_EQ(spec.mesh.numRanks(), 8);
  EXPECT_TRUE(parseValid("no_rules.yaml", "mesh: {data: 8}\n").rules.empty());
}

TEST(LayoutFileTest, DiagnosticsSpellTheirLocationWhenKnown) {
  Diagnostic located{Diagnostic::Error, {"a.yaml", 3, 7}, "bad"};
  EXPECT_EQ(located.str(), "a.yaml:3:7: error: bad");
  Diagnostic unlocated{Diagnostic::Warning, {"<command line>", 0, 0}, "odd"};
  EXPECT_EQ(unlocated.str(), "<command line>: warning: odd");
}

//===----------------------------------------------------------------------===//
// Mistakes in files
//===----------------------------------------------------------------------===//

/// A layout file with mistakes, and every diagnostic it must produce, each
/// spelled after the file path (as "line:col: error: message").
struct BadFile {
  const char *name;
  const char *text;
  Messages expected;
};

class LayoutFileErrorTest : public ::testing::TestWithParam<BadFile> {};

TEST_P(LayoutFileErrorTest, NamesFileLineColumnAndName) {
  const BadFile &bad = GetParam();
  FileResult result = parseFile(bad.name, bad.text);
  EXPECT_FALSE(result.spec);
  Messages expected;
  for (const std::string &message : bad.expected)
    expected.push_back(result.path + ":" + message);
  EXPECT_EQ(result.messages, expected) << bad.text;
}

const BadFile kBadFiles[] = {
    // The mesh.
    {"zero_size",
     "mesh: {data: 0, model: 4}\n",
     {"1:14: error: mesh axis 'data' has size 0; sizes must be >= 1"}},
    {"negative_sizes",
     "mesh: {data: 0, model: -2}\n",
     {"1:14: error: mesh axis 'data' has size 0; sizes must be >= 1",
      "1:24: error: mesh axis 'model' has size -2; sizes must be >= 1"}},
    {"fraction",
     "mesh: {data: 2.5}\n",
     {"1:14: error: mesh axis 'data' has size '2.5'; sizes must be "
      "integers"}},
    {"word",
     "mesh:\n  data: two\n",
     {"2:9: error: mesh axis 'data' has size 'two'; sizes must be integers"}},
    {"no_size",
     "mesh:\n  data:\n",
     {"2:3: error: mesh axis 'data' has no size"}},
    {"list_size",
     "mesh: {data: [2]}\n",
     {"1:14: error: mesh axis 'data' has a list or map as its size; sizes "
      "must be integers"}},
    {"huge_axis",
     "mesh: {data: 99999999999999999999}\n",
     {"1:14: error: mesh axis 'data' has size 99999999999999999999; a mesh "
      "may have at most 2147483648 ranks"}},
    {"huge_mesh",
     "mesh: {a: 65536, b: 65536}\n",
     {"1:7: error: the mesh a:65536;b:65536 has more than 2147483648 "
      "ranks"}},
    {"no_axes", "mesh: {}\n", {"1:7: error: the mesh has no axes"}},
    {"no_axes_string", "mesh: ''\n", {"1:7: error: the mesh has no axes"}},
    {"mesh_list",
     "mesh: [data, model]\n",
     {"1:7: error: 'mesh' must map axis names to sizes, e.g. {data: 2, "
      "model: 4}"}},
    {"no_mesh",
     "layout: {batch: data}\n",
     {"1:1: error: the layout file has no 'mesh'"}},
    // The top level.
    {"not_a_map",
     "- mesh\n- layout\n",
     {"1:1: error: a layout file must be a map with 'mesh' and 'layout'"}},
    {"unknown_key",
     "mesh: {data: 2}\nlayuot: {batch: data}\n",
     {"2:1: error: unknown key 'layuot' (expected mesh, layout, overrides, "
      "pad_uneven or pipeline)"}},
    // The pipeline section.
    {"pipeline_not_a_map",
     "mesh: {stage: 2}\npipeline: stage\n",
     {"2:11: error: 'pipeline' must be a map, e.g. {axis: stage, "
      "microbatches: 4, schedule: 1f1b}"}},
    {"pipeline_no_axis",
     "mesh: {stage: 2}\npipeline: {microbatches: 2}\n",
     {"2:11: error: 'pipeline' has no 'axis' (the mesh axis of the stages)"}},
    {"pipeline_unknown_axis",
     "mesh: {data: 2}\npipeline: {axis: stage}\n",
     {"2:11: error: the pipeline axis 'stage' is not an axis of the mesh "
      "data:2"}},
    {"pipeline_bad_values",
     "mesh: {stage: 2}\npipeline: {axis: stage, microbatches: 0, schedule: "
     "zigzag, remat: yes, colour: red}\n",
     {"2:39: error: pipeline 'microbatches' is 0; it must be an integer "
      "from 1 to 2147483648",
      "2:52: error: unknown pipeline schedule 'zigzag' (expected gpipe or "
      "1f1b)",
      "2:67: error: pipeline 'remat' must be true or false",
      "2:72: error: unknown key 'colour' in 'pipeline' (expected axis, "
      "microbatches, schedule, remat, stages or batch_dim)"}},
    {"pipeline_stage_count",
     "mesh: {stage: 2}\npipeline: {axis: stage, stages: [[a], [b], [c]]}\n",
     {"2:11: error: pipeline 'stages' lists 3 stages, but the axis 'stage' "
      "has 2"}},
    {"pipeline_layer_twice",
     "mesh: {stage: 2}\npipeline: {axis: stage, stages: [[a, b], [b]]}\n",
     {"2:42: error: layer 'b' is listed in two pipeline stages"}},
    {"pipeline_axis_splits_a_dim",
     "mesh: {stage: 2}\nlayout: {batch: stage}\npipeline: {axis: stage}\n",
     {"2:10: error: dimension 'batch' is split over the pipeline axis "
      "'stage', whose ranks hold different layers, not blocks of one "
      "tensor"}},
    {"two_documents",
     "mesh: {data: 2}\n---\nmesh: {data: 4}\n",
     {"3:1: error: a layout file holds one YAML document, not 2"}},
    // Keys given twice, wherever they are.
    {"duplicate_top",
     "mesh: {data: 2}\nlayout: {}\nmesh: {data: 4}\n",
     {"3:1: error: duplicate key 'mesh' in the layout file"}},
    {"duplicate_rule",
     "mesh: {data: 2}\nlayout:\n  batch: data\n  hidden: []\n  batch: data\n",
     {"5:3: error: duplicate key 'batch' in the rules"}},
    {"duplicate_axis",
     "mesh: {data: 2, data: 2}\n",
     {"1:17: error: duplicate key 'data' in mesh"}},
    {"duplicate_override",
     "mesh: {data: 2}\noverrides:\n  w: {k: data}\n  w: {k: data}\n",
     {"4:3: error: duplicate key 'w' in overrides"}},
    {"duplicate_override_rule",
     "mesh: {data: 2}\noverrides:\n  w: {k: data, k: []}\n",
     {"3:16: error: duplicate key 'k' in the rules of tensor 'w'"}},
    // Rules and overrides.
    {"unknown_axis",
     "mesh: {data: 2, model: 4}\nlayout:\n  batch: pipe\n",
     {"3:3: error: dimension 'batch' is split over 'pipe', which is not an "
      "axis of the mesh data:2;model:4"}},
    {"unknown_override_axis",
     "mesh: {data: 2}\noverrides:\n  w: {k: [data, pipe]}\n",
     {"3:7: error: dimension 'k' of tensor 'w' is split over 'pipe', which "
      "is not an axis of the mesh data:2"}},
    {"axis_twice",
     "mesh: {data: 2}\nlayout:\n  batch: [data, data]\n",
     {"3:3: error: dimension 'batch' uses mesh axis 'data' twice"}},
    {"rule_map",
     "mesh: {data: 2}\nlayout: {batch: {a: b}}\n",
     {"2:17: error: dimension 'batch' must map to a mesh axis or a list of "
      "them"}},
    {"layout_list",
     "mesh: {data: 2}\nlayout: [batch, data]\n",
     {"2:9: error: rules must map dimension names to mesh axes, e.g. "
      "{batch: data}"}},
    {"overrides_list",
     "mesh: {data: 2}\noverrides: [w]\n",
     {"2:12: error: 'overrides' must map tensor names to rules, e.g. "
      "{logits: {vocab: model}}"}},
    {"mesh_string",
     "mesh: \"data:2;model\"\n",
     {"1:7: error: malformed mesh axis 'model' (expected name:size)"}},
    {"rules_string",
     "mesh: data:2\nlayout: \"batch:data;hidden\"\n",
     {"2:9: error: malformed rule 'hidden' (expected dim:axis or "
      "dim:axis,axis)"}},
    // Several mistakes are reported together, top-level keys first.
    {"several",
     "mesh: {data: 2}\nlayout: {batch: pipe}\nextra: 1\n"
     "overrides: {w: {k: [data, data]}}\n",
     {"3:1: error: unknown key 'extra' (expected mesh, layout, overrides, "
      "pad_uneven or pipeline)",
      "2:10: error: dimension 'batch' is split over 'pipe', which is not an "
      "axis of the mesh data:2",
      "4:17: error: dimension 'k' of tensor 'w' uses mesh axis 'data' "
      "twice"}},
    // A broken mesh does not also make every rule name an unknown axis.
    {"broken_mesh_and_rules",
     "mesh: {data: 0}\nlayout:\n  batch: data\n  batch: data\n",
     {"1:14: error: mesh axis 'data' has size 0; sizes must be >= 1",
      "4:3: error: duplicate key 'batch' in the rules"}},
};

INSTANTIATE_TEST_SUITE_P(AllMistakes, LayoutFileErrorTest,
                         ::testing::ValuesIn(kBadFiles),
                         [](const ::testing::TestParamInfo<BadFile> &info) {
                           return std::string(info.param.name);
                         });

TEST(LayoutFileTest, MalformedYamlIsAnErrorNotAnException) {
  FileResult result =
      parseFile("malformed.yaml", "mesh: {data: 2\nlayout: [\n");
  EXPECT_FALSE(result.spec);
  EXPECT_EQ(result.messages,
            Messages{result.path + ":2:7: error: malformed YAML: end of map "
                                   "flow not found"});
}

TEST(LayoutFileTest, TabsAreMalformedYaml) {
  FileResult result = parseFile("tabs.yaml", "mesh:\n\tdata: 2\n");
  EXPECT_FALSE(result.spec);
  ASSERT_EQ(result.messages.size(), 1u);
  EXPECT_EQ(result.messages[0].rfind(result.path + ":2:", 0), 0u)
      << result.messages[0];
  EXPECT_NE(result.messages[0].find("error: malformed YAML: "),
            std::string::npos);
}

// Found by tests/fuzz/LayoutFileFuzzer: yaml-cpp 0.7's LoadAll never
// returned on a stream that starts with ',' (it made empty documents without
// end until memory ran out). The reader stops where the parser stalls.
TEST(LayoutFileTest, StrayCommasAreMalformedYamlNotAHang) {
  struct Case {
    const char *text;
    const char *expected;
  };
  const Case cases[] = {
      {",", "1:1: error: malformed YAML: unexpected ','"},
      {" , ]", "1:2: error: malformed YAML: unexpected ','"},
      // The fuzzer's input, as it found it.
      {", model: -2}\nlayout: {bat*attttttttttttttttttttttttttttttttttttt: "
       "datc}\n",
       "1:1: error: malformed YAML: unexpected ','"},
      // A stall after a good document is caught too.
      {"mesh: {data: 2}\n---\n,\n", "3:1: error: malformed YAML: "
                                    "unexpected ','"},
  };
  for (const Case &c : cases) {
    FileResult result = parseFile("stray_comma.yaml", c.text);
    EXPECT_FALSE(result.spec) << c.text;
    EXPECT_EQ(result.messages, Messages{result.path + ":" + c.expected})
        << c.text;
  }
}

TEST(LayoutFileTest, EmptyFilesNeedAMesh) {
  for (const char *text : {"", "# only a comment\n"}) {
    FileResult result = parseFile("empty.yaml", text);
    EXPECT_FALSE(result.spec);
    EXPECT_EQ(result.messages,
              Messages{result.path +
                       ": error: the layout file is empty; it needs a 'mesh'"});
  }
}

TEST(LayoutFileTest, MissingAndUnreadableFilesAreReported) {
  std::vector<Diagnostic> diagnostics;
  std::string absent = ::testing::TempDir() + "/tessel_layout_absent.yaml";
  EXPECT_FALSE(parseLayoutFile(absent, diagnostics));
  EXPECT_EQ(spelled(diagnostics),
            Messages{absent + ": error: cannot open layout file: No such file "
                              "or directory"});

  diagnostics.clear();
  std::string directory = ::testing::TempDir();
  EXPECT_FALSE(parseLayoutFile(directory, diagnostics));
  EXPECT_EQ(
      spelled(diagnostics),
      Messages{directory + ": error: cannot read layout file: Is a directory"});
}

TEST(LayoutFileTest, TextIsNamedByItsSourceName) {
  std::vector<Diagnostic> diagnostics;
  EXPECT_FALSE(
      parseLayoutText("mesh: {data: 0}\n", "inline.yaml", diagnostics));
  EXPECT_EQ(spelled(diagnostics),
            Messages{"inline.yaml:1:14: error: mesh axis 'data' has size 0; "
                     "sizes must be >= 1"});
}

//===----------------------------------------------------------------------===//
// Mistakes in Mesh-TensorFlow strings
//===----------------------------------------------------------------------===//

Messages stringErrors(std::string_view mesh, std::string_view rules) {
  std::vector<Diagnostic> diagnostics;
  EXPECT_FALSE(parseLayoutStrings(mesh, rules, diagnostics));
  return spelled(diagnostics);
}

TEST(LayoutFileTest, MalformedMeshStringsNameTheSegment) {
  EXPECT_EQ(stringErrors("data:2;model", ""),
            Messages{"<command line>: error: malformed mesh axis 'model' "
                     "(expected name:size)"});
  EXPECT_EQ(stringErrors("data:two;:4", ""),
            (Messages{"<command line>: error: malformed mesh axis 'data:two' "
                      "(expected name:size)",
                      "<command line>: error: malformed mesh axis ':4' "
                      "(expected name:size)"}));
  EXPECT_EQ(stringErrors("data:2:3", ""),
            Messages{"<command line>: error: malformed mesh axis 'data:2:3' "
                     "(expected name:size)"});
  EXPECT_EQ(stringErrors("data:0", ""),
            Messages{"<command line>: error: mesh axis 'data' has size 0; "
                     "sizes must be >= 1"});
  EXPECT_EQ(stringErrors("data:2;data:4", ""),
            Messages{"<command line>: error: mesh axis 'data' is listed more "
                     "than once"});
  EXPECT_EQ(stringErrors(" ; ", ""),
            Messages{"<command line>: error: the mesh has no axes"});
}

TEST(LayoutFileTest, MalformedRuleStringsNameTheSegment) {
  EXPECT_EQ(stringErrors("data:2", "batch"),
            Messages{"<command line>: error: malformed rule 'batch' (expected "
                     "dim:axis or dim:axis,axis)"});
  EXPECT_EQ(stringErrors("data:2;model:2", "batch:data,,model"),
            Messages{"<command line>: error: malformed rule "
                     "'batch:data,,model' (expected dim:axis or "
                     "dim:axis,axis)"});
  EXPECT_EQ(stringErrors("data:2", "batch:data:model;:data"),
            (Messages{"<command line>: error: malformed rule "
                      "'batch:data:model' (expected dim:axis or "
                      "dim:axis,axis)",
                      "<command line>: error: malformed rule ':data' "
                      "(expected dim:axis or dim:axis,axis)"}));
}

TEST(LayoutFileTest, RuleStringsAreCheckedAgainstTheMesh) {
  EXPECT_EQ(stringErrors("data:2", "batch:pipe"),
            Messages{"<command line>: error: dimension 'batch' is split over "
                     "'pipe', which is not an axis of the mesh data:2"});
  EXPECT_EQ(stringErrors("data:2", "batch:data,data"),
            Messages{"<command line>: error: dimension 'batch' uses mesh "
                     "axis 'data' twice"});
  EXPECT_EQ(stringErrors("data:2;model:4", "batch:data;batch:model"),
            Messages{"<command line>: error: dimension 'batch' has two "
                     "rules"});
  // A bad mesh and a bad rule are both reported.
  EXPECT_EQ(stringErrors("data:2;oops", "hidden"),
            (Messages{"<command line>: error: malformed mesh axis 'oops' "
                      "(expected name:size)",
                      "<command line>: error: malformed rule 'hidden' "
                      "(expected dim:axis or dim:axis,axis)"}));
}

} // namespace
