// `tenferro linalg OP IN.npy [IN2.npy] -o PREFIX [--backend cpu|cuda|webgpu] [op options]`:
// reads the matrices ([m, n, batch...], batch axes trailing), runs one linalg op on a runtime
// of the chosen backend and writes one PREFIX.<name>.npy per output.
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include "cli/command_registry.hpp"
#include "cli/svd_truncation_args.hpp"
#include "core/atomic_file.hpp"
#include "tenferro/core/npy.hpp"
#include "tenferro/linalg.hpp"

namespace tenferro::cli {
namespace {

constexpr const char* kUsage =
    "usage: tenferro linalg OP IN.npy [IN2.npy] -o PREFIX [--backend cpu|cuda|webgpu] [--repeat "
    "N]\n"
    "  qr A                  -> PREFIX.q.npy PREFIX.r.npy       [--complete] "
    "[--positive-diagonal]\n"
    "  svd A                 -> .u .s .vh (+ .discarded_weight when truncating)\n"
    "                           [--full] [--values-only] [--canonical] [--max-rank K] [--min-rank "
    "K]\n"
    "                           [--cutoff X] [--cutoff-kind "
    "relative-sv|absolute-sv|relative-weight|absolute-weight]\n"
    "  eigh A                -> .w .v                            [--values-only]\n"
    "  eig A                 -> .w .v\n"
    "  lu A                  -> .p .l .u                         (A = P L U)\n"
    "  cholesky A            -> .l\n"
    "  solve A B             -> .x\n"
    "  triangular_solve A B  -> .x   [--upper] [--right] [--transpose|--adjoint] "
    "[--unit-diagonal]\n"
    "  lstsq A B             -> .x\n"
    "  inv A                 -> .inv\n"
    "  det A                 -> .det\n"
    "  slogdet A             -> .sign .logabsdet\n";

using Outputs = std::vector<std::pair<std::string, EagerTensor>>;

// Every op option, taken from the command line before the positionals are read (the op name
// is a positional); options an op does not take are refused afterwards.
struct OpOptions {
  std::map<std::string, bool> flags{{"complete", false},  {"positive-diagonal", false},
                                    {"full", false},      {"values-only", false},
                                    {"canonical", false}, {"upper", false},
                                    {"right", false},     {"transpose", false},
                                    {"adjoint", false},   {"unit-diagonal", false}};
  std::map<std::string, std::optional<std::string>> values{
      {"max-rank", {}}, {"min-rank", {}}, {"cutoff", {}}, {"cutoff-kind", {}}};

  void take(CommandArgs& args) {
    for (auto& [name, on] : flags) on = args.take_flag(name);
    for (auto& [name, value] : values) value = args.take_option(name);
  }
  bool flag(const std::string& name) { return used(name), flags.at(name); }
  const std::optional<std::string>& value(const std::string& name) {
    return used(name), values.at(name);
  }
  // UsageError for any option given that `op` never read.
  void refuse_unused(const std::string& op) const {
    for (const auto& [name, on] : flags)
      if (on && !read_.contains(name))
        throw UsageError("linalg " + op + " does not take --" + name);
    for (const auto& [name, value] : values)
      if (value && !read_.contains(name))
        throw UsageError("linalg " + op + " does not take --" + name);
  }

