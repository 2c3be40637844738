//===- DialectTest.cpp - the dialect's type and attribute helpers ---------===//

#include "dialect/MeshConversion.h"
#include "dialect/TesselDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tessel;

namespace {

class DialectTest : public ::testing::Test {
protected:
  DialectTest() { context.loadDialect<TesselDialect, func::FuncDialect>(); }

  NamedTensorType parseTensor(StringRef text) {
    return dyn_cast_or_null<NamedTensorType>(parseType(text, &context));
  }

  MLIRContext context;
};

TEST_F(DialectTest, TensorTypeLooksUpDimensionsByName) {
  NamedTensorType type =
      parseTensor("!tessel.tensor<[batch:64, hidden:1024], bf16>");
  ASSERT_TRUE(type);
  EXPECT_EQ(type.getRank(), 2u);
  EXPECT_EQ(type.getNumElements(), 64 * 1024);
  EXPECT_EQ(type.getDimIndex("hidden"), 1u);
  EXPECT_EQ(type.getDimSize("batch"), 64);
  EXPECT_FALSE(type.getDimSize("heads").has_value());
  EXPECT_TRUE(type.hasDim("batch"));
  EXPECT_TRUE(type.getElementType().isBF16());
}

TEST_F(DialectTest, ScalarTensorHasOneElement) {
  NamedTensorType type = parseTensor("!tessel.tensor<[], f32>");
  ASSERT_TRUE(type);
  EXPECT_EQ(type.getRank(), 0u);
  EXPECT_EQ(type.getNumElements(), 1);
}

TEST_F(DialectTest, LayoutIsPartOfTheTypeButNotOfItsShape) {
  NamedTensorType plain = parseTensor("!tessel.tensor<[batch:8, k:4], f32>");
  NamedTensorType split = parseTensor(
      "!tessel.tensor<[batch:8, k:4], f32, #tessel.layout<{batch = data}>>");
  ASSERT_TRUE(plain && split);
  EXPECT_NE(plain, split);
  EXPECT_TRUE(plain.hasSameShapeAs(split));
  EXPECT_EQ(plain.withLayout(split.getLayout()), split);
  EXPECT_EQ(split.withLayout(LayoutAttr()), plain);
  EXPECT_FALSE(
      plain.hasSameShapeAs(plain.withElementType(Float16Type::get(&context))));
}

TEST_F(DialectTest, TypeRoundTripsThroughText) {
  const char *text = "!tessel.tensor<[batch:8, hidden:4], f32, "
                     "#tessel.layout<{batch = [data, replica]}>>";
  NamedTensorType type = parseTensor(text);
  ASSERT_TRUE(type);
  std::string printed;
  llvm::raw_string_ostream os(printed);
  os << type;
  EXPECT_EQ(printed, text);
}

TEST_F(DialectTest, MeshAttrAnswersSizesAndGroups) {
  auto mesh = dyn_cast_or_null<MeshAttr>(
      parseAttribute("#tessel.mesh<[data:2, model:4]>", &context));
  ASSERT_TRUE(mesh);
  EXPECT_EQ(mesh.getNumRanks(), 8);
  EXPECT_EQ(mesh.getAxisSize("model"), 4);
  EXPECT_FALSE(mesh.getAxisSize("pipe").has_value());
  Builder builder(&context);
  EXPECT_EQ(mesh.getGroupSize({builder.getStringAttr("data"),
                               builder.getStringAttr("model")}),
            8);
  EXPECT_FALSE(mesh.getGroupSize({builder.getStringAttr("pipe")}).has_value());
}

TEST_F(DialectTest, MeshConvertsToLayoutMathsAndBack) {
  auto mesh = dyn_cast_or_null<MeshAttr>(
      parseAttribute("#tessel.mesh<[data:2, model:4]>", &context));
  ASSERT_TRUE(mesh);
  ::tessel::layout::Mesh maths = toLayoutMesh(mesh);
  EXPECT_EQ(maths.numRanks(), 8);
  EXPECT_EQ(maths.coordinatesOf(5), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(toMeshAttr(&context, maths), mesh);
  EXPECT_EQ(toLayoutMesh(MeshAttr()).numRanks(), 1);
}

TEST_F(DialectTest, LayoutAttrListsAxesPerDimension) {
  auto layout = dyn_cast_or_null<LayoutAttr>(parseAttribute(
      "#tessel.layout<{batch = [data, replica], hidden = model}>", &context));
  ASSERT_TRUE(layout);
  SmallVector<StringAttr> batchAxes = layout.getAxesOf("batch");
  ASSERT_EQ(batchAxes.size(), 2u);
  EXPECT_EQ(batchAxes[0].getValue(), "data");
  EXPECT_EQ(batchAxes[1].getValue(), "replica");
  EXPECT_EQ(layout.getAxesOf("hidden").size(), 1u);
  EXPECT_TRUE(layout.getAxesOf("seq").empty());
}

TEST_F(DialectTest, InvalidTypesAndAttributesAreRejected) {
  // Diagnostics are expected here; keep them out of the test output.
  ScopedDiagnosticHandler silence(&context,
                                  [](Diagnostic &) { return success(); });
  EXPECT_FALSE(parseTensor("!tessel.tensor<[a:2, a:3], f32>"));
  EXPECT_FALSE(parseTensor("!tessel.tensor<[a:0], f32>"));
  EXPECT_FALSE(parseTensor("!tessel.tensor<[a:2], i8>"));
  EXPECT_FALSE(
      parseTensor("!tessel.tensor<[a:2], f32, #tessel.layout<{b = data}>>"));
  EXPECT_FALSE(parseAttribute("#tessel.mesh<[x:2, x:2]>", &context));
  EXPECT_FALSE(parseAttribute("#tessel.mesh<[x:-1]>", &context));
  EXPECT_FALSE(parseAttribute("#tessel.layout<{a = x, b = [y, x]}>", &context));
}

TEST_F(DialectTest, TensorNamesComeFromAttributesAndParameters) {
  const char *source = R"mlir(
    func.func @f(%x: !tessel.tensor<[k:2], f32> {tessel.name = "images"},
                 %y: !tessel.tensor<[k:2], f32>) -> !tessel.tensor<[k:2], f32> {
      %w = tessel.parameter "w" ones scale 1.0 seed 0 : !tessel.tensor<[k:2], f32>
      %s = tessel.add %x, %w {tessel.name = "sum"}
          : !tessel.tensor<[k:2], f32>, !tessel.tensor<[k:2], f32> -> !tessel.tensor<[k:2], f32>
      %t = tessel.add %s, %y
          : !tessel.tensor<[k:2], f32>, !tessel.tensor<[k:2], f32> -> !tessel.tensor<[k:2], f32>
      return %t : !tessel.tensor<[k:2], f32>
    })mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(module);
  auto func = *module->getOps<func::FuncOp>().begin();
  EXPECT_EQ(getTensorName(func.getArgument(0)), "images");
  EXPECT_EQ(getTensorName(func.getArgument(1)), "");
  std::vector<std::string> names;
  for (Operation &op : func.getBody().front().without_terminator())
    names.push_back(getTensorName(op.getResult(0)).str());
  EXPECT_EQ(names, (std::vector<std::string>{"w", "sum", ""}));
}

} // namespace
