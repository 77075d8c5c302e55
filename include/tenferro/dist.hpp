// Beyond one machine, SPMD style: every MPI rank runs the same program, holds a Context (an
// MPI communicator plus the local EagerRuntime it computes with) and calls the same
// distributed operations in the same order.
//
//   tenferro::dist::Environment mpi(&argc, &argv);          // MPI_Init / MPI_Finalize
//   auto ctx = tenferro::dist::Context::world();            // every rank, a CPU runtime each
//   dist::Matrix a = dist::scatter(*ctx, root_tensor);      // ScaLAPACK's 2-D block-cyclic
//   auto [w, z] = dist::eigh(a);                            // p?syevd / p?heevd
//   Tensor c = dist::einsum(*ctx, "ab,bc,cd->ad", inputs, {.memory_limit = 1e6});
//
// Collective safety: before any communication of an operation, the ranks compare a hash of
// what each was asked to do (op, shapes, dtypes, options); a mismatch fails every rank with
// the same Validation error naming what each rank called. Errors inside an operation (bad
// input on one rank, a numerical failure) are agreed on before the next collective step, so
// every rank throws the same typed error (that of the lowest failing rank, its message
// prefixed with the rank) instead of some ranks waiting forever. That covers what only one
// rank can see: a NaN or Inf in its part of an input a factorisation reads (Numerical, as on
// one node; ScaLAPACK and ELPA hang or abort on them), a part replaced through
// Matrix::local() by one of another shape (Validation), an allocation that fails (Resource).
//
// Built with TENFERRO_WITH_MPI (OpenMPI + ScaLAPACK from Debian), as the library
// tenferro_dist; nothing here is part of the single-node library.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "tenferro/core/tensor.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/linalg.hpp"
#include "tenferro/runtime/runtime.hpp"

#pragma GCC visibility push(default)

namespace tenferro::dist {

// MPI for the program's lifetime: initialises MPI (MPI_THREAD_SERIALIZED) unless the program
// already did, and finalises it at the end only if it initialised it.
class Environment {
 public:
  Environment(int* argc, char*** argv);
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

 private:
  bool owns_ = false;
};

// What moved between ranks, per context: explicit scatters/gathers/broadcasts and the
// reductions of distributed einsum (bytes as seen by the sending or reducing rank).
struct DistStats {
  std::uint64_t scatters = 0, gathers = 0, broadcasts = 0, reductions = 0;
  std::uint64_t bytes_sent = 0;
};

// A process grid shape; 0 x 0 means "choose": the most square rows x cols = size with
// rows <= cols.
struct GridShape {
  int rows = 0;
  int cols = 0;
};

class Context {
 public:
  // Every rank of MPI_COMM_WORLD (duplicated, so tenferro's messages never mix with the
  // program's), computing on `local` (a CPU runtime of its own when null). MPI must be
  // initialised (Environment). Collective: every rank calls it.
  static std::shared_ptr<Context> world(std::shared_ptr<EagerRuntime> local = nullptr);
  ~Context();

  int rank() const noexcept;
  int size() const noexcept;
  bool is_root() const noexcept { return rank() == 0; }
  const std::shared_ptr<EagerRuntime>& runtime() const noexcept;
  DistStats stats() const;

  struct Impl;
  Impl& impl() const noexcept { return *impl_; }

