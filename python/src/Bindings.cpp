//===- Bindings.cpp - the tessel._tessel extension module -----------------===//
//
// pybind11 bindings over the C++ front end (include/tessel/frontend). The
// Python package (python/tessel/__init__.py) re-exports these and adds
// what is easier in Python: `Module` for user layers, and explain/run
// returning Python objects. A tessel::Error becomes tessel.Error, a
// ValueError; every op records the Python file and line that built it, so
// the compiler's messages point at the user's source.
//
//===----------------------------------------------------------------------===//

#include "tessel/frontend/Layers.h"
#include "tessel/frontend/Toolchain.h"

#include <pybind11/functional.h>
#include <pybind11/operators.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <frameobject.h>

namespace py = pybind11;
using namespace tessel;

namespace {

/// The directory of the tessel package, whose frames are skipped when
/// looking for the user's line.
std::string packageDir;

/// Gives the ops built next the file and line of the innermost Python frame
/// outside the tessel package.
void locate(Model &model) {
  PyFrameObject *frame = PyEval_GetFrame();
  Py_XINCREF(frame);
  while (frame) {
    PyCodeObject *code = PyFrame_GetCode(frame);
    py::str file = py::reinterpret_borrow<py::object>(code->co_filename);
    Py_DECREF(code);
    std::string path = file;
    if (packageDir.empty() || path.rfind(packageDir, 0) != 0) {
      model.setLocation(path, PyFrame_GetLineNumber(frame));
      Py_DECREF(frame);
      return;
    }
    PyFrameObject *back = PyFrame_GetBack(frame);
    Py_DECREF(frame);
    frame = back;
  }
}

void locate(const Tensor &x) {
  if (x.valid())
    locate(Model::of(x));
}

/// Wraps an op whose first operand is a tensor so that it records where it
/// was called from.
template <typename R, typename... Args>
auto located(R (*fn)(const Tensor &, Args...)) {
  return [fn](const Tensor &x, Args... args) {
    locate(x);
    return fn(x, std::forward<Args>(args)...);
  };
}

/// A layer's call, recording where it was called from.
template <typename Layer> Tensor callAt(const Layer &layer, const Tensor &x) {
  locate(x);
  return layer(x);
}

DType dtype(const std::string &name) { return parseDType(name); }

/// A list of Dims, or of names looked up in `inputs`.
Dims dimsFrom(const py::list &items, const std::vector<Tensor> &inputs) {
  Dims dims;
  for (py::handle item : items) {
    if (py::isinstance<Dim>(item)) {
      dims.push_back(item.cast<Dim>());
      continue;
    }
    std::string name = item.cast<std::string>();
    bool found = false;
    for (const Tensor &input : inputs)
      if (!found && input.has(name)) {
        dims.push_back(input.dim(name));
        found = true;
      }
    if (!found)
      throw Error("output dimension '" + name + "' is in no input");
  }
  return dims;
}

/// "NoneType", "int", ...: what a body returned instead of tensors.
std::string typeName(py::handle value) {
  return py::str(py::type::handle_of(value).attr("__name__"));
}

/// A Python callable's result as tensors: one tensor, or a tuple or list of
/// them; anything else is an Error naming `what` and the type it got.
std::vector<Tensor> tensorsFrom(const py::object &result,
                                const std::string &what) {
  if (py::isinstance<Tensor>(result))
    return {result.cast<Tensor>()};
  std::vector<Tensor> tensors;
  if (py::isinstance<py::tuple>(result) || py::isinstance<py::list>(result)) {
    for (py::handle item : result) {
      if (!py::isinstance<Tensor>(item))
        throw Error(what + " returned a sequence holding a " + typeName(item) +
                    "; it returns tensors");
      tensors.push_back(item.cast<Tensor>());
    }
    return tensors;
  }
  throw Error(what + " returned a " + typeName(result) +
              "; it returns a tensor, a tuple of tensors" +
              (what.rfind("define", 0) == 0 ? " or a dict of named tensors"
                                            : ""));
}

/// A function body's result as outputs: a tensor, a sequence of tensors, or
/// a dict from output name to tensor.
std::vector<Output> outputsFrom(const py::object &result,
                                const std::string &what) {
  std::vector<Output> outputs;
  if (py::isinstance<py::dict>(result)) {
    for (auto [name, value] : result.cast<py::dict>()) {
      if (!py::isinstance<py::str>(name) || !py::isinstance<Tensor>(value))
        throw Error(what + " returned a dict that does not map names to "
                           "tensors");
      outputs.emplace_back(name.cast<std::string>(), value.cast<Tensor>());
    }
    return outputs;
  }
  for (const Tensor &tensor : tensorsFrom(result, what))
    outputs.emplace_back(tensor);
  return outputs;
}

py::tuple asTuple(const std::vector<Tensor> &tensors) {
  py::tuple tuple(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i)
    tuple[i] = py::cast(tensors[i]);
  return tuple;
}

Initializer initializer(const std::string &kind, double scale) {
  if (kind == "normal")
    return Initializer::normal(scale);
  if (kind == "uniform")
    return Initializer::uniform(scale);
  if (kind == "zeros")
    return Initializer::zeros();
  if (kind == "ones")
    return Initializer::ones();
  throw Error("unknown initializer '" + kind +
              "' (normal, uniform, zeros or ones)");
}

Layout layoutFrom(const std::string &file, const std::string &mesh,
                  const std::string &rules, bool padUneven) {
  Layout layout;
  layout.file = file;
  layout.mesh = mesh;
  layout.rules = rules;
  layout.padUneven = padUneven;
  return layout;
}

Comparison comparison(const std::string &kind) {
  static const std::pair<const char *, Comparison> kinds[] = {
      {"eq", Comparison::Eq}, {"ne", Comparison::Ne}, {"lt", Comparison::Lt},
      {"le", Comparison::Le}, {"gt", Comparison::Gt}, {"ge", Comparison::Ge}};
  for (auto [name, value] : kinds)
    if (kind == name)
      return value;
  throw Error("unknown comparison '" + kind + "' (eq, ne, lt, le, gt, ge)");
}

Activation activation(const std::string &kind) {
  if (kind == "relu")
    return Activation::Relu;
  if (kind == "gelu")
    return Activation::Gelu;
  if (kind == "tanh")
    return Activation::Tanh;
  if (kind == "sigmoid")
    return Activation::Sigmoid;
  throw Error("unknown activation '" + kind + "' (relu, gelu, tanh, sigmoid)");
}

std::vector<std::string> namesOrAll(const py::object &dims) {
  if (dims.is_none())
    return {};
  if (py::isinstance<py::str>(dims))
    return {dims.cast<std::string>()};
  return dims.cast<std::vector<std::string>>();
}

} // namespace