 private:
  bool used(const std::string& name) { return read_.insert(name), true; }
  std::set<std::string> read_;
};

struct PreparedCall {
  std::size_t arity = 1;
  std::function<Outputs(const std::vector<EagerTensor>&)> run;
};

PreparedCall prepare(const std::string& op, OpOptions& opt) {
  if (op == "qr") {
    linalg::QrOptions o;
    if (opt.flag("complete")) o.mode = linalg::QrMode::Complete;
    if (opt.flag("positive-diagonal")) o.gauge = linalg::QrGauge::PositiveDiagonal;
    return {1, [o](const auto& in) {
              auto r = linalg::qr(in[0], o);
              return Outputs{{"q", r.q}, {"r", r.r}};
            }};
  }
  if (op == "svd") {
    linalg::SvdOptions o;
    o.full_matrices = opt.flag("full");
    o.compute_uv = !opt.flag("values-only");
    if (opt.flag("canonical")) o.gauge = linalg::SvdGauge::Canonical;
    o.truncation = parse_svd_truncation({opt.value("max-rank"), opt.value("min-rank"),
                                         opt.value("cutoff"), opt.value("cutoff-kind")});
    return {1, [o](const auto& in) {
              auto r = linalg::svd(in[0], o);
              Outputs out;
              if (o.compute_uv) out.emplace_back("u", r.u);
              out.emplace_back("s", r.s);
              if (o.compute_uv) out.emplace_back("vh", r.vh);
              if (o.truncation.active()) out.emplace_back("discarded_weight", r.discarded_weight);
              return out;
            }};
  }
  if (op == "eigh") {
    linalg::EighOptions o;
    o.values_only = opt.flag("values-only");
    return {1, [o](const auto& in) {
              auto r = linalg::eigh(in[0], o);
              if (o.values_only) return Outputs{{"w", r.w}};
              return Outputs{{"w", r.w}, {"v", r.v}};
            }};
  }
  if (op == "eig") {
    return {1, [](const auto& in) {
              auto r = linalg::eig(in[0]);
              return Outputs{{"w", r.w}, {"v", r.v}};
            }};
  }
  if (op == "lu") {
    return {1, [](const auto& in) {
              auto r = linalg::lu(in[0]);
              return Outputs{{"p", r.p}, {"l", r.l}, {"u", r.u}};
            }};
  }
  if (op == "cholesky")
    return {1, [](const auto& in) { return Outputs{{"l", linalg::cholesky(in[0])}}; }};
  if (op == "inv") return {1, [](const auto& in) { return Outputs{{"inv", linalg::inv(in[0])}}; }};
  if (op == "det") return {1, [](const auto& in) { return Outputs{{"det", linalg::det(in[0])}}; }};
  if (op == "slogdet") {
    return {1, [](const auto& in) {
              auto r = linalg::slogdet(in[0]);
              return Outputs{{"sign", r.sign}, {"logabsdet", r.logabsdet}};
            }};
  }
  if (op == "solve")
    return {2, [](const auto& in) { return Outputs{{"x", linalg::solve(in[0], in[1])}}; }};
  if (op == "lstsq")
    return {2, [](const auto& in) { return Outputs{{"x", linalg::lstsq(in[0], in[1])}}; }};
  if (op == "triangular_solve") {
    linalg::TriangularSolveOptions o;
    o.lower = !opt.flag("upper");
    o.left = !opt.flag("right");
    const bool transpose = opt.flag("transpose"), adjoint = opt.flag("adjoint");
    if (transpose && adjoint) throw UsageError("--transpose and --adjoint exclude each other");
    if (transpose) o.transpose = linalg::TriangularOp::Transpose;
    if (adjoint) o.transpose = linalg::TriangularOp::ConjugateTranspose;
    o.unit_diagonal = opt.flag("unit-diagonal");
    return {2, [o](const auto& in) {
              return Outputs{{"x", linalg::triangular_solve(in[0], in[1], o)}};
            }};
  }
  throw UsageError("unknown linalg op '" + op + "'\n" + kUsage);
}

int run_linalg(CommandArgs& args) {
  if (args.take_flag("help")) {
    std::cout << kUsage;
    return 0;
  }
  const auto prefix = args.take_output();
  const std::string backend = args.take_option("backend").value_or("cpu");
  const auto repeat_text = args.take_option("repeat");
  const int repeat = repeat_text ? parse_repeat(*repeat_text) : 1;
  OpOptions options;
  options.take(args);
  const std::vector<std::string> positionals = args.positionals();
  if (positionals.empty()) throw UsageError(std::string("linalg needs an OP\n") + kUsage);
  const std::string& op = positionals[0];
  const PreparedCall call = prepare(op, options);
  options.refuse_unused(op);
  if (positionals.size() != call.arity + 1) {
    throw UsageError("linalg " + op + " takes " + std::to_string(call.arity) + " input file(s)\n" +
                     kUsage);
  }
  if (!prefix) throw UsageError("linalg needs -o PREFIX");

  std::vector<Tensor> hosts;
  for (std::size_t i = 1; i < positionals.size(); ++i) hosts.push_back(npy::load(positionals[i]));
  const std::shared_ptr<EagerRuntime> runtime = args.make_runtime(backend);
  std::vector<EagerTensor> inputs;
  for (const Tensor& h : hosts) inputs.push_back(runtime->upload(h));
  Outputs outputs;
  for (int i = 0; i < repeat; ++i) outputs = call.run(inputs);
  // All or nothing: every output is complete in its temporary before any is renamed into
  // place, so a failure on `.r` cannot leave a fresh `.q` beside a stale `.r`.
  io::AtomicFileSet files("linalg");
  for (const auto& [name, value] : outputs)
    files.stage(*prefix + "." + name + ".npy", npy::serialize(value.download()));
  files.commit();
  return 0;
}

}  // namespace

TENFERRO_REGISTER_COMMAND(linalg, "matrix decompositions and solvers on .npy files", run_linalg);

}  // namespace tenferro::cli
