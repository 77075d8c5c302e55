// triangular_solve: every (lower, left, transpose, unit_diagonal) combination checked by the
// residual of the system it names; only the selected triangle is read.
#include "linalg_test_util.hpp"

namespace {

using namespace linalg_test;
namespace la = tenferro::linalg;

Mats op_of(const Mats& a, la::TriangularOp op) {
  if (op == la::TriangularOp::None) return a;
  Mats t = adjoint(a);
  if (op == la::TriangularOp::Transpose)
    for (cd& v : t.data) v = std::conj(v);
  return t;
}

Mats matrices_or_row(const EagerTensor& t, bool row) {
  if (!row) return matrices(t);
  const Mats v = vectors(t);
  return Mats{1, v.rows, v.batch, v.data};
}

TEST(LinalgTriangularSolve, AllOptionCombinations) {
  auto rt = tenferro::EagerRuntime::cpu();
  std::uint32_t seed = 1;
  const la::TriangularOp ops[] = {la::TriangularOp::None, la::TriangularOp::Transpose,
                                  la::TriangularOp::ConjugateTranspose};
  for (DType d : tenferro::kAllDTypes)
    for (const Shape& batch : {Shape{}, Shape{3}, Shape{2, 3}, Shape{0}})
      for (std::int64_t n : {0, 1, 4})
        for (bool lower : {true, false})
          for (bool left : {true, false})
            for (la::TriangularOp op : ops)
              for (bool unit : {false, true})
                for (std::int64_t k : {-1, 2}) {
                  SCOPED_TRACE(case_name(d, batch, n, n) + " lower " + std::to_string(lower) +
                               " left " + std::to_string(left) + " op " + std::to_string(int(op)) +
                               " unit " + std::to_string(unit) + " k " + std::to_string(k));
                  const Shape a_shape = with_batch({n, n}, batch);
                  Mats stored{n, n, product(a_shape, 2), widen(random_tensor(d, a_shape, seed++))};
                  Mats effective = stored;  // the triangular matrix the call must use
                  for (std::int64_t b = 0; b < stored.batch; ++b)
                    for (std::int64_t j = 0; j < n; ++j)
                      for (std::int64_t i = 0; i < n; ++i) {
                        if (i == j) {
                          stored.at(b, i, j) += 3.0;  // well conditioned
                          effective.at(b, i, j) = unit ? cd(1) : stored.at(b, i, j);
                          if (unit) stored.at(b, i, j) = cd(1e4, 3);  // never read
                        } else if ((i > j) != lower) {
                          effective.at(b, i, j) = 0;
                          stored.at(b, i, j) = cd(-1e4, 7);  // the other triangle: never read
                        } else {
                          effective.at(b, i, j) = stored.at(b, i, j);
                        }
                      }
                  // The effective matrix in the dtype's precision.
                  effective =
                      Mats{n, n, effective.batch, widen(tensor_from(d, a_shape, effective.data))};
                  const Shape b_shape =
                      k < 0 ? with_batch({n}, batch)
                            : (left ? with_batch({n, k}, batch) : with_batch({k, n}, batch));
                  const EagerTensor a = rt->upload(tensor_from(d, a_shape, stored.data));
                  const EagerTensor b = rt->upload(random_tensor(d, b_shape, seed++));
                  la::TriangularSolveOptions o{lower, left, op, unit};
                  const EagerTensor x = la::triangular_solve(a, b, o);
                  ASSERT_EQ(x.shape(), b_shape);
                  const Mats opa = op_of(effective, op);
                  if (left) {
                    const Mats xm = k < 0 ? vectors(x) : matrices(x),
                               bm = k < 0 ? vectors(b) : matrices(b);
                    expect_close(multiply(opa, xm), bm, tol(d, n), norm(opa, 0), "op(A) X = B");
                  } else {
                    // A vector is a row here: the same data read as a [1, n] matrix.
                    Mats xm = matrices_or_row(x, k < 0), bm = matrices_or_row(b, k < 0);
                    expect_close(multiply(xm, opa), bm, tol(d, n), norm(opa, 0), "X op(A) = B");
                  }
                }
}

TEST(LinalgTriangularSolve, ZeroDiagonalIsNumerical) {
  auto rt = tenferro::EagerRuntime::cpu();
  const EagerTensor a =
      rt->upload(Tensor::from_col_major<float>({2, 2, 2}, {1, 1, 0, 1, 1, 1, 0, 0}));
  const EagerTensor b = rt->upload(Tensor::from_col_major<float>({2, 2}, {1, 1, 1, 1}));
  const tenferro::Error e =
      expect_error([&] { la::triangular_solve(a, b); }, tenferro::ErrorKind::Numerical);
  EXPECT_NE(std::string(e.what()).find("batch entry 1"), std::string::npos) << e.what();
  // With a unit diagonal the zero is never read.
  la::TriangularSolveOptions unit;
  unit.unit_diagonal = true;
  // Both entries then read as [[1, 0], [1, 1]]: forward substitution of (1, 1) gives (1, 0).
  const Tensor x = la::triangular_solve(a, b, unit).download();
  ASSERT_EQ(x.shape(), (tenferro::Shape{2, 2}));
  EXPECT_EQ(x.to_vector<float>(), (std::vector<float>{1, 0, 1, 0}));
}

}  // namespace
