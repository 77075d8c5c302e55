// tenferro.einsum / einsum_path with NumPy's signatures. The planner and its per-runtime plan
// cache are the C++ library's; this file only maps the arguments.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "ad_bridge.hpp"
#include "args.hpp"
#include "bindings.hpp"
#include "operands.hpp"
#include "ops/einsum/expression.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/einsum_planner.hpp"
#include "views.hpp"

namespace tenferro::python {

std::function<void()> python_interrupt_hook() {
  return [caller = std::this_thread::get_id()] {
    if (std::this_thread::get_id() != caller) return;
    const nb::gil_scoped_acquire gil;  // re-entrant when the caller kept the GIL
    if (PyErr_CheckSignals() != 0) throw PythonPassThrough{nb::python_error()};
  };
}

namespace {

// Runs the library call `f` with the GIL released. A PythonPassThrough leaving it (or any other
// binding that plans an einsum, such as the AD layer's) becomes its Python exception again in
// the translator bind_einsum registers.
template <class F>
decltype(auto) planning(F&& f) {
  return released(std::forward<F>(f));
}

[[noreturn]] void invalid(const std::string& message) {
  throw_validation("einsum", message);
}

std::string repr_of(nb::handle x) {
  std::string r = nb::cast<std::string>(nb::repr(x));
  return r.size() > 60 ? r.substr(0, 57) + "..." : r;
}

// An int argument (a path step's operand index): a Python int in int's range, else Validation.
int index_arg(nb::handle x, const std::string& what) {
  const std::int64_t v = int_arg(x, "einsum", what.c_str());  // NumPy integers too
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
    invalid(what + " is out of range: " + repr_of(x));
  return static_cast<int>(v);
}

// The items of a sequence argument (held: a generator makes new objects), or Validation naming
// the argument when it is not iterable. An exception the iteration itself raises is the
// caller's and propagates as it is.
std::vector<nb::object> items_of(nb::handle seq, const std::string& what) {
  if (nb::isinstance<nb::str>(seq) || PyBytes_Check(seq.ptr()))
    invalid(what + " must be a sequence, got " + repr_of(seq));
  PyObject* it = PyObject_GetIter(seq.ptr());
  if (it == nullptr) {
    PyErr_Clear();
    invalid(what + " must be a sequence, got " + repr_of(seq));
  }
  const nb::object iter = nb::steal(it);
  std::vector<nb::object> out;
  while (PyObject* item = PyIter_Next(it)) out.push_back(nb::steal(item));
  if (PyErr_Occurred() != nullptr) throw nb::python_error();
  return out;
}

// optimize=: a planner name ("auto", "greedy", "optimal", "hyper" or a registered one) |
// True (auto) | False (left to right, no search) |
// an explicit path (NumPy's ['einsum_path', (0, 1), ...] or opt_einsum's [(0, 1), ...]).
// Anything else is a Validation error, never a bare Python or C++ cast error.
EinsumOptions options_of(nb::handle optimize, std::size_t operands) {
  EinsumOptions o;
  o.interrupt = python_interrupt_hook();
  if (optimize.is_none() || optimize.is(Py_True)) return o;
  if (optimize.is(Py_False)) {
    o.strategy = PathStrategy::Explicit;
    for (std::size_t i = 1; i < operands; ++i) o.path.emplace_back(0, 1);
    return o;
  }
  if (nb::isinstance<nb::str>(optimize)) {
    // A planner name: the built-ins ('auto', 'greedy', 'optimal', 'hyper') or one registered
    // with register_path_planner; the library names the known ones when it is neither.
    Py_ssize_t length = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(optimize.ptr(), &length);
    if (utf8 == nullptr) {
      PyErr_Clear();
      invalid("optimize is not valid UTF-8: " + repr_of(optimize));
    }
    o.planner.assign(utf8, static_cast<std::size_t>(length));
    return o;
  }
  o.strategy = PathStrategy::Explicit;
  std::size_t k = 0;
  auto live = static_cast<int>(operands);  // operands in the list before the step
  for (const nb::object& step : items_of(optimize, "optimize")) {
    const std::string where = "optimize step " + std::to_string(k++);
    if (nb::isinstance<nb::str>(step)) continue;  // NumPy's leading 'einsum_path'
    std::vector<int> ids;
    for (const nb::object& i : items_of(step, where)) ids.push_back(index_arg(i, where));
    if (ids.size() == 1 && operands == 1) continue;  // a one-operand "contraction" is no step
    if (ids.size() < 2) {
      throw Error(ErrorKind::Unsupported, ErrorPhase::Input, "einsum",
                  where + " names one operand; explicit steps contract two or more");
    }
    if (ids.size() == 2) {  // the library checks the pair against the list
      o.path.emplace_back(ids[0], ids[1]);
      --live;
      continue;
    }
    // Three or more operands in one step (NumPy's einsum_path gives them for scalar operands):
    // the same contraction as pairwise steps in the linear format, each result appended last.
    // Checked here first, since the pairs' renumbering could make a bad step look good.
    std::vector<int> sorted = ids;
    std::sort(sorted.begin(), sorted.end());
    if (sorted.front() < 0 || sorted.back() >= live ||
        std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
      invalid(where + " must name distinct operands among the " + std::to_string(live) +
              " in the list at that step");
    }
    std::vector<int> rest(ids.begin() + 2, ids.end());
    o.path.emplace_back(ids[0], ids[1]);
    for (int& r : rest) r -= (r > ids[0]) + (r > ids[1]);  // where they are once the pair left
    --live;
    for (std::size_t t = 0; t < rest.size(); ++t) {
      const int r = rest[t];
      o.path.emplace_back(r, live - 1);  // with the intermediate just appended
      for (std::size_t u = t + 1; u < rest.size(); ++u) rest[u] -= rest[u] > r;
      --live;
    }
  }
  return o;
}

// Sublist labels: any hashable Python object (NumPy takes ints; an int of any size or sign
// works here, so does a str or a tuple). Each distinct label gets a dense id in order of first
// appearance; `ints` records whether every label is an int (the implicit output sorts them).
struct SublistLabels {
  nb::dict ids;     // label -> dense id
  nb::list labels;  // dense id -> label
  bool ints = true;