 private:
  explicit Context(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// ScaLAPACK's 2-D block-cyclic layout: blocks of block_rows x block_cols dealt round-robin
// over a grid of process rows and columns (every rank of the context is in the grid).
struct BlockCyclic {
  std::int64_t block_rows = 64;
  std::int64_t block_cols = 64;
  GridShape grid;
};

// A distributed matrix: this rank's blocks, column-major, leading dimension local_rows().
// Batch axes are not distributed: a batched computation loops over its matrices.
class Matrix {
 public:
  Matrix() = default;
  const std::shared_ptr<Context>& context() const noexcept { return ctx_; }
  DType dtype() const noexcept { return local_.dtype(); }
  std::int64_t rows() const noexcept { return rows_; }
  std::int64_t cols() const noexcept { return cols_; }
  const BlockCyclic& layout() const noexcept { return layout_; }
  // This rank's part (local_rows x local_cols, column-major; may be 0 x 0).
  const Tensor& local() const noexcept { return local_; }
  Tensor& local() noexcept { return local_; }

  struct Parts;  // for the implementation
  explicit Matrix(Parts parts);

 private:
  std::shared_ptr<Context> ctx_;
  std::int64_t rows_ = 0, cols_ = 0;
  BlockCyclic layout_;
  Tensor local_;
};

// Where this rank sits in a layout's grid and which part of a rows x cols matrix it holds, to
// build the part in place (from_local). Collective (the grid is made on first use).
struct LocalPart {
  BlockCyclic layout;               // resolved: the grid chosen
  int grid_row = 0, grid_col = 0;   // this rank's grid position
  std::int64_t rows = 0, cols = 0;  // extent of this rank's part
  // The global row (column) of local row (column) i of the part.
  std::int64_t global_row(std::int64_t i) const noexcept {
    return ((i / layout.block_rows) * layout.grid.rows + grid_row) * layout.block_rows +
           i % layout.block_rows;
  }
  std::int64_t global_col(std::int64_t j) const noexcept {
    return ((j / layout.block_cols) * layout.grid.cols + grid_col) * layout.block_cols +
           j % layout.block_cols;
  }
};
LocalPart local_part_of(const std::shared_ptr<Context>& ctx, std::int64_t rows, std::int64_t cols,
                        BlockCyclic layout = {});
// A distributed matrix from the parts its ranks already hold, nothing sent: `local` is this
// rank's LocalPart (rows x cols, column-major; copied to compact storage if it is a strided
// view, shared otherwise). Every rank passes the same rows, cols, dtype and layout; a part of
// the wrong shape on any rank is a Validation error on every rank. Collective.
Matrix from_local(const std::shared_ptr<Context>& ctx, std::int64_t rows, std::int64_t cols,
                  const Tensor& local, BlockCyclic layout = {});

// Root's `matrix` (a rank-2 host tensor; ignored on other ranks) dealt out block-cyclically.
// Counted in DistStats. Collective.
Matrix scatter(const std::shared_ptr<Context>& ctx, const Tensor& matrix, BlockCyclic layout = {});
// The whole matrix on the root (an empty tensor on other ranks). Collective.
Tensor gather(const Matrix& m);
// Root's tensor (any rank, compact or not) on every rank; on the root the result may share the
// argument's storage. Collective.
Tensor broadcast(const std::shared_ptr<Context>& ctx, const Tensor& on_root);

// Runs `fn` on the root only (reading or writing files, say) and agrees on the outcome: when it
// throws, every rank throws the same typed error. Collective.
void on_root(const std::shared_ptr<Context>& ctx, const std::function<void()>& fn);

// Distributed linear algebra on ScaLAPACK, F32/F64/C32/C64; the operands share one context
// and one block layout. Numerical failures are the same typed errors as on one node.
Matrix matmul(const Matrix& a, const Matrix& b);  // p?gemm
Matrix cholesky(const Matrix& a);                 // p?potrf, lower L
Matrix solve(const Matrix& a, const Matrix& b);   // p?gesv
// Hermitian eigen-decomposition (only the lower triangle is read; square blocks): eigenvalues
// ascending on every rank, eigenvectors distributed.
enum class EighSolver : std::uint8_t {
  Auto,       // ELPA where it applies (below) and the library was built with it, else ScaLAPACK
  ScaLapack,  // p?syevd / p?heevd
  Elpa,       // ELPA's two-stage solver: F64/C64 only (Debian's ELPA has no single precision)
              // and every process row and column holding a block; Unsupported otherwise or
              // when the library was built without ELPA
};
struct EighOptions {
  EighSolver solver = EighSolver::Auto;
};
std::pair<Tensor, Matrix> eigh(const Matrix& a, const EighOptions& options = {});
// True when the library was built with ELPA.
bool elpa_available() noexcept;
std::pair<Matrix, Matrix> qr(const Matrix& a);  // thin: p?geqrf + p?orgqr

// Thin SVD on p?gesvd (square blocks). Truncation and gauge follow the single-node
// linalg::svd exactly: the same rank rule (max_rank, cutoff, min_rank) on the singular values,
// the same canonical gauge. p?gesvd computes every singular triple; truncation keeps the
// leading r of them (it saves memory after the call, not work in it).
struct SvdOptions {
  bool compute_uv = true;  // false: singular values only (u and vh stay empty)
  linalg::SvdTruncation truncation;
  linalg::SvdGauge gauge = linalg::SvdGauge::Raw;
};
struct SvdResult {
  Matrix u;                     // m x r (r = min(m, n) without truncation)
  Tensor s;                     // r singular values, descending, real dtype, on every rank
  Matrix vh;                    // r x n
  double discarded_weight = 0;  // sum of the squared dropped singular values
};
SvdResult svd(const Matrix& a, const SvdOptions& options = {});

// LU with partial pivoting on p?getrf (square blocks): row perm[i] of A is row i of L U, i.e.
// A = P L U with P(perm[i], i) = 1 (linalg::lu's convention). L is m x k unit lower
// trapezoidal, U is k x n upper trapezoidal, k = min(m, n). A singular A is not an error.
struct LuResult {
  Matrix l;
  Matrix u;
  std::vector<std::int64_t> perm;  // on every rank
};
LuResult lu(const Matrix& a);

// A contraction split over the ranks by slices: every rank holds all `operands` (host
// tensors, identical on every rank, e.g. from broadcast), the root's plan (its path and
// slicing under options.memory_limit) is used by every rank, each rank contracts its range
// of slices on its local runtime, and the partial outputs are summed in place with one
// MPI_Allreduce. The result is on every rank. Collective. Any local runtime runs an unsliced
// plan; a sliced one runs on the CPU backend only (as on one node), so when any rank's runtime
// is not a CPU one every rank throws Unsupported before any rank contracts.
Tensor einsum(const std::shared_ptr<Context>& ctx, std::string_view subscripts,
              std::span<const Tensor> operands, const EinsumOptions& options = {});

}  // namespace tenferro::dist

#pragma GCC visibility pop
