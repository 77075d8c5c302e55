// The functional AD entry points behind tenferro.grad / value_and_grad / vjp / jvp
// (tenferro/_ad.py gives them JAX's signatures). A Python function becomes an ad::Function
// that takes the GIL only while it runs: the library's tape work (the forward ops' recording,
// the reverse pass, the tangent push) runs with the GIL released.
#include <nanobind/stl/function.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ad_bridge.hpp"
#include "bindings.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::python {

namespace {

// f(*tracers) -> a sequence of Tracers or Tensors (the Python side flattens f's own result).
ad::Function python_function(nb::callable f, const char* op) {
  return [f = std::move(f), op](std::span<const ad::Variable> xs) {
    nb::gil_scoped_acquire gil;
    nb::list args;
    for (const auto& x : xs) args.append(nb::cast(x));
    nb::object out = f(*args);
    std::vector<ad::Variable> ys;
    int i = 0;
    for (nb::handle y : out) ys.push_back(as_variable(y, op, i++));
    return ys;
  };
}

}  // namespace

void bind_ad_functional(nb::module_& m) {
  nb::module_ a = m.def_submodule("ad", "Automatic differentiation (tenferro::ad).");
  a.def("value_and_grad", [](nb::callable f, std::vector<EagerTensor> primals) {
    const ad::Function fn = python_function(std::move(f), "grad");
    auto [value, grads] = released([&] {
      if (primals.empty()) throw_validation("grad", "no arguments to differentiate");
      // ad::grad's steps, keeping the loss's value (one tape; gradient() checks the loss is a
      // real 0-d value and frees the graph).
      ad::GradientTape tape(primals[0].runtime());
      std::vector<ad::Variable> xs;
      // One runtime: checked by tenferro.grad with the caller's argument positions.
      for (const auto& p : primals) xs.push_back(tape.watch(p));
      std::vector<ad::Variable> ys = fn(xs);
      if (ys.size() != 1) {
        throw_validation("grad", "f must return one real 0-d value, it returned " +
                                     std::to_string(ys.size()) + " values");
      }
      return std::make_pair(ys[0].value(), tape.gradient(ys[0], xs));
    });
    return nb::make_tuple(value, grads);
  });
  a.def("vjp", [](nb::callable f, std::vector<EagerTensor> primals) {
    const ad::Function fn = python_function(std::move(f), "vjp");
    auto [values, pullback] = released([&] { return ad::vjp(fn, primals); });
    nb::object pull = nb::cpp_function(
        [pullback = std::move(pullback)](std::vector<std::optional<EagerTensor>> given) {
          // None: no cotangent for that output (ad::vjp takes an undefined tensor as zeros).
          std::vector<EagerTensor> cotangents;
          for (auto& c : given) cotangents.push_back(c ? std::move(*c) : EagerTensor{});
          return released([&] { return pullback(cotangents); });
        },
        nb::arg("cotangents"));
    return nb::make_tuple(values, pull);
  });
  a.def("jvp",
        [](nb::callable f, std::vector<EagerTensor> primals, std::vector<EagerTensor> tangents) {
          const ad::Function fn = python_function(std::move(f), "jvp");
          auto r = released([&] { return ad::jvp(fn, primals, tangents); });
          return nb::make_tuple(r.first, r.second);
        });
  a.def(
      "stop_gradient", [](const ad::Variable& x) { return x.value(); },
      "The value of x as a plain Tensor: nothing flows back through it.");
}

}  // namespace tenferro::python
