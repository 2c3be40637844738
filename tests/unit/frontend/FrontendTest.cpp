//===- FrontendTest.cpp - the C++ front end -------------------------------===//
//
// Result dimensions inferred by name, mistakes reported at the call with the
// dimension named, layers traced once and reused, and the module the front
// end writes going through tessel-inline-layers with the parameter names
// and seeds a user expects.
//
//===----------------------------------------------------------------------===//

#include "tessel/frontend/Layers.h"

#include "frontend/ModelState.h"
#include "passes/Passes.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace tessel;

namespace {

Dim batch("batch", 8), pixels("pixels", 12), hidden("hidden", 6),
    classes("classes", 3);

/// Runs `body` inside a function over images [batch, pixels] and
/// labels [batch]; returns the error message it throws, or "".
std::string errorOf(const std::function<void(Model &, Tensor, Tensor)> &body) {
  Model model;
  try {
    model.define("forward",
                 {Input("images", {batch, pixels}),
                  Input("labels", {batch}, DType::I32)},
                 [&](const std::vector<Tensor> &in) -> std::vector<Output> {
                   body(model, in[0], in[1]);
                   return {reduceMean(in[0])};
                 });
  } catch (const Error &error) {
    return error.what();
  }
  return "";
}

/// The MLP of the quick start, written with the front end.
void defineMlp(Model &model) {
  model.define("forward",
               {Input("images", {batch, pixels}),
                Input("labels", {batch}, DType::I32)},
               [&](const std::vector<Tensor> &in) -> std::vector<Output> {
                 Tensor h = relu(Linear("fc1", {hidden}, {"pixels"})(in[0]));
                 Tensor logits = Linear("fc2", {classes}, {"hidden"})(h);
                 return {reduceMean(crossEntropy(logits, in[1], "classes"))};
               });
}

/// The parameters of `forward` after tessel-inline-layers: name -> seed.
std::map<std::string, int64_t> inlinedParameters(const Model &model) {
  mlir::MLIRContext context;
  context.loadDialect<mlir::tessel::TesselDialect, mlir::func::FuncDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(model.str(), &context);
  EXPECT_TRUE(module);
  mlir::PassManager pm(&context);
  pm.addPass(mlir::tessel::createTesselInlineLayers());
  EXPECT_TRUE(mlir::succeeded(pm.run(*module)));
  std::map<std::string, int64_t> parameters;
  module->walk([&](mlir::tessel::ParameterOp op) {
    parameters[op.getName().str()] = static_cast<int64_t>(op.getSeed());
  });
  return parameters;
}

TEST(Frontend, EinsumKeepsTheOutputDimsAndContractsTheRest) {
  Model model;
  model.define("forward", {Input("x", {batch, pixels})},
               [&](const std::vector<Tensor> &in) -> std::vector<Output> {
                 Tensor w = model.parameter("w", {pixels, hidden});
                 Tensor y = einsum({in[0], w}, {batch, hidden});
                 EXPECT_EQ(y.dims(), (Dims{batch, hidden}));
                 EXPECT_EQ(y.dtype(), DType::F32);
                 return {reduceSum(y)};
               });
  EXPECT_NE(model.str().find("tessel.einsum"), std::string::npos);
}

TEST(Frontend, BroadcastingTakesTheUnionOfDimsByName) {
  Model model;
  model.define("forward", {Input("x", {batch, hidden})},
               [&](const std::vector<Tensor> &in) -> std::vector<Output> {
                 Tensor bias = model.parameter("b", {hidden});
                 Tensor scale = model.parameter("s", {classes});
                 Tensor y = in[0] + bias;
                 EXPECT_EQ(y.dims(), (Dims{batch, hidden}));
                 Tensor z = y * scale;
                 EXPECT_EQ(z.dims(), (Dims{batch, hidden, classes}));
                 Tensor mean = reduceMean(z, {"hidden"});
                 EXPECT_EQ(mean.dims(), (Dims{batch, classes}));
                 return {reduceSum(mean)};
               });
}

TEST(Frontend, MistakesNameTheDimensions) {
  EXPECT_NE(errorOf([](Model &, Tensor x, Tensor) {
              einsum({x}, {Dim("hidden", 6)});
            }).find("output dimension 'hidden' is in no input"),
            std::string::npos);
  EXPECT_NE(errorOf([](Model &m, Tensor x, Tensor) {
              x + m.parameter("b", {Dim("pixels", 13)});
            }).find("dimension 'pixels' has size 12"),
            std::string::npos);
  EXPECT_NE(errorOf([](Model &, Tensor x, Tensor) {
              Linear("fc", {hidden}, {"features"})(x);
            }).find("has no dimension 'features'"),
            std::string::npos);
  EXPECT_NE(errorOf([](Model &, Tensor x, Tensor) { softmax(x, "classes"); })
                .find("no dimension 'classes'"),
            std::string::npos);
  EXPECT_NE(errorOf([](Model &, Tensor x, Tensor labels) {
              crossEntropy(x, labels, "hidden");
            }).find("no dimension 'hidden'"),
            std::string::npos);
  EXPECT_NE(errorOf([](Model &, Tensor x, Tensor) {
              reshape(x, {Dim("flat", 95)});
            }).find("has 96 elements"),
            std::string::npos);
  EXPECT_NE(errorOf([](Model &m, Tensor, Tensor) {
              m.parameter("w", {hidden, hidden});
            }).find("dimension 'hidden' appears twice"),
            std::string::npos);
  // The op verifier's own message comes through too.
  EXPECT_NE(errorOf([](Model &, Tensor x, Tensor) { layerNorm(x, {}); })
                .find("layer_norm"),
            std::string::npos);
}

TEST(Frontend, ALayerUsesOnlyItsArguments) {
  std::string message = errorOf([](Model &m, Tensor x, Tensor) {
    m.callLayer("Leaky", "leaky", {x}, [&](const std::vector<Tensor> &) {
      return std::vector<Tensor>{relu(x)}; // x is the caller's
    });
  });
  EXPECT_NE(message.find("belongs to another function"), std::string::npos)
      << message;
}

TEST(Frontend, AFailedDefinitionLeavesNoFunction) {
  Model model;
  EXPECT_THROW(model.define("forward", {Input("x", {batch})},
                            [&](const std::vector<Tensor> &in)
                                -> std::vector<Output> {
                              return {softmax(in[0], "missing")};
                            }),
               Error);
  EXPECT_FALSE(model.hasFunction("forward"));
  defineMlp(model);
  EXPECT_TRUE(model.hasFunction("forward"));
}

TEST(Frontend, ATensorOfAnErasedFunctionIsAnError) {
  Model model;
  Tensor kept;
  EXPECT_THROW(model.define("forward", {Input("x", {batch})},
                            [&](const std::vector<Tensor> &in)
                                -> std::vector<Output> {
                              kept = relu(in[0]);
                              return {softmax(in[0], "missing")};
                            }),
               Error);
  // The next function's body may sit where the erased one was; the tensor
  // must still be refused, not read.
  try {
    model.define("forward", {Input("x", {batch})},
                 [&](const std::vector<Tensor> &in) -> std::vector<Output> {
                   return {reduceSum(in[0] + kept)};
                 });
    FAIL() << "a tensor of an erased function was accepted";
  } catch (const Error &error) {
    EXPECT_NE(std::string(error.what()).find("belongs to another function"),
              std::string::npos)
        << error.what();
  }
  Tensor orphan;
  {
    Model gone;
    gone.define("f", {Input("x", {batch})},
                [&](const std::vector<Tensor> &in) -> std::vector<Output> {
                  orphan = exp(in[0]);
                  return {reduceSum(in[0])};
                });
  }
  EXPECT_THROW(relu(orphan), Error);
}

TEST(Frontend, LayersAreTracedOnceAndCalledWithTheirScope) {
  Model model;
  model.define("forward", {Input("x", {batch, hidden})},
               [&](const std::vector<Tensor> &in) -> std::vector<Output> {
                 // a and b are the same function; c has another shape.
                 Tensor a = Linear("a", {classes}, {"hidden"})(in[0]);
                 Tensor b = Linear("b", {classes}, {"hidden"})(in[0]);
                 Tensor c = Linear("c", {Dim("other", 5)}, {"hidden"})(in[0]);
                 return {reduceSum(a + b), reduceSum(c)};
               });
  std::string text = model.str();
  size_t functions = 0;
  for (size_t at = text.find("func.func private @Linear");
       at != std::string::npos;
       at = text.find("func.func private @Linear", at + 1))
    ++functions;
  EXPECT_EQ(functions, 2u) << text;
  for (const char *scope : {"a", "b", "c"})
    EXPECT_NE(text.find(std::string("tessel.scope = \"") + scope + "\""),
              std::string::npos)
        << scope;
}

TEST(Frontend, ScopesNameTheWeightsAndGiveThemTheirOwnSeeds) {
  Model model;
  defineMlp(model);
  std::map<std::string, int64_t> parameters = inlinedParameters(model);
  std::set<std::string> names;
  std::set<int64_t> seeds;
  for (auto &[name, seed] : parameters) {
    names.insert(name);
    seeds.insert(seed);
  }
  EXPECT_EQ(names, (std::set<std::string>{"fc1.b", "fc1.w", "fc2.b", "fc2.w"}));
  // Two calls of one Linear function: fc1.w and fc2.w must not start equal.
  EXPECT_NE(parameters["fc1.w"], parameters["fc2.w"]);
}

TEST(Frontend, ATiedEmbeddingIsOneWeight) {
  Dim seq("seq", 4), vocab("vocab", 10), dModel("d_model", 6);
  Model model;
  Embedding embedding("emb", vocab, {dModel});
  model.define("forward",
               {Input("tokens", {batch, seq}, DType::I32)},
               [&](const std::vector<Tensor> &in) -> std::vector<Output> {
                 Tensor logits = embedding.attend(embedding(in[0]));
                 EXPECT_EQ(logits.dims(), (Dims{batch, seq, vocab}));
                 return {reduceMean(crossEntropy(logits, in[0], "vocab"))};
               });
  std::map<std::string, int64_t> parameters = inlinedParameters(model);
  EXPECT_EQ(parameters.size(), 1u);
  EXPECT_EQ(parameters.count("emb.table"), 1u);
}

TEST(Frontend, AnAttentionStepSharesTheWeightsAndChecksItsCache) {
  Dim seq("seq", 5), features("d", 8);
  MultiHeadAttention attention("attn", Dim("heads", 2), Dim("head_dim", 4), "d",
                               "seq");
  Dims cache = attention.cacheDims({batch}, seq.size);
  EXPECT_EQ(formatDims(cache), "[batch:8, key:5, heads:2, head_dim:4]");
  Model model;
  model.define("forward", {Input("x", {batch, seq, features})},
               [&](const std::vector<Tensor> &in) -> std::vector<Output> {
                 return {reduceMean(attention(in[0]))};
               });
  model.define(
      "decode",
      {Input("x", {batch, features}), Input("position", {}, DType::I32),
       Input("k", cache), Input("v", cache)},
      [&](const std::vector<Tensor> &in) -> std::vector<Output> {
        auto [y, updated] = attention.step(in[0], in[1], {in[2], in[3]});
        EXPECT_EQ(y.dims(), (Dims{batch, features}));
        EXPECT_EQ(updated.k.dims(), cache);
        EXPECT_EQ(updated.v.dims(), cache);
        return {Output("y", y), Output("k", updated.k), Output("v", updated.v)};
      });
  // Inlined, both functions declare the same four weights.
  mlir::MLIRContext context;
  context.loadDialect<mlir::tessel::TesselDialect, mlir::func::FuncDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(model.str(), &context);
  ASSERT_TRUE(module);
  mlir::PassManager pm(&context);
  pm.addPass(mlir::tessel::createTesselInlineLayers());
  ASSERT_TRUE(mlir::succeeded(pm.run(*module)));
  std::map<std::string, std::set<std::string>> weights;
  for (auto func : module->getOps<mlir::func::FuncOp>())
    func.walk([&](mlir::tessel::ParameterOp op) {
      weights[func.getSymName().str()].insert(op.getName().str());
    });
  std::set<std::string> expected{"attn.k.w", "attn.o.w", "attn.q.w",
                                 "attn.v.w"};
  EXPECT_EQ(weights["forward"], expected);
  EXPECT_EQ(weights["decode"], expected);

  auto stepError = [&](const Dims &x, DType positionType, const Dims &k) {
    Model other;
    try {
      other.define(
          "decode",
          {Input("x", x), Input("position", {}, positionType), Input("k", k),
           Input("v", cache)},
          [&](const std::vector<Tensor> &in) -> std::vector<Output> {
            return {attention.step(in[0], in[1], {in[2], in[3]}).first};
          });
    } catch (const Error &error) {
      return std::string(error.what());
    }
    return std::string();
  };
  EXPECT_EQ(stepError({batch, features}, DType::I32, cache), "");
  EXPECT_NE(stepError({batch, seq, features}, DType::I32, cache)
                .find("has the sequence dimension 'seq'"),
            std::string::npos);
  EXPECT_NE(stepError({batch, features}, DType::F32, cache)
                .find("is not an i32 or i64 scalar"),
            std::string::npos);
  EXPECT_NE(stepError({batch, features}, DType::I32,
                      attention.cacheDims({batch, Dim("beam", 2)}, 5))
                .find("is not [batch:8, key:5, heads:2, head_dim:4]"),
            std::string::npos);
  // The weightless core checks that the new key fits the cache.
  EXPECT_NE(
      errorOf([&](Model &m, Tensor, Tensor) {
        Tensor q = constant(m, 0, {batch, Dim("heads", 2), Dim("head_dim", 4)});
        Tensor k = constant(m, 0, {batch, Dim("heads", 2), Dim("head_dim", 3)});
        Tensor keys = constant(m, 0, cache);
        cachedAttention(q, k, q, {keys, keys}, constant(m, 0, {}, DType::I32),
                        "key", "head_dim");
      }).find("is not the cache"),
      std::string::npos);
  // ... and that the position is an integer scalar, as the step does.
  auto positionError = [&](const Dims &dims, DType type) {
    return errorOf([&](Model &m, Tensor, Tensor) {
      Tensor q = constant(m, 0, {batch, Dim("heads", 2), Dim("head_dim", 4)});
      Tensor keys = constant(m, 0, cache);
      cachedAttention(q, q, q, {keys, keys}, constant(m, 0, dims, type), "key",
                      "head_dim");
    });
  };
  EXPECT_NE(positionError({}, DType::F32)
                .find("cached attention: the position [] f32 is not an i32 "
                      "or i64 scalar"),
            std::string::npos);
  EXPECT_NE(positionError({batch}, DType::I32)
                .find("cached attention: the position [batch:8] i32 is not"),
            std::string::npos);
}

TEST(Frontend, TopKGivesValuesAndIndices) {
  Model model;
  model.define("forward", {Input("x", {batch, pixels})},
               [&](const std::vector<Tensor> &in) -> std::vector<Output> {
                 TopK top = topK(softmax(in[0], "pixels"), "pixels", 3, "top");
                 EXPECT_EQ(top.values.dims(), (Dims{batch, Dim("top", 3)}));
                 EXPECT_EQ(top.values.dtype(), DType::F32);
                 EXPECT_EQ(top.indices.dims(), (Dims{batch, Dim("top", 3)}));
                 EXPECT_EQ(top.indices.dtype(), DType::I32);
                 // The gate: the chosen probabilities, placed back by one_hot.
                 Tensor gate = einsum({top.values, oneHot(top.indices, pixels)},
                                      {batch, pixels});
                 return {reduceMean(gate * in[0])};
               });
  std::string text = model.str();
  EXPECT_NE(text.find("over \"pixels\" k 3 as \"top\" :"), std::string::npos)
      << text;
  EXPECT_NE(text.find("over \"pixels\" k 3 as \"top\" indices :"),
            std::string::npos)
      << text;
  // Mistakes name the dimensions.
  EXPECT_NE(errorOf([](Model &, Tensor x, Tensor) {
              topK(x, "classes", 2, "top");
            }).find("top_k: the input"),
            std::string::npos);
  EXPECT_NE(errorOf([](Model &, Tensor x, Tensor) {
              topK(x, "pixels", 13, "top");
            }).find("k must be between 1 and the size of 'pixels' (12)"),
            std::string::npos);
  EXPECT_NE(errorOf([](Model &, Tensor x, Tensor) {
              topK(x, "pixels", 0, "top");
            }).find("got 0"),
            std::string::npos);
  EXPECT_NE(errorOf([](Model &, Tensor x, Tensor) {
              topK(x, "pixels", 2, "batch");
            }).find("already has dimension 'batch'"),
            std::string::npos);
}

TEST(Frontend, OpsInferConvolutionAndPoolingShapes) {
  Dim c("c", 1), h("h", 28), w("w", 28), f("f", 4);
  Model model;
  model.define("forward", {Input("x", {batch, c, h, w})},
               [&](const std::vector<Tensor> &in) -> std::vector<Output> {
                 Tensor y = Conv2d("conv", f, "c", {"h", "w"}, 3, 1, 1)(in[0]);
                 EXPECT_EQ(y.dims(), (Dims{batch, f, h, w}));
                 Tensor p = pool(Pooling::Max, y, {"h", "w"}, {2, 2}, {2, 2});
                 EXPECT_EQ(p.dims(),
                           (Dims{batch, f, Dim("h", 14), Dim("w", 14)}));
                 return {reduceMean(p)};
               });
}

TEST(Frontend, ScansArgmaxAndTrigonometry) {
  Model model;
  model.define(
      "forward",
      {Input("x", {batch, pixels}), Input("labels", {batch}, DType::I32)},
      [&](const std::vector<Tensor> &in) -> std::vector<Output> {
        Tensor rotated = sin(in[0]) * cos(in[0]);
        EXPECT_EQ(rotated.dims(), (Dims{batch, pixels}));
        Tensor prefix = cumsum(rotated, "pixels");
        EXPECT_EQ(prefix.dims(), (Dims{batch, pixels}));
        EXPECT_EQ(prefix.dtype(), DType::F32);
        Tensor suffix = cumsum(prefix, "batch", /*reverse=*/true);
        EXPECT_EQ(suffix.dims(), (Dims{batch, pixels}));
        Tensor predicted = argmax(suffix, "pixels");
        EXPECT_EQ(predicted.dims(), (Dims{batch}));
        EXPECT_EQ(predicted.dtype(), DType::I32);
        // The predicted class only selects; the loss is differentiable.
        Tensor hits =
            cast(compare(Comparison::Eq, predicted, in[1]), DType::F32);
        return {reduceMean(suffix * hits)};
      });
  std::string text = model.str();
  for (const char *op : {"tessel.sin", "tessel.cos", "tessel.argmax"})
    EXPECT_NE(text.find(op), std::string::npos) << op;
  EXPECT_NE(text.find("tessel.cumsum %"), std::string::npos);
  EXPECT_NE(text.find("over \"batch\" reverse"), std::string::npos);
  // Mistakes name the dimension.
  EXPECT_NE(errorOf([](Model &, Tensor x, Tensor) {
              cumsum(x, "seq");
            }).find("cumsum: the input"),
            std::string::npos);
  EXPECT_NE(errorOf([](Model &, Tensor x, Tensor) {
              argmax(x, "classes");
            }).find("no dimension 'classes'"),
            std::string::npos);
  // sin of integers is the verifier's error, passed through.
  EXPECT_NE(errorOf([](Model &, Tensor, Tensor labels) {
              sin(labels);
            }).find("to hold floats"),
            std::string::npos);
}

TEST(Frontend, DropoutTakesTheStepAndIsOffOutsideTraining) {
  Model model;
  model.define(
      "forward",
      {Input("x", {batch, pixels}), Input("dropout_step", {}, DType::I64)},
      [&](const std::vector<Tensor> &in) -> std::vector<Output> {
        Tensor dropped = dropout(in[0], 0.25, in[1], /*seed=*/3);
        EXPECT_EQ(dropped.dims(), (Dims{batch, pixels}));
        EXPECT_EQ(dropped.dtype(), DType::F32);
        // Not training: the input itself, no op.
        Tensor kept = dropout(dropped, 0.5, in[1], 4, /*training=*/false);
        return {reduceMean(kept)};
      });
  std::string text = model.str();
  EXPECT_NE(
      text.find("tessel.dropout %arg0 step %arg1 rate 2.500000e-01 seed 3"),
      std::string::npos)
      << text;
  EXPECT_EQ(text.find("rate 5.000000e-01"), std::string::npos) << text;
  // The rate and the step are checked.
  Model other;
  auto errorWith = [&](double rate, DType stepType) {
    std::string message;
    try {
      other.define("f", {Input("x", {batch}), Input("s", {}, stepType)},
                   [&](const std::vector<Tensor> &in) -> std::vector<Output> {
                     return {reduceMean(dropout(in[0], rate, in[1]))};
                   });
    } catch (const Error &error) {
      message = error.what();
    }
    return message;
  };
  EXPECT_NE(errorWith(1.0, DType::I64).find("dropout: rate 1 is not in [0, 1)"),
            std::string::npos);
  EXPECT_NE(errorWith(0.5, DType::F32).find("is not an i32 or i64 scalar"),
            std::string::npos);
}

TEST(Frontend, GroupedAndDepthwiseConvolutions) {
  Dim c("c", 4), h("h", 8), w("w", 8), f("f", 6);
  Model model;
  model.define("forward", {Input("x", {batch, c, h, w})},
               [&](const std::vector<Tensor> &in) -> std::vector<Output> {
                 Tensor y = Conv2d("grouped", f, "c", {"h", "w"}, 3, 1, 1,
                                   /*groups=*/2)(in[0]);
                 EXPECT_EQ(y.dims(), (Dims{batch, f, h, w}));
                 Tensor z = Conv2d("depthwise", Dim("g", 6), "f", {"h", "w"}, 3,
                                   1, 1, /*groups=*/6)(y);
                 EXPECT_EQ(z.dims(), (Dims{batch, Dim("g", 6), h, w}));
                 return {reduceMean(z)};
               });
  std::string text = model.str();
  EXPECT_NE(text.find("groups = 2"), std::string::npos) << text;
  EXPECT_NE(text.find("groups = 6"), std::string::npos) << text;
  // The filters hold one group's input channels.
  EXPECT_NE(text.find("[c:2, f:6, h_k:3, w_k:3]"), std::string::npos) << text;
  EXPECT_NE(text.find("[f:1, g:6, h_k:3, w_k:3]"), std::string::npos) << text;
  Model other;
  std::string message;
  try {
    other.define("f", {Input("x", {batch, c, h, w})},
                 [&](const std::vector<Tensor> &in) -> std::vector<Output> {
                   return {reduceMean(
                       Conv2d("bad", f, "c", {"h", "w"}, 3, 1, 1, 3)(in[0]))};
                 });
  } catch (const Error &error) {
    message = error.what();
  }
  EXPECT_NE(message.find("groups 3 must be positive and divide the 4 input "
                         "and 6 output channels"),
            std::string::npos)
      << message;
}

TEST(Frontend, BatchNormTrainsOnBatchStatisticsAndEvaluatesOnRunningOnes) {
  Dim c("c", 3), h("h", 4), w("w", 4);
  Model model;
  BatchNorm norm("bn", "c", {"batch", "h", "w"}, 0.1);
  std::vector<bool> seen;
  auto body = [&](const std::vector<Tensor> &in) -> std::vector<Output> {
    seen.push_back(model.training());
    return {reduceMean(norm(in[0]))};
  };
  model.define("forward", {Input("x", {batch, c, h, w})}, body);
  model.define("evaluate", {Input("x", {batch, c, h, w})}, body);
  model.define("probe", {Input("x", {batch, c, h, w})}, body, true);
  EXPECT_EQ(seen, (std::vector<bool>{true, false, true}));
  std::string text = model.str();
  // One traced form updates the running statistics, the other reads them.
  size_t updates = 0;
  for (size_t at = text.find("tessel.update_buffer"); at != std::string::npos;
       at = text.find("tessel.update_buffer", at + 1))
    ++updates;
  EXPECT_EQ(updates, 2u); // running_mean and running_var, traced once
  EXPECT_NE(text.find("\"running_var\" ones"), std::string::npos);
  std::map<std::string, int64_t> parameters = inlinedParameters(model);
  for (const char *name :
       {"bn.gamma", "bn.beta", "bn.running_mean", "bn.running_var"})
    EXPECT_EQ(parameters.count(name), 1u) << name;
  // The channel dimension must be there, and only it beside `over`.
  EXPECT_NE(errorOf([](Model &, Tensor images, Tensor) {
              BatchNorm("bn2", "c", {"batch"})(images);
            }).find("BatchNorm 'bn2': the input"),
            std::string::npos);
}

} // namespace
