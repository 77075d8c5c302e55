// tenferro.einsum / einsum_path with NumPy's signatures. The planner and its per-runtime plan
// cache are the C++ library's; this file only maps the arguments.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ad_bridge.hpp"
#include "bindings.hpp"
#include "operands.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/einsum_planner.hpp"
#include "views.hpp"

namespace tenferro::python {

namespace {

// optimize=: a planner name ("auto", "greedy", "optimal", "hyper" or a registered one) |
// True (auto) | False (left to right, no search) |
// an explicit path (NumPy's ['einsum_path', (0, 1), ...] or opt_einsum's [(0, 1), ...]).
EinsumOptions options_of(nb::handle optimize, std::size_t operands) {
  EinsumOptions o;
  if (optimize.is_none() || optimize.is(Py_True)) return o;
  if (optimize.is(Py_False)) {
    o.strategy = PathStrategy::Explicit;
    for (std::size_t i = 1; i < operands; ++i) o.path.emplace_back(0, 1);
    return o;
  }
  if (nb::isinstance<nb::str>(optimize)) {
    const std::string s = nb::cast<std::string>(optimize);
    // A planner name: the built-ins ('auto', 'greedy', 'optimal', 'hyper') or one registered
    // with register_path_planner; the library names the known ones when it is neither.
    o.planner = s;
    return o;
  }
  o.strategy = PathStrategy::Explicit;
  for (nb::handle step : optimize) {
    if (nb::isinstance<nb::str>(step)) continue;  // NumPy's leading 'einsum_path'
    std::vector<int> ids;
    for (nb::handle i : step) ids.push_back(nb::cast<int>(i));
    if (ids.size() == 1 && operands == 1) continue;  // a one-operand "contraction" is no step
    if (ids.size() != 2) {
      throw Error(ErrorKind::Unsupported, ErrorPhase::Input, "einsum",
                  "explicit path steps must be pairs (i, j); contract more operands with "
                  "several pairwise steps");
    }
    o.path.emplace_back(ids[0], ids[1]);
  }
  return o;
}

std::vector<int> sublist(nb::handle seq) {
  std::vector<int> out;
  for (nb::handle x : seq) {
    if (x.is(Py_Ellipsis)) {
      throw Error(ErrorKind::Unsupported, ErrorPhase::Input, "einsum",
                  "Ellipsis in the sublist form; use the subscripts string");
    }
    out.push_back(nb::cast<int>(x));
  }
  return out;
}

// The subscripts string of integer labels: each distinct label gets a letter in order of first
// appearance (a-z, then A-Z), so any ints work as long as there are at most 52 of them.
std::string subscripts_of(const EinsumLabels& labels) {
  static constexpr std::string_view kLetters =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  std::map<int, char> letter;
  const auto name = [&](int l) {
    auto it = letter.find(l);
    if (it != letter.end()) return it->second;
    if (letter.size() == kLetters.size()) {
      throw Error(ErrorKind::Unsupported, ErrorPhase::Input, "einsum",
                  "a traced sublist einsum takes at most 52 distinct labels");
    }
    return letter[l] = kLetters[letter.size()];
  };
  std::string out;
  for (std::size_t t = 0; t < labels.inputs.size(); ++t) {
    if (t > 0) out += ',';
    for (int l : labels.inputs[t]) out += name(l);
  }
  out += "->";
  for (int l : labels.output) out += name(l);
  return out;
}

nb::object einsum_call(nb::handle first, nb::args rest, nb::handle optimize) {
  if (nb::isinstance<nb::str>(first)) {
    // A view of the str's cached UTF-8 buffer (alive as long as `first`): no copy per call.
    Py_ssize_t length = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(first.ptr(), &length);
    if (utf8 == nullptr) throw nb::python_error();
    const std::string_view subscripts(utf8, static_cast<std::size_t>(length));
    std::vector<EagerTensor> ops;
    ops.reserve(rest.size());
    int i = 0;
    for (nb::handle x : rest) {
      // A traced operand (inside tenferro.grad and friends): the whole call records on its tape.
      if (is_tracer(x))
        return nb::cast(traced_einsum(subscripts, rest, options_of(optimize, rest.size())));
      ops.push_back(as_tensor(x, "einsum", i++));
    }
    const EinsumOptions o = options_of(optimize, ops.size());
    return nb::cast(
        released([&] { return einsum(subscripts, std::span<const EagerTensor>(ops), o); }));
  }
  // NumPy's interleaved form: einsum(op0, sublist0, op1, sublist1, ..., [sublist_out]).
  std::vector<nb::handle> args{first};
  for (nb::handle x : rest) args.push_back(x);
  EinsumLabels labels;
  std::vector<EagerTensor> ops;
  nb::list operands;  // as given, for the traced path
  bool traced = false;
  std::size_t k = 0;
  for (; k + 1 < args.size(); k += 2) {
    traced = traced || is_tracer(args[k]);
    operands.append(args[k]);
    labels.inputs.push_back(sublist(args[k + 1]));
  }
  if (k < args.size()) {
    labels.output = sublist(args[k]);
  } else {  // NumPy's implicit output: labels seen once, ascending
    std::map<int, int> count;
    for (const auto& in : labels.inputs)
      for (int l : in) ++count[l];
    for (auto [l, c] : count)
      if (c == 1) labels.output.push_back(l);
  }
  const EinsumOptions o = options_of(optimize, labels.inputs.size());
  // A traced operand: the same call in the subscripts form, recorded by the traced einsum.
  if (traced) return nb::cast(traced_einsum(subscripts_of(labels), operands, o));
  int i = 0;
  for (nb::handle x : operands) ops.push_back(as_tensor(x, "einsum", i++));
  return nb::cast(released([&] { return einsum(labels, std::span<const EagerTensor>(ops), o); }));
}

nb::tuple einsum_path_call(const std::string& subscripts, nb::args operands, nb::handle optimize) {
  std::vector<Shape> shapes;
  for (nb::handle x : operands) shapes.push_back(shape_arg(x.attr("shape")));
  const EinsumOptions o =
      options_of(optimize.is_none() ? nb::str("greedy") : optimize, shapes.size());
  const EinsumPath path = released([&] { return einsum_path(subscripts, shapes, o); });
  nb::list steps;
  steps.append("einsum_path");
  for (auto [i, j] : path.steps) steps.append(nb::make_tuple(i, j));
  if (path.steps.empty() && shapes.size() == 1) steps.append(nb::make_tuple(0));
  return nb::make_tuple(steps, path.to_string());
}

// A Python path function as a C++ PathPlanner, in opt_einsum's convention so that its own
// functions plug in as they are (opt_einsum.paths.greedy, a cotengra optimizer's search...):
// fn(inputs: list[set[int]], output: set[int], size_dict: dict[int, int], memory_limit) ->
// [(i, j), ...]. einsum plans with the GIL released, so the call takes it back; the function
// object is held through a shared_ptr whose last release also takes the GIL, because the
// library copies planners on threads that do not hold it.
PathPlanner planner_of(nb::callable fn) {
  std::shared_ptr<nb::object> held(new nb::object(std::move(fn)), [](nb::object* o) {
    nb::gil_scoped_acquire gil;
    delete o;
  });
  return [held](const PathPlannerInput& in) {
    nb::gil_scoped_acquire gil;
    nb::list inputs;
    for (const auto& labels : in.inputs) {
      nb::set set;
      for (int l : labels) set.add(nb::int_(l));
      inputs.append(set);
    }
    nb::set output;
    for (int l : in.output) output.add(nb::int_(l));
    nb::dict sizes;
    for (std::size_t l = 0; l < in.sizes.size(); ++l) sizes[nb::int_(l)] = nb::int_(in.sizes[l]);
    nb::object limit = nb::none();
    if (in.options != nullptr && in.options->memory_limit > 0) {
      limit = nb::int_(static_cast<long long>(in.options->memory_limit));
    }
    std::vector<std::pair<int, int>> steps;
    try {
      nb::object path = (*held)(inputs, output, sizes, limit);
      for (nb::handle step : path) {
        std::vector<int> ids;
        for (nb::handle i : step) ids.push_back(nb::cast<int>(i));
        if (ids.size() != 2) {
          throw_validation("einsum", "a path planner's steps must be pairs (i, j), got a step of " +
                                         std::to_string(ids.size()) + " operand(s)");
        }
        steps.emplace_back(ids[0], ids[1]);
      }
    } catch (nb::python_error& e) {
      // The library wraps this as a Validation error naming the planner, with it nested.
      throw std::runtime_error(e.what());
    } catch (const nb::cast_error&) {
      throw std::runtime_error("the path is not a sequence of (int, int) pairs");
    }
    return steps;
  };
}

}  // namespace

void bind_einsum(nb::module_& m) {
  m.def(
      "register_path_planner",
      [](std::string name, nb::callable fn) {
        register_path_planner(std::move(name), planner_of(fn));
      },
      nb::arg("name"), nb::arg("fn"),
      "Registers fn(inputs, output, size_dict, memory_limit) -> [(i, j), ...] (opt_einsum's "
      "path-function convention; labels are ints) as einsum's planner `name`: "
      "einsum(..., optimize=name).");
  m.def(
      "unregister_path_planner",
      [](const std::string& name) { return unregister_path_planner(name); }, nb::arg("name"),
      "Removes a registered planner; False when there is none of that name.");
  m.def("path_planner_names", &path_planner_names,
        "Planner names einsum's optimize= accepts: the built-ins, then registered ones.");
  m.def("einsum", &einsum_call, nb::arg("subscripts"), nb::arg("operands"), nb::kw_only(),
        nb::arg("optimize").none() = "auto",
        "numpy.einsum on tenferro tensors of one runtime; optimize: a planner name ('auto', "
        "'greedy', 'optimal', 'hyper' or a registered one), a bool or an explicit path. The "
        "result stays in the operands' runtime.");
  m.def("einsum_path", &einsum_path_call, nb::arg("subscripts"), nb::arg("operands"), nb::kw_only(),
        nb::arg("optimize").none() = "greedy",
        "numpy.einsum_path: (['einsum_path', (i, j), ...], report) from the operands' shapes.");
}

}  // namespace tenferro::python
