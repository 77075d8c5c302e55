// The distributed layer's benchmark, run under mpirun (bench/dist/run.sh runs 1, 2, 4 ranks):
//   mpirun -np N dist_bench [--n 800] [--block 64] [--repeat 5] [--bond 32]
//                           [--only svd|eigh|elpa|einsum] [--dry 1]
// Cases: svd and eigh of an n x n F64 matrix (ScaLAPACK p?gesvd; p?syevd and ELPA when
// built), and a sliced einsum (the complete graph on four order-3 tensors of bond dimension d,
// "abc,cde,efa,bdf->", whose d^4 intermediates are limited to d^3 elements, so it is cut into
// slices the ranks share). Each case is timed between barriers (the operands are already
// distributed); the root prints the median of the repeats, the bytes this rank sent, and at
// one rank the same op on the single-node CPU runtime (LAPACK / the single-node einsum) with
// the ratio dist / single, taken side by side (the runs interleaved). Single-node svd is
// gesdd (divide and conquer), p?gesvd is QR iteration: that ratio includes the algorithm, so
// svd also reports LAPACK's dgesvd, the same algorithm; eigh is syevd against p?syevd.
// --only runs one case (eigh: p?syevd, elpa: ELPA); --dry 1 does that case's setup (the scatter)
// but not the op, so the message volume of the op alone is that of a run minus that of its dry run
// (measured with OpenMPI's monitoring component by bench/dist/volumes.sh).
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tenferro/dist.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/linalg.hpp"

namespace tf = tenferro;

extern "C" void dgesvd_(const char* jobu, const char* jobvt, const int* m, const int* n, double* a,
                        const int* lda, double* s, double* u, const int* ldu, double* vt,
                        const int* ldvt, double* work, const int* lwork, int* info, std::size_t,
                        std::size_t);

namespace {

struct Args {
  std::int64_t n = 800, block = 64, bond = 32;
  int repeat = 5;
  std::string only;  // empty: every case
  bool dry = false;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    if (key == "--only") {
      a.only = argv[i + 1];
      continue;
    }
    const long long v = std::stoll(argv[i + 1]);
    if (key == "--n") a.n = v;
    if (key == "--block") a.block = v;
    if (key == "--bond") a.bond = v;
    if (key == "--repeat") a.repeat = static_cast<int>(v);
    if (key == "--dry") a.dry = v != 0;
  }
  return a;
}

tf::Tensor random(std::int64_t rows, std::int64_t cols, std::uint64_t seed, bool symmetric) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> v(static_cast<std::size_t>(rows * cols));
  for (auto& x : v) x = u(rng);
  if (symmetric) {
    for (std::int64_t j = 0; j < cols; ++j)
      for (std::int64_t i = 0; i < j; ++i) v[j * rows + i] = v[i * rows + j];
  }
  return tf::Tensor::from_col_major<double>({rows, cols}, v);
}

