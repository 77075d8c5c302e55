// Error classes: shape problems are Validation errors raised before anything runs; non-finite
// input is a Numerical error naming the op and batch entry, raised before LAPACK is called
// (the process-wide CPU kernel counter does not move).
#include <cmath>

#include "linalg_test_util.hpp"

namespace {

using namespace linalg_test;
namespace la = tenferro::linalg;
using tenferro::ErrorKind;

struct NamedCall {
  std::string op;
  std::function<void()> run;
};

TEST(LinalgErrors, ShapeProblemsAreValidationErrors) {
  auto rt = tenferro::EagerRuntime::cpu();
  const EagerTensor vec = rt->upload(random_tensor(DType::F64, {4}, 1));
  const EagerTensor wide = rt->upload(random_tensor(DType::F64, {3, 4}, 2));
  const EagerTensor sq = rt->upload(random_tensor(DType::F64, {3, 3, 2}, 3));
  const EagerTensor rhs_rows = rt->upload(random_tensor(DType::F64, {4, 2}, 4));  // rows 4 != 3
  const EagerTensor rhs_batch =
      rt->upload(random_tensor(DType::F64, {3, 1, 5}, 5));  // batch 5 != 2
  const EagerTensor rhs_f32 = rt->upload(random_tensor(DType::F32, {3, 1, 2}, 6));
  const EagerTensor rhs_rank = rt->upload(random_tensor(DType::F64, {3, 1, 2, 1}, 7));
  const std::vector<NamedCall> calls{
      {"linalg.qr", [&] { la::qr(vec); }},
      {"linalg.svd", [&] { la::svd(vec); }},
      {"linalg.lu", [&] { la::lu(vec); }},
      {"linalg.eigh", [&] { la::eigh(wide); }},
      {"linalg.eig", [&] { la::eig(wide); }},
      {"linalg.cholesky", [&] { la::cholesky(wide); }},
      {"linalg.inv", [&] { la::inv(wide); }},
      {"linalg.det", [&] { la::det(wide); }},
      {"linalg.slogdet", [&] { la::slogdet(wide); }},
      {"linalg.solve", [&] { la::solve(wide, rhs_rows); }},
      {"linalg.solve", [&] { la::solve(sq, rhs_rows); }},
      {"linalg.solve", [&] { la::solve(sq, rhs_batch); }},
      {"linalg.solve", [&] { la::solve(sq, rhs_f32); }},
      {"linalg.solve", [&] { la::solve(sq, rhs_rank); }},
      {"linalg.triangular_solve", [&] { la::triangular_solve(wide, rhs_rows); }},
      {"linalg.triangular_solve", [&] { la::triangular_solve(sq, rhs_batch); }},
      {"linalg.lstsq", [&] { la::lstsq(wide, rhs_rows); }},
      {"linalg.lstsq", [&] { la::lstsq(sq, rhs_f32); }},
  };
  const auto launches = tenferro::process_cpu_kernel_launches();
  for (const NamedCall& c : calls) {
    const tenferro::Error e = expect_error(c.run, ErrorKind::Validation);
    EXPECT_EQ(e.op(), c.op);
    EXPECT_EQ(e.phase(), tenferro::ErrorPhase::Input) << e.what();
  }
  EXPECT_EQ(tenferro::process_cpu_kernel_launches(), launches) << "no kernel ran";
  EXPECT_EQ(rt->stats().module_installs, 0u) << "nothing was installed for a malformed call";
}

TEST(LinalgErrors, NonFiniteInputIsNumericalBeforeLapack) {
  auto rt = tenferro::EagerRuntime::cpu();
  for (DType d : tenferro::kAllDTypes) {
    for (double bad :
         {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
      SCOPED_TRACE(std::string(tenferro::dtype_name(d)) + " " + std::to_string(bad));
      // Batch [3]: entry 2 holds the bad value on its diagonal (read by every op).
      Mats a{3, 3, 3, widen(random_tensor(d, {3, 3, 3}, 9))};
      for (std::int64_t b = 0; b < 3; ++b)
        for (std::int64_t i = 0; i < 3; ++i) a.at(b, i, i) += 4.0;
      a.at(2, 1, 1) = bad;
      const EagerTensor ea = rt->upload(tensor_from(d, {3, 3, 3}, a.data));
      const EagerTensor good = rt->upload(tensor_from(d, {3, 3, 3}, identity(3, 3).data));
      Mats rhs{3, 2, 3, widen(random_tensor(d, {3, 2, 3}, 10))};
      rhs.at(2, 0, 1) = bad;
      const EagerTensor eb = rt->upload(tensor_from(d, {3, 2, 3}, rhs.data));
      const EagerTensor fine_b = rt->upload(random_tensor(d, {3, 2, 3}, 11));
      const std::vector<NamedCall> calls{
          {"linalg.qr", [&] { la::qr(ea); }},
          {"linalg.svd", [&] { la::svd(ea); }},
          {"linalg.eigh", [&] { la::eigh(ea); }},
          {"linalg.eig", [&] { la::eig(ea); }},
          {"linalg.lu", [&] { la::lu(ea); }},
          {"linalg.cholesky", [&] { la::cholesky(ea); }},
          {"linalg.solve", [&] { la::solve(ea, fine_b); }},
          {"linalg.solve", [&] { la::solve(good, eb); }},
          {"linalg.triangular_solve", [&] { la::triangular_solve(ea, fine_b); }},
          {"linalg.triangular_solve", [&] { la::triangular_solve(good, eb); }},
          {"linalg.lstsq", [&] { la::lstsq(ea, fine_b); }},
          {"linalg.lstsq", [&] { la::lstsq(good, eb); }},
          {"linalg.inv", [&] { la::inv(ea); }},
          {"linalg.det", [&] { la::det(ea); }},
          {"linalg.slogdet", [&] { la::slogdet(ea); }},
      };
      for (const NamedCall& c : calls) {
        const auto launches = tenferro::process_cpu_kernel_launches();
        const tenferro::Error e = expect_error(c.run, ErrorKind::Numerical);
        EXPECT_EQ(e.op(), c.op);
        EXPECT_EQ(e.phase(), tenferro::ErrorPhase::Execute);
        EXPECT_NE(std::string(e.what()).find("batch entry 2"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("non-finite"), std::string::npos) << e.what();
        EXPECT_EQ(tenferro::process_cpu_kernel_launches(), launches)
            << c.op << ": LAPACK was called";
      }
    }
  }
}

TEST(LinalgErrors, NonFiniteInTheUnreadTriangleIsIgnored) {
  auto rt = tenferro::EagerRuntime::cpu();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Lower triangle [[4, .], [2, 3]] with NaN above the diagonal: eigh and cholesky read only L.
  const EagerTensor a = rt->upload(Tensor::from_col_major<double>({2, 2}, {4, 2, nan, 3}));
  // [[4, 2], [2, 3]]: eigenvalues (7 -+ sqrt(17)) / 2, Cholesky factor [[2, 0], [1, sqrt(2)]].
  const std::vector<double> w = la::eigh(a).w.download().to_vector<double>();
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NEAR(w[0], (7 - std::sqrt(17.0)) / 2, 1e-14);
  EXPECT_NEAR(w[1], (7 + std::sqrt(17.0)) / 2, 1e-14);
  const std::vector<double> l = la::cholesky(a).download().to_vector<double>();
  ASSERT_EQ(l.size(), 4u);
  EXPECT_NEAR(l[0], 2, 1e-15);
  EXPECT_NEAR(l[1], 1, 1e-15);
  EXPECT_EQ(l[2], 0) << "the upper part is zero, not the NaN that was there";
  EXPECT_NEAR(l[3], std::sqrt(2.0), 1e-15);
}

}  // namespace