  std::vector<int> read(nb::handle seq, const std::string& what) {
    std::vector<int> out;
    for (const nb::object& x : items_of(seq, what)) {
      if (x.is(Py_Ellipsis)) {
        throw Error(ErrorKind::Unsupported, ErrorPhase::Input, "einsum",
                    "Ellipsis in the sublist form; use the subscripts string");
      }
      if (PyObject_Hash(x.ptr()) == -1) {
        PyErr_Clear();
        invalid(what + ": a label must be hashable, got " + repr_of(x));
      }
      ints = ints && PyLong_Check(x.ptr()) && !PyBool_Check(x.ptr());
      PyObject* found = PyDict_GetItemWithError(ids.ptr(), x.ptr());  // borrowed
      if (found == nullptr && PyErr_Occurred() != nullptr) throw nb::python_error();
      if (found != nullptr) {
        out.push_back(nb::cast<int>(nb::handle(found)));
      } else {
        const int id = static_cast<int>(nb::len(labels));
        ids[x] = nb::int_(id);
        labels.append(x);
        out.push_back(id);
      }
    }
    return out;
  }
};

// The subscripts string of integer labels: each distinct label gets a symbol in order of
// first appearance: a-z, A-Z, then the non-ASCII label code points from U+00C0 up (as
// opt_einsum's get_symbol), so any number of labels the parser can hold works.
std::string subscripts_of(const EinsumLabels& labels) {
  static constexpr std::string_view kLetters =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  char32_t next = 0xC0;  // the next non-ASCII symbol to hand out
  std::map<int, std::string> name_of;
  const auto name = [&](int l) -> const std::string& {
    auto it = name_of.find(l);
    if (it != name_of.end()) return it->second;
    std::string symbol;
    if (name_of.size() < kLetters.size()) {
      symbol = std::string(1, kLetters[name_of.size()]);
    } else {
      while (!einsum_internal::is_label_code_point(next)) ++next;
      symbol = einsum_internal::utf8_of(next++);
    }
    return name_of.emplace(l, std::move(symbol)).first->second;
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
  if (PyBytes_Check(first.ptr()) || PyByteArray_Check(first.ptr()))
    invalid("subscripts must be a str, got " + repr_of(first) + " (decode it first)");
  if (nb::isinstance<nb::str>(first)) {
    // A view of the str's cached UTF-8 buffer (alive as long as `first`): no copy per call.
    Py_ssize_t length = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(first.ptr(), &length);
    if (utf8 == nullptr) {
      PyErr_Clear();  // lone surrogates: not UTF-8, so no valid subscripts either
      invalid("subscripts are not valid UTF-8: " + repr_of(first));
    }
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
    promote_operands(ops);
    return nb::cast(
        planning([&] { return einsum(subscripts, std::span<const EagerTensor>(ops), o); }));
  }
  // NumPy's interleaved form: einsum(op0, sublist0, op1, sublist1, ..., [sublist_out]).
  std::vector<nb::handle> args{first};
  for (nb::handle x : rest) args.push_back(x);
  if (args.size() < 2) {
    invalid(
        "einsum needs subscripts: einsum('ij->ji', a) or the sublist form einsum(a, [0, 1], "
        "[1, 0]); got " +
        std::to_string(args.size()) + " argument(s) and no subscripts");
  }
  EinsumLabels labels;
  SublistLabels names;
  std::vector<EagerTensor> ops;
  nb::list operands;  // as given, for the traced path
  bool traced = false;
  std::size_t k = 0;
  for (; k + 1 < args.size(); k += 2) {
    traced = traced || is_tracer(args[k]);
    operands.append(args[k]);
    labels.inputs.push_back(names.read(args[k + 1], "sublist " + std::to_string(k / 2)));
  }
  if (k < args.size()) {
    labels.output = names.read(args[k], "the output sublist");
  } else {  // NumPy's implicit output: labels seen once, ascending
    if (!names.ints) {
      invalid(
          "the implicit output sorts int labels; with other labels give the output "
          "sublist");
    }
    std::map<int, int> count;
    for (const auto& in : labels.inputs)
      for (int l : in) ++count[l];
    nb::list once;
    for (auto [l, c] : count)
      if (c == 1) once.append(names.labels[static_cast<std::size_t>(l)]);
    once.sort();  // Python ints of any size, by value
    for (nb::handle x : once) labels.output.push_back(nb::cast<int>(names.ids[x]));
  }
  const EinsumOptions o = options_of(optimize, labels.inputs.size());
  // A traced operand: the same call in the subscripts form, recorded by the traced einsum.
  if (traced) return nb::cast(traced_einsum(subscripts_of(labels), operands, o));
  int i = 0;
  for (nb::handle x : operands) ops.push_back(as_tensor(x, "einsum", i++));
  promote_operands(ops);
  return nb::cast(planning([&] { return einsum(labels, std::span<const EagerTensor>(ops), o); }));
}

// An einsum_path operand: anything with a .shape of non-negative ints (a tenferro tensor, a
// NumPy array); Validation naming the operand otherwise.
Shape path_shape(nb::handle x, std::size_t index) {
  const std::string what = "einsum_path operand " + std::to_string(index);
  if (!nb::hasattr(x, "shape")) invalid(what + " has no shape: " + repr_of(x));
  const nb::object shape = x.attr("shape");
  Shape out;
  for (const nb::object& e : items_of(shape, what + "'s shape")) {
    const std::int64_t extent = int_arg(e, "einsum_path", "an extent");
    if (extent < 0) invalid(what + "'s shape has a negative extent: " + repr_of(shape));
    out.push_back(extent);
  }
  return out;
}

nb::tuple einsum_path_call(nb::handle subscripts, nb::args operands, nb::handle optimize) {
  if (!nb::isinstance<nb::str>(subscripts))
    invalid("einsum_path's subscripts must be a str, got " + repr_of(subscripts));
  Py_ssize_t length = 0;
  const char* utf8 = PyUnicode_AsUTF8AndSize(subscripts.ptr(), &length);
  if (utf8 == nullptr) {
    PyErr_Clear();
    invalid("einsum_path's subscripts are not valid UTF-8: " + repr_of(subscripts));
  }
  const std::string text(utf8, static_cast<std::size_t>(length));
  std::vector<Shape> shapes;
  std::vector<EagerTensor> tensors;  // when every operand is a tenferro tensor
  bool all_tensors = operands.size() > 0;
  std::size_t index = 0;
  for (nb::handle x : operands) {
    shapes.push_back(path_shape(x, index++));
    all_tensors = all_tensors && nb::isinstance<EagerTensor>(x);
    if (all_tensors) tensors.push_back(nb::cast<EagerTensor>(x));
  }
  const EinsumOptions o =
      options_of(optimize.is_none() ? nb::str("greedy") : optimize, shapes.size());
  // Tensors of mixed dtypes are promoted as einsum promotes them (each differing one cast to
  // the common dtype), so the plan is the one einsum runs; refused before, where einsum ran.
  if (all_tensors) promote_operands(tensors);
  // Tensors: the plan einsum would run on their runtime, from or into its plan cache (the
  // report says which, and whether the steps were planned for other shapes).
  const EinsumPath path = planning([&] {
    return all_tensors ? einsum_path(text, std::span<const EagerTensor>(tensors), o)
                       : einsum_path(text, shapes, o);
  });
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
constexpr int kMaxPlannerDepth = 64;

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
    nb::object path;
    // A planner that plans again inside itself (einsum or einsum_path with itself) nests about
    // 10 KB of C++ frames per level, which Python's recursion limit does not count: without a
    // bound of its own the stack ran out (a segfault) before Python's RecursionError.
    static thread_local int depth = 0;
    if (depth >= kMaxPlannerDepth) {
      const std::string message = "a path planner re-entered einsum planning more than " +
                                  std::to_string(kMaxPlannerDepth) + " levels deep";
      PyErr_SetString(PyExc_RecursionError, message.c_str());
      throw PythonPassThrough{nb::python_error()};
    }
    struct Nesting {
      int& level;
      explicit Nesting(int& d) : level(d) { ++level; }
      ~Nesting() { --level; }
    } nesting(depth);
    try {
      path = (*held)(inputs, output, sizes, limit);
    } catch (nb::python_error& e) {
      // The planner's own exception (a KeyboardInterrupt included): back to the caller as it
      // is, the same object, through the library (einsum_planner.hpp passes non-std types on).
      throw PythonPassThrough{std::move(e)};
    }
    std::size_t k = 0;
    for (const nb::object& step : items_of(path, "the path planner's result")) {
      const std::string where = "path planner step " + std::to_string(k++);
      std::vector<int> ids;
      for (const nb::object& i : items_of(step, where)) ids.push_back(index_arg(i, where));
      if (ids.size() != 2) {
        throw_validation("einsum", "a path planner's steps must be pairs (i, j), got a step of " +
                                       std::to_string(ids.size()) + " operand(s)");
      }
      steps.emplace_back(ids[0], ids[1]);
    }
    return steps;
  };
}

// A Python planner held by the C++ registry keeps its function, and with it its module's
// globals (tensors, runtimes), alive past the interpreter's end, where nanobind reports them as
// leaks. The ones registered from Python are dropped by an atexit hook instead (with the GIL:
// this list is only touched from Python calls).
void unregister_python_planners_at_exit(std::string name) {
  static std::vector<std::string> names;
  if (names.empty()) {
    nb::module_::import_("atexit").attr("register")(nb::cpp_function([] {
      for (const auto& n : names) unregister_path_planner(n);
      names.clear();
    }));
  }
  // Once per name: registering one name again (a planner replaced) kept growing the list.
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
}

}  // namespace

void bind_einsum(nb::module_& m) {
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (PythonPassThrough& passed) {
      passed.error.restore();  // the same exception object, unchanged
    }
  });
  m.def(
      "register_path_planner",
      [](std::string name, nb::callable fn) {
        register_path_planner(name, planner_of(fn));
        unregister_python_planners_at_exit(std::move(name));
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
  // The subscripts are taken as any object (a bytes object is a Validation error, not a
  // TypeError); the stub keeps saying str.
  m.def("einsum_path", &einsum_path_call,
        nb::sig("def einsum_path(subscripts: str, *operands, optimize: object | None = "
                "'greedy') -> tuple"),
        nb::arg("subscripts"), nb::arg("operands"), nb::kw_only(),
        nb::arg("optimize").none() = "greedy",
        "numpy.einsum_path: (['einsum_path', (i, j), ...], report) from the operands' shapes. "
        "When every operand is a tenferro Tensor, the plan einsum would run on their runtime "
        "(optimize='auto' is einsum's default), from or into its plan cache: the report says "
        "when the plan came from that cache or reused the steps of an earlier plan for other "
        "shapes.");
}

}  // namespace tenferro::python