// Median seconds of `repeat` runs of each of `bodies` (null ones skipped: 0), interleaved (a,
// b, a, b, ...) so that a change in the machine's load hits them alike; each run between
// barriers so every rank is timed from a common start to the last rank's end.
std::vector<double> median_seconds(int repeat, const std::vector<std::function<void()>>& bodies) {
  std::vector<std::vector<double>> t(bodies.size());
  auto timed = [](const std::function<void()>& f) {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = std::chrono::steady_clock::now();
    f();
    MPI_Barrier(MPI_COMM_WORLD);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  for (int r = 0; r < repeat; ++r) {
    for (std::size_t k = 0; k < bodies.size(); ++k)
      if (bodies[k]) t[k].push_back(timed(bodies[k]));
  }
  std::vector<double> medians;
  for (auto& v : t) {
    std::sort(v.begin(), v.end());
    medians.push_back(v.empty() ? 0.0 : v[v.size() / 2]);
  }
  return medians;
}

std::pair<double, double> median_seconds(int repeat, const std::function<void()>& body,
                                         const std::function<void()>& other = nullptr) {
  const std::vector<double> m = median_seconds(repeat, {body, other});
  return {m[0], m[1]};
}

// LAPACK's dgesvd (QR iteration, the algorithm of p?gesvd; the single-node linalg::svd is
// gesdd), on a copy: the 1-rank ScaLAPACK overhead for the same algorithm.
void lapack_gesvd(const tf::Tensor& a) {
  const int n = static_cast<int>(a.shape()[0]);
  std::vector<double> copy(static_cast<std::size_t>(a.numel()));
  std::memcpy(copy.data(), a.raw_data(), copy.size() * sizeof(double));
  std::vector<double> s(static_cast<std::size_t>(n)), u(copy.size()), vt(copy.size());
  double query = 0;
  int lwork = -1, info = 0;
  char job = 'S';
  dgesvd_(&job, &job, &n, &n, copy.data(), &n, s.data(), u.data(), &n, vt.data(), &n, &query,
          &lwork, &info, 1, 1);
  std::vector<double> work(static_cast<std::size_t>(query));
  lwork = static_cast<int>(query);
  dgesvd_(&job, &job, &n, &n, copy.data(), &n, s.data(), u.data(), &n, vt.data(), &n, work.data(),
          &lwork, &info, 1, 1);
}

void report(const std::shared_ptr<tf::dist::Context>& ctx, const std::string& name, double dist_s,
            double single_s, std::uint64_t bytes, double gesvd_s = 0) {
  if (!ctx->is_root()) return;
  std::printf("{\"case\": \"%s\", \"ranks\": %d, \"dist_s\": %.6f, \"bytes_sent_root\": %llu",
              name.c_str(), ctx->size(), dist_s, static_cast<unsigned long long>(bytes));
  if (single_s > 0) {
    std::printf(", \"single_s\": %.6f, \"dist_over_single\": %.3f", single_s, dist_s / single_s);
  }
  if (gesvd_s > 0) {
    std::printf(", \"lapack_gesvd_s\": %.6f, \"dist_over_gesvd\": %.3f", gesvd_s, dist_s / gesvd_s);
  }
  std::printf("}\n");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  tf::dist::Environment mpi(&argc, &argv);
  const Args args = parse(argc, argv);
  const auto ctx = tf::dist::Context::world();
  const bool alone = ctx->size() == 1;
  auto rt = ctx->runtime();
  const tf::dist::BlockCyclic layout{args.block, args.block, {}};
  const std::string n = std::to_string(args.n);

  auto wanted = [&](const char* name) { return args.only.empty() || args.only == name; };
  auto sent = [&] { return ctx->stats().bytes_sent; };
  std::uint64_t before = 0;
  double d = 0, s = 0;

  if (wanted("svd")) {
    const tf::Tensor a = random(args.n, args.n, 1, false);
    const tf::dist::Matrix da = tf::dist::scatter(ctx, ctx->is_root() ? a : tf::Tensor(), layout);
    if (!args.dry) {
      before = sent();
      std::function<void()> single, gesvd;
      if (alone) {
        single = [&] { (void)tf::linalg::svd(rt->upload(a)); };
        gesvd = [&] { lapack_gesvd(a); };
      }
      const std::vector<double> m =
          median_seconds(args.repeat, {[&] { (void)tf::dist::svd(da); }, single, gesvd});
      report(ctx, "svd " + n, m[0], m[1], sent() - before, m[2]);
    }
  }

  if (wanted("eigh") || wanted("elpa")) {
    const tf::Tensor h = random(args.n, args.n, 2, true);
    const tf::dist::Matrix dh = tf::dist::scatter(ctx, ctx->is_root() ? h : tf::Tensor(), layout);
    if (!args.dry) {
      std::function<void()> single;
      if (alone) single = [&] { (void)tf::linalg::eigh(rt->upload(h)); };
      std::vector<std::pair<std::string, tf::dist::EighSolver>> solvers;
      if (wanted("eigh")) solvers.emplace_back("scalapack", tf::dist::EighSolver::ScaLapack);
      if (wanted("elpa") && tf::dist::elpa_available())
        solvers.emplace_back("elpa", tf::dist::EighSolver::Elpa);
      for (const auto& [name, solver] : solvers) {
        before = sent();
        std::tie(d, s) = median_seconds(
            args.repeat, [&] { (void)tf::dist::eigh(dh, {solver}); }, single);
        report(ctx, "eigh " + name + " " + n, d, s, sent() - before);
      }
    }
  }

  if (wanted("einsum")) {
    const std::int64_t b = args.bond;
    std::vector<tf::Tensor> tensors;
    for (std::uint64_t k = 0; k < 4; ++k) {
      tensors.push_back(random(b * b, b, 10 + k, false).reshape({b, b, b}));
    }
    tf::EinsumOptions options;
    options.memory_limit = static_cast<double>(b * b * b);
    const std::string eq = "abc,cde,efa,bdf->";
    std::vector<tf::Shape> shapes(4, tf::Shape{b, b, b});
    const tf::EinsumPath path = tf::einsum_path(eq, shapes, options);
    if (!args.dry) {
      before = sent();
      std::vector<tf::EagerTensor> eager;
      for (const tf::Tensor& t : tensors) eager.push_back(rt->upload(t));
      std::function<void()> single;
      if (alone) single = [&] { (void)tf::einsum(eq, eager, options).download(); };
      std::tie(d, s) = median_seconds(
          args.repeat, [&] { (void)tf::dist::einsum(ctx, eq, tensors, options); }, single);
      report(ctx,
             "einsum K4 bond " + std::to_string(b) + " slices " +
                 std::to_string(static_cast<long long>(path.num_slices)),
             d, s, sent() - before);
    }
  }
  return 0;
}
