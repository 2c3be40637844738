//===- gpt.cpp - a GPT-style language model written with the C++ front end ===//
//
// Builds a decoder-only Transformer (token embedding tied to the output
// projection, learned positions, pre-LN blocks of causal multi-head
// attention and a GELU MLP) with named dimensions, and its one-position
// decoding step with key/value caches, then writes its MLIR,
// explains it under layouts, or trains it under mpirun:
//
//   gpt --emit gpt.mlir
//   gpt --explain examples/gpt/data.yaml --explain examples/gpt/hybrid.yaml
//   gpt --train examples/gpt/hybrid.yaml --steps 100
//   gpt --train examples/gpt/hybrid.yaml --checkpoint-dir ckpt \
//       --generate examples/gpt/data.yaml --prompt "Licensed under "
//
//===----------------------------------------------------------------------===//

#include "tessel/frontend/Layers.h"
#include "tessel/frontend/Toolchain.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <iostream>

using namespace tessel;

struct Config {
  int64_t layers = 2, batch = 4, seq = 16, vocab = 256, dModel = 64,
          heads = 4, dFF = 256;
};

/// The attention of every block; forward and decode trace it with the same
/// names, so they share its weights.
MultiHeadAttention attentionOf(const Config &c) {
  return MultiHeadAttention("attn", Dim("heads", c.heads),
                            Dim("head_dim", c.dModel / c.heads), "d_model",
                            "seq");
}

/// One pre-LN block: x + attention(ln(x)), then + mlp(ln(x)).
Tensor block(const Tensor &x, const std::string &name, const Config &c) {
  Model &model = Model::of(x);
  return model.callLayer("Block", name, {x}, [&](const std::vector<Tensor> &in) {
    Tensor h = in[0];
    h = h + attentionOf(c)(LayerNorm("ln1", {"d_model"})(h));
    h = h + MLP("mlp", Dim("d_ff", c.dFF), "d_model")(LayerNorm("ln2", {"d_model"})(h));
    return std::vector<Tensor>{h};
  })[0];
}

/// The block at one position, for decoding: the same weights, the
/// attention reading and extending its key/value cache. Returns the
/// features and the cache.
std::vector<Tensor> blockStep(const Tensor &x, const Tensor &position,
                              const KVCache &cache, const std::string &name,
                              const Config &c) {
  Model &model = Model::of(x);
  return model.callLayer("BlockStep", name, {x, position, cache.k, cache.v},
                         [&](const std::vector<Tensor> &in) {
                           auto [attended, updated] = attentionOf(c).step(
                               LayerNorm("ln1", {"d_model"})(in[0]), in[1],
                               {in[2], in[3]});
                           Tensor h = in[0] + attended;
                           h = h + MLP("mlp", Dim("d_ff", c.dFF), "d_model")(
                                       LayerNorm("ln2", {"d_model"})(h));
                           return std::vector<Tensor>{h, updated.k, updated.v};
                         });
}

/// The name of block `i`'s key ("k") or value ("v") cache.
std::string cacheName(int64_t i, const char *part) {
  return "block" + std::to_string(i) + ".attn." + part + "_cache";
}

void buildGpt(Model &model, const Config &c) {
  Dim batch("batch", c.batch), seq("seq", c.seq), vocab("vocab", c.vocab),
      dModel("d_model", c.dModel);
  Embedding embedding("tok_emb", vocab, {dModel});
  auto logitsOf = [&](const Tensor &tokens) {
    // One statement each: the order of the traced ops is the order of the
    // calls, which C++ leaves open inside one expression.
    Tensor embedded = embedding(tokens);
    Tensor x = embedded + model.parameter("pos_emb", {seq, dModel});
    for (int64_t i = 0; i < c.layers; ++i)
      x = block(x, "block" + std::to_string(i), c);
    Tensor logits = embedding.attend(LayerNorm("ln_f", {"d_model"})(x));
    model.name(logits, "logits");
    return logits;
  };
  std::vector<Input> data{Input("tokens", {batch, seq}, DType::I32),
                          Input("targets", {batch, seq}, DType::I32)};
  model.define("forward", data,
               [&](const std::vector<Tensor> &in) -> std::vector<Output> {
                 return {
                     reduceMean(crossEntropy(logitsOf(in[0]), in[1], "vocab"))};
               });
  // The loss and the number of positions whose next byte has the largest
  // logit, which the driver reports on held-out text (--eval-every).
  model.define(
      "evaluate", data,
      [&](const std::vector<Tensor> &in) -> std::vector<Output> {
        Tensor logits = logitsOf(in[0]);
        Tensor loss = reduceMean(crossEntropy(logits, in[1], "vocab"));
        Tensor best =
            compare(Comparison::Ge, logits, reduceMax(logits, {"vocab"}));
        Tensor target = oneHot(in[1], vocab);
        Tensor hits = where(best, target, constant(model, 0.0));
        return {Output("loss", loss), Output("correct", reduceSum(hits))};
      });

  // One position of each sequence in the batch, for generating text: the
  // logits of the next token, and every block's key/value cache with this
  // position's keys and values added.
  std::vector<Input> inputs{Input("token", {batch}, DType::I32),
                            Input("position", {}, DType::I32)};
  Dims cacheDims = attentionOf(c).cacheDims({batch}, c.seq);
  for (int64_t i = 0; i < c.layers; ++i) {
    inputs.emplace_back(cacheName(i, "k"), cacheDims);
    inputs.emplace_back(cacheName(i, "v"), cacheDims);
  }
  model.define("decode", inputs,
               [&](const std::vector<Tensor> &in) -> std::vector<Output> {
                 Tensor token = embedding(in[0]);
                 Tensor table = model.parameter("pos_emb", {seq, dModel});
                 Tensor x = token + gather(table, in[1], "seq");
                 std::vector<Output> caches;
                 for (int64_t i = 0; i < c.layers; ++i) {
                   std::vector<Tensor> out =
                       blockStep(x, in[1], {in[2 + 2 * i], in[3 + 2 * i]},
                                 "block" + std::to_string(i), c);
                   x = out[0];
                   caches.emplace_back(cacheName(i, "k"), out[1]);
                   caches.emplace_back(cacheName(i, "v"), out[2]);
                 }
                 Tensor logits =
                     embedding.attend(LayerNorm("ln_f", {"d_model"})(x));
                 model.name(logits, "logits");
                 std::vector<Output> outputs{Output("logits", logits)};
                 outputs.insert(outputs.end(), caches.begin(), caches.end());
                 return outputs;
               });
}

