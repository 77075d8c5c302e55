// `mpirun -np N tenferro dist linalg OP IN.npy [IN2.npy] -o PREFIX [--block N] [--grid RxC]` and
// `mpirun -np N tenferro dist einsum SUBSCRIPTS IN.npy... -o OUT.npy [--memory-limit X]
// [--path auto|greedy|optimal|hyper] [--seed N]`: the root reads the .npy files, the ranks
// compute together (ScaLAPACK / sliced einsum on MPI) and the root writes the results. Every
// rank runs the same command line; an error on any rank is the same error on every rank.
// Built when TENFERRO_WITH_MPI is on.
#include <iostream>
#include <map>
#include <optional>

#include "cli/command_registry.hpp"
#include "cli/svd_truncation_args.hpp"
#include "tenferro/core/npy.hpp"
#include "tenferro/dist.hpp"

namespace tenferro::cli {
namespace {

constexpr const char* kUsage =
    "usage: mpirun -np N tenferro dist linalg OP IN.npy [IN2.npy] -o PREFIX [--block N] "
    "[--grid RxC]\n"
    "         OP: matmul A B -> .c | cholesky A -> .l | solve A B -> .x |\n"
    "             eigh A -> .w .v [--solver auto|scalapack|elpa] |\n"
    "             qr A -> .q .r | lu A -> .perm .l .u (A[perm] = L U) |\n"
    "             svd A -> .u .s .vh [.discarded_weight] [--values-only] [--canonical]\n"
    "               [--max-rank K] [--min-rank K] [--cutoff X] [--cutoff-kind relative-sv|\n"
    "               absolute-sv|relative-weight|absolute-weight]\n"
    "       mpirun -np N tenferro dist einsum SUBSCRIPTS IN.npy... -o OUT.npy\n"
    "         [--memory-limit ELEMENTS] [--path auto|greedy|optimal|hyper] [--seed N]\n";

dist::GridShape parse_grid(const std::string& text) {
  const auto x = text.find('x');
  if (x == std::string::npos) throw UsageError("--grid must be ROWSxCOLS, not '" + text + "'");
  return {static_cast<int>(parse_int("grid", text.substr(0, x))),
          static_cast<int>(parse_int("grid", text.substr(x + 1)))};
}

// The root's files, read on the root (an unreadable file fails every rank).
std::vector<Tensor> read_on_root(const std::shared_ptr<dist::Context>& ctx,
                                 const std::vector<std::string>& paths) {
  std::vector<Tensor> hosts(paths.size());
  dist::on_root(ctx, [&] {
    for (std::size_t k = 0; k < paths.size(); ++k) hosts[k] = npy::load(paths[k]);
  });
  return hosts;
}

int run_linalg(CommandArgs& args, const std::shared_ptr<dist::Context>& ctx) {
  const auto output = args.take_output();
  dist::BlockCyclic layout;
  if (const auto block = args.take_option("block")) {
    layout.block_rows = layout.block_cols = parse_int("block", *block);
  }
  if (const auto grid = args.take_option("grid")) layout.grid = parse_grid(*grid);
  dist::SvdOptions svd_options;
  svd_options.compute_uv = !args.take_flag("values-only");
  if (args.take_flag("canonical")) svd_options.gauge = linalg::SvdGauge::Canonical;
  svd_options.truncation =
      parse_svd_truncation({args.take_option("max-rank"), args.take_option("min-rank"),
                            args.take_option("cutoff"), args.take_option("cutoff-kind")});
  const bool svd_options_given =
      !svd_options.compute_uv || svd_options.gauge != linalg::SvdGauge::Raw ||
      svd_options.truncation.active() || svd_options.truncation.min_rank != 0;
  dist::EighOptions eigh_options;
  const auto solver = args.take_option("solver");
  if (solver) {
    const std::map<std::string, dist::EighSolver> solvers{
        {"auto", dist::EighSolver::Auto},
        {"scalapack", dist::EighSolver::ScaLapack},
        {"elpa", dist::EighSolver::Elpa}};
    const auto it = solvers.find(*solver);
    if (it == solvers.end()) throw UsageError("--solver must be auto, scalapack or elpa");
    eigh_options.solver = it->second;
  }
  const auto op = args.take_first_positional();
  const std::vector<std::string> inputs = args.positionals();
  if (op && *op != "svd" && svd_options_given) {
    throw UsageError("only dist linalg svd takes the SVD options");
  }
  if (op && *op != "eigh" && solver) throw UsageError("only dist linalg eigh takes --solver");
  if (!op || !output)
    throw UsageError(std::string("dist linalg needs OP, inputs and -o\n") + kUsage);
  const std::map<std::string, std::size_t> arity{
      {"matmul", 2}, {"cholesky", 1}, {"solve", 2}, {"eigh", 1}, {"qr", 1}, {"lu", 1}, {"svd", 1}};
  const auto it = arity.find(*op);
  if (it == arity.end()) throw UsageError("unknown dist linalg op '" + *op + "'\n" + kUsage);
  if (inputs.size() != it->second) {
    throw UsageError(*op + " takes " + std::to_string(it->second) + " input(s)");
  }
  const std::vector<Tensor> hosts = read_on_root(ctx, inputs);
  std::vector<dist::Matrix> m;
  for (const Tensor& h : hosts) m.push_back(dist::scatter(ctx, h, layout));
  std::vector<std::pair<std::string, Tensor>> out;
  if (*op == "matmul") out.emplace_back("c", dist::gather(dist::matmul(m[0], m[1])));
  if (*op == "cholesky") out.emplace_back("l", dist::gather(dist::cholesky(m[0])));
  if (*op == "solve") out.emplace_back("x", dist::gather(dist::solve(m[0], m[1])));
  if (*op == "eigh") {
    auto [w, v] = dist::eigh(m[0], eigh_options);
    out.emplace_back("w", w);
    out.emplace_back("v", dist::gather(v));
  }
  if (*op == "qr") {
    auto [q, r] = dist::qr(m[0]);
    out.emplace_back("q", dist::gather(q));
    out.emplace_back("r", dist::gather(r));
  }
  if (*op == "lu") {
    dist::LuResult r = dist::lu(m[0]);
    // The permutation as float64 (exact below 2^53), the type every .npy reader takes.
    std::vector<double> perm(r.perm.begin(), r.perm.end());
    out.emplace_back(
        "perm", Tensor::from_col_major<double>({static_cast<std::int64_t>(perm.size())}, perm));
    out.emplace_back("l", dist::gather(r.l));
    out.emplace_back("u", dist::gather(r.u));
  }
  if (*op == "svd") {
    dist::SvdResult r = dist::svd(m[0], svd_options);
    if (svd_options.compute_uv) out.emplace_back("u", dist::gather(r.u));
    out.emplace_back("s", r.s);
    if (svd_options.compute_uv) out.emplace_back("vh", dist::gather(r.vh));
    if (svd_options.truncation.active()) {
      out.emplace_back("discarded_weight", Tensor::scalar<double>(r.discarded_weight));
    }
  }
  dist::on_root(ctx, [&] {
    for (const auto& [name, t] : out) npy::save(*output + "." + name + ".npy", t);
  });
  return 0;
}

int run_einsum(CommandArgs& args, const std::shared_ptr<dist::Context>& ctx) {
  const auto output = args.take_output();
  EinsumOptions options;
  if (const auto limit = args.take_option("memory-limit")) {
    options.memory_limit = parse_double("memory-limit", *limit);
  }
  if (const auto path = args.take_option("path")) options.planner = *path;
  if (const auto seed = args.take_option("seed")) {
    options.seed = static_cast<std::uint64_t>(parse_int("seed", *seed));
  }
  const auto subscripts = args.take_first_positional();
  const std::vector<std::string> inputs = args.positionals();
  if (!subscripts || inputs.empty() || !output) {
    throw UsageError(std::string("dist einsum needs SUBSCRIPTS, inputs and -o\n") + kUsage);
  }
  std::vector<Tensor> operands;
  for (const Tensor& h : read_on_root(ctx, inputs)) operands.push_back(dist::broadcast(ctx, h));
  const Tensor result = dist::einsum(ctx, *subscripts, operands, options);
  dist::on_root(ctx, [&] { npy::save(*output, result); });
  return 0;
}

int run_dist(CommandArgs& args) {
  if (args.take_flag("help")) {
    std::cout << kUsage;
    return 0;
  }
  const auto what = args.take_first_positional();
  if (!what || (*what != "linalg" && *what != "einsum")) {
    throw UsageError(std::string("dist needs linalg or einsum\n") + kUsage);
  }
  dist::Environment mpi(nullptr, nullptr);
  int status = 0;
  {
    const auto ctx = dist::Context::world();
    status = *what == "linalg" ? run_linalg(args, ctx) : run_einsum(args, ctx);
  }
  return status;
}

}  // namespace

TENFERRO_REGISTER_COMMAND(dist, "run linalg or einsum over MPI ranks (under mpirun)", run_dist);

}  // namespace tenferro::cli