PYBIND11_MODULE(_tessel, m) {
  m.doc() = "tessel's C++ front end: models with named dimensions";
  py::register_exception<Error>(m, "Error", PyExc_ValueError);

  py::class_<Dim>(m, "Dim")
      // A size is an integer (an int, or anything with __index__, such as
      // numpy's): True is one to Python (it was Dim('batch', 1)), and an
      // int past int64_t only failed to match the constructor.
      .def(py::init([](const std::string &name, const py::object &size) {
             auto refuse = [&](const char *why) {
               return Error("dimension '" + name + "' has size " +
                            std::string(py::repr(size)) + why);
             };
             if (py::isinstance<py::bool_>(size))
               throw refuse("; sizes are positive integers");
             py::object integer =
                 py::reinterpret_steal<py::object>(PyNumber_Index(size.ptr()));
             if (!integer) {
               PyErr_Clear();
               throw refuse("; sizes are positive integers");
             }
             int overflow = 0;
             long long value =
                 PyLong_AsLongLongAndOverflow(integer.ptr(), &overflow);
             if (overflow)
               throw refuse(", past 2^63 - 1");
             return Dim(name, value);
           }),
           py::arg("name"), py::arg("size"))
      .def_readonly("name", &Dim::name)
      .def_readonly("size", &Dim::size)
      .def("renamed", &Dim::renamed, py::arg("name"))
      .def(py::self == py::self)
      .def("__hash__",
           [](const Dim &d) { return py::hash(py::make_tuple(d.name, d.size)); })
      .def("__repr__", [](const Dim &d) {
        return "Dim('" + d.name + "', " + std::to_string(d.size) + ")";
      });

  py::class_<Tensor>(m, "Tensor")
      .def_property_readonly("dims", &Tensor::dims)
      .def_property_readonly("dtype",
                             [](const Tensor &t) { return dtypeName(t.dtype()); })
      .def_property_readonly("shape",
                             [](const Tensor &t) {
                               std::vector<int64_t> shape;
                               for (const Dim &d : t.dims())
                                 shape.push_back(d.size);
                               return shape;
                             })
      .def_property_readonly("dim_names", &Tensor::dimNames)
      .def("dim", &Tensor::dim, py::arg("name"))
      .def("has", &Tensor::has, py::arg("name"))
      .def("__repr__", [](const Tensor &t) { return "Tensor(" + t.str() + ")"; })
      .def("__add__", located<Tensor, const Tensor &>(&add))
      .def("__sub__", located<Tensor, const Tensor &>(&sub))
      .def("__mul__", located<Tensor, const Tensor &>(&mul))
      .def("__truediv__", located<Tensor, const Tensor &>(&div))
      .def("__neg__", located<Tensor>(&neg))
      .def("__add__", [](const Tensor &t, double v) { locate(t); return t + v; })
      .def("__sub__", [](const Tensor &t, double v) { locate(t); return t - v; })
      .def("__mul__", [](const Tensor &t, double v) { locate(t); return t * v; })
      .def("__truediv__",
           [](const Tensor &t, double v) { locate(t); return t / v; })
      .def("__radd__", [](const Tensor &t, double v) { locate(t); return v + t; })
      .def("__rsub__", [](const Tensor &t, double v) { locate(t); return v - t; })
      .def("__rmul__", [](const Tensor &t, double v) { locate(t); return v * t; })
      .def("__rtruediv__",
           [](const Tensor &t, double v) { locate(t); return v / t; });

  py::class_<Input>(m, "Input")
      .def(py::init([](std::string name, Dims dims, const std::string &type) {
             return Input(std::move(name), std::move(dims), dtype(type));
           }),
           py::arg("name"), py::arg("dims"), py::arg("dtype") = "f32")
      .def_readonly("name", &Input::name)
      .def_readonly("dims", &Input::dims);

  py::class_<Model>(m, "Model")
      .def(py::init<>())
      .def(
          "define",
          [](Model &model, const std::string &name,
             const std::vector<Input> &inputs, const py::function &body,
             std::optional<bool> training) {
            locate(model);
            model.define(
                name, inputs,
                [&](const std::vector<Tensor> &args) {
                  return outputsFrom(body(*asTuple(args)),
                                     "define '" + name + "': the body");
                },
                training);
          },
          py::arg("name"), py::arg("inputs"), py::arg("body"),
          py::arg("training") = py::none(),
          "Defines the public function `name`: body(*inputs) returns a "
          "tensor, a tuple of tensors, or a dict of named outputs. Layers "
          "trace their training form (BatchNorm: batch statistics, running "
          "statistics updated) when `training`, which defaults to "
          "name == 'forward'.")
      .def_property_readonly("training", &Model::training,
                             "Whether the function being defined is traced "
                             "for training.")
      .def(
          "buffer",
          [](Model &model, const std::string &name, const Dims &dims,
             const std::string &init, const std::string &type) {
            locate(model);
            return model.buffer(name, dims, initializer(init, 1.0),
                                dtype(type));
          },
          py::arg("name"), py::arg("dims"), py::arg("init") = "zeros",
          py::arg("dtype") = "f32",
          "Non-trainable state (a running statistic): carried by the "
          "training step, checkpointed, passed to evaluate.")
      .def(
          "update_buffer",
          [](Model &model, const Tensor &buffer, const Tensor &value) {
            locate(model);
            return model.updateBuffer(buffer, value);
          },
          py::arg("buffer"), py::arg("value"),
          "The buffer's value after a training step; returns value.")
      .def(
          "parameter",
          [](Model &model, const std::string &name, const Dims &dims,
             const std::string &init, double scale, const std::string &type,
             std::optional<int64_t> seed) {
            locate(model);
            return model.parameter(name, dims, initializer(init, scale),
                                   dtype(type), seed);
          },
          py::arg("name"), py::arg("dims"), py::arg("init") = "normal",
          py::arg("scale") = 0.02, py::arg("dtype") = "f32",
          py::arg("seed") = py::none())
      .def(
          "call_layer",
          [](Model &model, const std::string &kind, const std::string &scope,
             const std::vector<Tensor> &args, const py::function &body) {
            locate(model);
            return asTuple(model.callLayer(
                kind, scope, args, [&](const std::vector<Tensor> &inner) {
                  return tensorsFrom(body(*asTuple(inner)),
                                     "layer " + kind + " '" + scope +
                                         "': forward");
                }));
          },
          py::arg("kind"), py::arg("scope"), py::arg("args"), py::arg("body"))
      .def("name", &Model::name, py::arg("tensor"), py::arg("name"))
      .def("has_function", &Model::hasFunction, py::arg("name"))
      .def("write", &Model::write, py::arg("path"),
           py::arg("locations") = false)
      .def("to_mlir", &Model::str, py::arg("locations") = false,
           "The module as MLIR text (with each op's Python line when "
           "`locations`).")
      .def("__str__", [](const Model &model) { return model.str(); })
      .def_static("of", &Model::of, py::arg("tensor"),
                  py::return_value_policy::reference);

  // Sources.
  m.def(
      "constant",
      [](Model &model, double value, const Dims &dims, const std::string &t) {
        locate(model);
        return constant(model, value, dims, dtype(t));
      },
      py::arg("model"), py::arg("value"), py::arg("dims") = Dims{},
      py::arg("dtype") = "f32");
  m.def(
      "iota",
      [](Model &model, const Dims &dims, const std::string &along,
         const std::string &t) {
        locate(model);
        return iota(model, dims, along, dtype(t));
      },
      py::arg("model"), py::arg("dims"), py::arg("along"),
      py::arg("dtype") = "i32");

  // Contractions.
  m.def(
      "einsum",
      [](const py::args &inputs, const py::list &out) {
        std::vector<Tensor> tensors = inputs.cast<std::vector<Tensor>>();
        if (!tensors.empty())
          locate(tensors.front());
        return einsum(tensors, dimsFrom(out, tensors));
      },
      py::kw_only(), py::arg("out"),
      "einsum(*inputs, out=[dims or names]): contracts every dimension "
      "missing from `out`.");

  // Element-wise.
  m.def("add", located<Tensor, const Tensor &>(&add));
  m.def("sub", located<Tensor, const Tensor &>(&sub));
  m.def("mul", located<Tensor, const Tensor &>(&mul));
  m.def("div", located<Tensor, const Tensor &>(&div));
  m.def("maximum", located<Tensor, const Tensor &>(&maximum));
  m.def("minimum", located<Tensor, const Tensor &>(&minimum));
  m.def("pow", located<Tensor, const Tensor &>(&tessel::pow));
  m.def("neg", located<Tensor>(&neg));
  m.def("abs", located<Tensor>(&tessel::abs));
  m.def("exp", located<Tensor>(&tessel::exp));
  m.def("log", located<Tensor>(&tessel::log));
  m.def("sqrt", located<Tensor>(&tessel::sqrt));
  m.def("rsqrt", located<Tensor>(&rsqrt));
  m.def("tanh", located<Tensor>(&tessel::tanh));
  m.def("sigmoid", located<Tensor>(&sigmoid));
  m.def("relu", located<Tensor>(&relu));
  m.def("gelu", located<Tensor>(&gelu));
  m.def("erf", located<Tensor>(&tessel::erf));
  m.def("sin", located<Tensor>(&tessel::sin));
  m.def("cos", located<Tensor>(&tessel::cos));
  m.def(
      "compare",
      [](const std::string &kind, const Tensor &a, const Tensor &b) {
        locate(a);
        return compare(comparison(kind), a, b);
      },
      py::arg("kind"), py::arg("lhs"), py::arg("rhs"));
  m.def("where", located<Tensor, const Tensor &, const Tensor &>(&where),
        py::arg("condition"), py::arg("on_true"), py::arg("on_false"));
  m.def(
      "cast",
      [](const Tensor &x, const std::string &t) {
        locate(x);
        return cast(x, dtype(t));
      },
      py::arg("x"), py::arg("dtype"));
  m.def("broadcast", located<Tensor, const Dims &>(&broadcast), py::arg("x"),
        py::arg("dims"));

  // Reductions, normalisation, losses.
  auto reduction = [&m](const char *name, Reduction kind) {
    m.def(
        name,
        [kind](const Tensor &x, const py::object &dims) {
          locate(x);
          return reduce(kind, x, namesOrAll(dims));
        },
        py::arg("x"), py::arg("dims") = py::none(),
        "Reduces the named dimensions (a name or a list; all when None).");
  };
  reduction("reduce_sum", Reduction::Sum);
  reduction("reduce_mean", Reduction::Mean);
  reduction("reduce_max", Reduction::Max);
  reduction("reduce_min", Reduction::Min);
  reduction("reduce_prod", Reduction::Prod);
  m.def("softmax", located<Tensor, const std::string &>(&softmax),
        py::arg("x"), py::arg("dim"));
  m.def("log_softmax", located<Tensor, const std::string &>(&logSoftmax),
        py::arg("x"), py::arg("dim"));
  m.def("cumsum", located<Tensor, const std::string &, bool>(&cumsum),
        py::arg("x"), py::arg("dim"), py::arg("reverse") = false,
        "The inclusive prefix sum along `dim` (the suffix sum with "
        "reverse=True).");
  m.def(
      "dropout",
      [](const Tensor &x, double rate, const Tensor &step, int64_t seed,
         bool training) {
        locate(x);
        return dropout(x, rate, step, seed, training);
      },
      py::arg("x"), py::arg("rate"), py::arg("step"), py::arg("seed") = 0,
      py::arg("training") = true,
      "Inverted dropout (x * keep / (1 - rate)) with training=True, x itself "
      "otherwise; the mask is a function of (seed, the scalar integer step, "
      "each element's global index), the same under every layout. Declare "
      "step as an input named 'dropout_step', which tessel run sets to the "
      "step's number.");
  m.def("argmax", located<Tensor, const std::string &>(&argmax), py::arg("x"),
        py::arg("dim"),
        "The index along `dim` of each maximum (the first of equal ones): an "
        "i32 tensor over the other dims, with no gradient.");
  m.def(
      "top_k",
      [](const Tensor &x, const std::string &dim, int64_t k,
         const std::string &outDim) {
        locate(x);
        TopK result = topK(x, dim, k, outDim);
        return py::make_tuple(result.values, result.indices);
      },
      py::arg("x"), py::arg("dim"), py::arg("k"), py::arg("out_dim"),
      "The k largest elements along `dim`, largest first (equal ones by "
      "index, NaN first), and their i32 indices: a tuple (values, indices), "
      "each with `dim` replaced by the new dim `out_dim` of size k. The "
      "values have a gradient, the indices none.");
  m.def(
      "layer_norm",
      [](const Tensor &x, const py::object &dims, double epsilon) {
        locate(x);
        return layerNorm(x, namesOrAll(dims), epsilon);
      },
      py::arg("x"), py::arg("dims"), py::arg("epsilon") = 1e-5);
  m.def("cross_entropy",
        located<Tensor, const Tensor &, const std::string &>(&crossEntropy),
        py::arg("logits"), py::arg("labels"), py::arg("dim"));

  // Convolution and pooling.
  m.def(
      "conv2d",
      [](const Tensor &x, const Tensor &filter, const std::string &in,
         const std::string &out, std::array<std::string, 2> spatial,
         std::array<std::string, 2> kernel, std::array<int64_t, 2> strides,
         std::array<int64_t, 4> padding, std::array<int64_t, 2> dilations,
         int64_t groups) {
        locate(x);
        Conv2dOptions options{strides, padding, dilations, groups};
        return conv2d(x, filter, in, out, spatial, kernel, options);
      },
      py::arg("x"), py::arg("filter"), py::arg("in_channel"),
      py::arg("out_channel"), py::arg("spatial"), py::arg("kernel"),
      py::arg("strides") = std::array<int64_t, 2>{1, 1},
      py::arg("padding") = std::array<int64_t, 4>{0, 0, 0, 0},
      py::arg("dilations") = std::array<int64_t, 2>{1, 1},
      py::arg("groups") = 1);
  auto pooling = [&m](const char *name, Pooling kind) {
    m.def(
        name,
        [kind](const Tensor &x, std::array<std::string, 2> spatial,
               std::array<int64_t, 2> window,
               std::optional<std::array<int64_t, 2>> strides,
               std::array<int64_t, 4> padding) {
          locate(x);
          return pool(kind, x, spatial, window, strides.value_or(window),
                      padding);
        },
        py::arg("x"), py::arg("spatial"), py::arg("window"),
        py::arg("strides") = py::none(),
        py::arg("padding") = std::array<int64_t, 4>{0, 0, 0, 0});
  };
  pooling("max_pool", Pooling::Max);
  pooling("avg_pool", Pooling::Avg);

  // Lookups.
  m.def("gather", located<Tensor, const Tensor &, const std::string &>(&gather),
        py::arg("table"), py::arg("ids"), py::arg("dim"));
  m.def(
      "one_hot",
      [](const Tensor &ids, const Dim &dim, const std::string &t) {
        locate(ids);
        return oneHot(ids, dim, dtype(t));
      },
      py::arg("ids"), py::arg("dim"), py::arg("dtype") = "f32");

  // Shapes.
  m.def("rename",
        located<Tensor, const std::string &, const std::string &>(&rename),
        py::arg("x"), py::arg("old"), py::arg("new"));
  m.def("reshape", located<Tensor, const Dims &>(&reshape), py::arg("x"),
        py::arg("dims"));
  m.def("transpose",
        located<Tensor, const std::vector<std::string> &>(&transpose),
        py::arg("x"), py::arg("order"));
  m.def("slice", located<Tensor, const std::string &, int64_t, int64_t>(&slice),
        py::arg("x"), py::arg("dim"), py::arg("start"), py::arg("size"));
  m.def(
      "concat",
      [](const std::vector<Tensor> &inputs, const std::string &dim) {
        if (!inputs.empty())
          locate(inputs.front());
        return concat(inputs, dim);
      },
      py::arg("inputs"), py::arg("dim"));
  m.def("pad",
        located<Tensor, const std::string &, int64_t, int64_t, double>(&pad),
        py::arg("x"), py::arg("dim"), py::arg("low"), py::arg("high"),
        py::arg("value") = 0.0);

  // Layers.
  py::class_<Linear>(m, "Linear")
      .def(py::init([](std::string name, Dims out, const py::object &in,
                       bool bias, const std::string &init, double scale) {
             return Linear(std::move(name), std::move(out), namesOrAll(in),
                           bias, initializer(init, scale));
           }),
           py::arg("name"), py::arg("out"), py::arg("in_"),
           py::arg("bias") = true, py::arg("init") = "normal",
           py::arg("scale") = 0.02)
      .def("__call__", &callAt<Linear>, py::arg("x"));
  py::class_<LayerNorm>(m, "LayerNorm")
      .def(py::init([](std::string name, const py::object &dims, double eps) {
             return LayerNorm(std::move(name), namesOrAll(dims), eps);
           }),
           py::arg("name"), py::arg("dims"), py::arg("epsilon") = 1e-5)
      .def("__call__", &callAt<LayerNorm>, py::arg("x"));
  py::class_<BatchNorm>(m, "BatchNorm")
      .def(py::init([](std::string name, std::string channels,
                       std::vector<std::string> over, double momentum,
                       double eps) {
             return BatchNorm(std::move(name), std::move(channels),
                              std::move(over), momentum, eps);
           }),
           py::arg("name"), py::arg("channels"), py::arg("over"),
           py::arg("momentum") = 0.1, py::arg("epsilon") = 1e-5)
      .def("__call__", &callAt<BatchNorm>, py::arg("x"));
  py::class_<RMSNorm>(m, "RMSNorm")
      .def(py::init([](std::string name, const py::object &dims, double eps) {
             return RMSNorm(std::move(name), namesOrAll(dims), eps);
           }),
           py::arg("name"), py::arg("dims"), py::arg("epsilon") = 1e-6)
      .def("__call__", &callAt<RMSNorm>, py::arg("x"));
  py::class_<Embedding>(m, "Embedding")
      .def(py::init([](std::string name, Dim vocab, Dims features,
                       const std::string &init, double scale) {
             return Embedding(std::move(name), std::move(vocab),
                              std::move(features), initializer(init, scale));
           }),
           py::arg("name"), py::arg("vocab"), py::arg("features"),
           py::arg("init") = "normal", py::arg("scale") = 0.02)
      .def("__call__", &callAt<Embedding>, py::arg("x"))
      .def("attend", [](const Embedding &e, const Tensor &x) {
        locate(x);
        return e.attend(x);
      });
  py::class_<MLP>(m, "MLP")
      .def(py::init([](std::string name, Dim hidden, std::string in,
                       const std::string &act) {
             return MLP(std::move(name), std::move(hidden), std::move(in),
                        activation(act));
           }),
           py::arg("name"), py::arg("hidden"), py::arg("in_"),
           py::arg("activation") = "gelu")
      .def("__call__", &callAt<MLP>, py::arg("x"));
  m.def(
      "dot_product_attention",
      [](const Tensor &q, const Tensor &k, const Tensor &v,
         const std::string &seq, const std::string &key,
         const std::string &headDim, bool causal) {
        locate(q);
        return dotProductAttention(q, k, v, seq, key, headDim, causal);
      },
      py::arg("q"), py::arg("k"), py::arg("v"), py::arg("seq"),
      py::arg("key"), py::arg("head_dim"), py::arg("causal") = true,
      "softmax over `key` of q.k / sqrt(|head_dim|), times v (causal: a "
      "query sees keys at its position and before).");
  m.def(
      "cached_attention",
      [](const Tensor &q, const Tensor &k, const Tensor &v,
         const Tensor &kCache, const Tensor &vCache, const Tensor &position,
         const std::string &key, const std::string &headDim) {
        locate(q);
        auto [y, cache] =
            cachedAttention(q, k, v, {kCache, vCache}, position, key, headDim);
        return py::make_tuple(y, cache.k, cache.v);
      },
      py::arg("q"), py::arg("k"), py::arg("v"), py::arg("k_cache"),
      py::arg("v_cache"), py::arg("position"), py::arg("key") = "key",
      py::arg("head_dim") = "head_dim",
      "One position's attention over a key/value cache: k and v written "
      "into the caches at `position`, q attending to positions <= position. "
      "Returns (y, k_cache, v_cache).");
  py::class_<MultiHeadAttention>(m, "MultiHeadAttention")
      .def(py::init<std::string, Dim, Dim, std::string, std::string,
                    std::string, bool>(),
           py::arg("name"), py::arg("heads"), py::arg("head_dim"),
           py::arg("model"), py::arg("seq"), py::arg("key") = "key",
           py::arg("causal") = true)
      .def("__call__", &callAt<MultiHeadAttention>, py::arg("x"))
      .def(
          "step",
          [](const MultiHeadAttention &attention, const Tensor &x,
             const Tensor &position, const Tensor &k, const Tensor &v) {
            locate(x);
            auto [y, cache] = attention.step(x, position, {k, v});
            return py::make_tuple(y, cache.k, cache.v);
          },
          py::arg("x"), py::arg("position"), py::arg("k_cache"),
          py::arg("v_cache"),
          "One decoding step: x is one position's features (no `seq`), "
          "position an integer scalar, k_cache and v_cache the keys and "
          "values so far ([batch..., key, heads, head_dim]). Returns (y, "
          "k_cache, v_cache): the attention at this position and the "
          "caches with its key and value written at `position`.")
      .def("cache_dims", &MultiHeadAttention::cacheDims, py::arg("batch"),
           py::arg("positions"),
           "The dims of a key or value cache: batch, then key (positions), "
           "heads, head_dim.");
  py::class_<Conv2d>(m, "Conv2d")
      .def(py::init<std::string, Dim, std::string, std::array<std::string, 2>,
                    int64_t, int64_t, int64_t, int64_t>(),
           py::arg("name"), py::arg("out"), py::arg("in_"), py::arg("spatial"),
           py::arg("kernel_size"), py::arg("stride") = 1,
           py::arg("padding") = 0, py::arg("groups") = 1)
      .def("__call__", &callAt<Conv2d>, py::arg("x"));

  // The tessel command on a model.
  m.def(
      "_explain",
      [](const Model &model, const std::string &file, const std::string &mesh,
         const std::string &rules, bool padUneven, const std::string &fn) {
        py::gil_scoped_release release;
        return explain(model, layoutFrom(file, mesh, rules, padUneven), fn);
      },
      py::arg("model"), py::arg("file"), py::arg("mesh"), py::arg("rules"),
      py::arg("pad_uneven"), py::arg("function"));
  m.def(
      "_compile",
      [](const Model &model, const std::string &file, const std::string &mesh,
         const std::string &rules, bool padUneven, const std::string &output,
         const std::string &optimizer, const std::string &precision,
         const std::vector<std::string> &extra) {
        py::gil_scoped_release release;
        compile(model, layoutFrom(file, mesh, rules, padUneven), output,
                CompileOptions{optimizer, precision, extra});
      },
      py::arg("model"), py::arg("file"), py::arg("mesh"), py::arg("rules"),
      py::arg("pad_uneven"), py::arg("output"), py::arg("optimizer"),
      py::arg("precision"), py::arg("extra"));
  m.def(
      "_run",
      [](const Model &model, const std::string &file, const std::string &mesh,
         const std::string &rules, bool padUneven, int ranks,
         const std::vector<std::string> &programArgs,
         const std::string &optimizer, const std::string &precision,
         const std::vector<std::string> &extra) {
        py::gil_scoped_release release;
        RunResult result =
            run(model, layoutFrom(file, mesh, rules, padUneven), ranks,
                programArgs, CompileOptions{optimizer, precision, extra});
        return std::make_pair(result.exitCode, result.metrics);
      },
      py::arg("model"), py::arg("file"), py::arg("mesh"), py::arg("rules"),
      py::arg("pad_uneven"), py::arg("ranks"), py::arg("program_args"),
      py::arg("optimizer"), py::arg("precision"), py::arg("extra"));
  m.def("tool_path", &toolPath);
  m.def(
      "_set_package_dir", [](std::string dir) { packageDir = std::move(dir); },
      "Frames under this directory are not the user's source.");
}