int main(int argc, char **argv) {
  CLI::App app{"A GPT-style language model built with tessel's C++ front end"};
  Config c;
  std::string emitPath, trainLayout, checkpointDir, generateLayout;
  std::vector<std::string> explainLayouts, prompts;
  int ranks = 0, steps = 100, maxTokens = 64;
  double lr = 0.003;
  app.add_option("--layers", c.layers, "Transformer blocks");
  app.add_option("--batch", c.batch);
  app.add_option("--seq", c.seq);
  app.add_option("--d-model", c.dModel);
  app.add_option("--heads", c.heads);
  app.add_option("--d-ff", c.dFF);
  app.add_option("--emit", emitPath, "write the model's MLIR to this file");
  app.add_option("--explain", explainLayouts, "explain under a layout file");
  app.add_option("--train", trainLayout, "train under a layout file");
  app.add_option("-n,--ranks", ranks, "ranks (the layout's mesh by default)");
  app.add_option("--steps", steps);
  app.add_option("--lr", lr);
  app.add_option("--checkpoint-dir", checkpointDir,
                 "training writes its checkpoint here; --generate reads it");
  app.add_option("--generate", generateLayout,
                 "continue the prompts under a layout file (forward-only)");
  app.add_option("--prompt", prompts, "a prompt to continue (repeatable)");
  app.add_option("--max-tokens", maxTokens, "tokens to generate per prompt");
  CLI11_PARSE(app, argc, argv);
  if (!generateLayout.empty() && (checkpointDir.empty() || prompts.empty())) {
    std::cerr << "gpt: --generate needs --checkpoint-dir DIR and --prompt "
                 "TEXT\n";
    return 1;
  }

  try {
    Model model;
    buildGpt(model, c);
    if (!emitPath.empty())
      model.write(emitPath);
    for (const std::string &layout : explainLayouts) {
      auto report = nlohmann::json::parse(explain(model, Layout::fromFile(layout)));
      std::cout << layout << ": " << report["ranks"] << " ranks, "
                << report["totals"].dump() << std::endl;
    }
    if (!trainLayout.empty()) {
      CompileOptions options;
      options.optimizer = "adamw";
      std::vector<std::string> args{"--steps", std::to_string(steps), "--lr",
                                    std::to_string(lr)};
      if (!checkpointDir.empty())
        args.insert(args.end(), {"--checkpoint-dir", checkpointDir});
      RunResult result =
          run(model, Layout::fromFile(trainLayout), ranks, args, options);
      if (!result.metrics.empty())
        std::cout << "last metrics: " << result.metrics.back() << "\n";
      if (result.exitCode != 0)
        return result.exitCode;
    }
    if (!generateLayout.empty()) {
      // A forward-only program's decode, reading the trained weights; it
      // prints each prompt with its continuation.
      CompileOptions options;
      options.extraFlags = {"--mode=infer"};
      std::vector<std::string> args{"generate", "--checkpoint-dir",
                                    checkpointDir, "--max-tokens",
                                    std::to_string(maxTokens)};
      for (const std::string &prompt : prompts)
        args.push_back("--prompt=" + prompt);
      return run(model, Layout::fromFile(generateLayout), 0, args, options)
          .exitCode;
    }
  } catch (const Error &error) {
    std::cerr << "gpt: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
