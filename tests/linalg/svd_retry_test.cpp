// The gesdd -> gesvd retry: a non-convergent gesdd (injected, see svd_fault_injection.hpp) is
// retried through gesvd, counted in RuntimeStats::numerical_retries, and still yields a valid
// SVD; when gesvd fails too the call is a Numerical error naming the batch entry.
#include "linalg_test_util.hpp"
#include "ops/linalg/cpu/svd_fault_injection.hpp"

namespace {

using namespace linalg_test;
namespace la = tenferro::linalg;
using tenferro::linalg_cpu::inject_gesdd_failures_for_testing;
using tenferro::linalg_cpu::inject_gesvd_failures_for_testing;

struct ResetInjection {
  ~ResetInjection() {
    inject_gesdd_failures_for_testing(0);
    inject_gesvd_failures_for_testing(0);
  }
};

TEST(LinalgSvdRetry, GesvdTakesOverAndIsCounted) {
  ResetInjection reset;
  auto rt = tenferro::EagerRuntime::cpu();
  for (DType d : tenferro::kAllDTypes) {
    // 40 rows: past the batched Jacobi kernels' 32 (backends/cpu/jacobi_svd.hpp), so that every
    // entry reaches gesdd whatever the vector lanes.
    const EagerTensor a = rt->upload(random_tensor(d, {40, 3, 3}, 4));
    const auto before = rt->stats().numerical_retries;
    inject_gesdd_failures_for_testing(2);  // batch entries 0 and 1
    const la::SvdResult r = la::svd(a);
    EXPECT_EQ(rt->stats().numerical_retries, before + 2);
    const Mats am = matrices(a), um = matrices(r.u), sm = vectors(r.s), vm = matrices(r.vh);
    Mats usv = um;
    for (std::int64_t b = 0; b < um.batch; ++b)
      for (std::int64_t j = 0; j < um.cols; ++j)
        for (std::int64_t i = 0; i < um.rows; ++i) usv.at(b, i, j) *= sm.at(b, j, 0);
    expect_close(multiply(usv, vm), am, tol(d, 5), 0, "A = U S Vh after the retry");
    expect_close(multiply(adjoint(um), um), identity(3, 3), tol(d, 5), 0, "U^H U = I");
  }
}

// la::svd of `batch` random 40x4 matrices with the next `failures` calls of both drivers failing
// (40 rows: past the batched Jacobi kernels' 32, so that every entry goes through LAPACK's
// drivers, which these tests are about).
tenferro::Error svd_with_both_drivers_failing(const std::shared_ptr<tenferro::EagerRuntime>& rt,
                                              std::int64_t batch, int failures,
                                              std::uint32_t seed) {
  const EagerTensor a = rt->upload(random_tensor(DType::F64, {40, 4, batch}, seed));
  inject_gesdd_failures_for_testing(failures);
  inject_gesvd_failures_for_testing(failures);
  return expect_error([&] { la::svd(a); }, tenferro::ErrorKind::Numerical);
}

TEST(LinalgSvdRetry, BothDriversFailingIsNumerical) {
  ResetInjection reset;
  auto rt = tenferro::EagerRuntime::cpu();
  // One batch entry: the injected failures go to the next driver calls in time, and a batch
  // split over threads (LinalgThreadsSplit) makes "next" any entry's.
  const tenferro::Error e = svd_with_both_drivers_failing(rt, 1, 1, 5);
  EXPECT_EQ(e.op(), "linalg.svd");
  EXPECT_NE(std::string(e.what()).find("batch entry 0"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("did not converge"), std::string::npos) << e.what();
  EXPECT_EQ(rt->stats().numerical_retries, 1u);
}

// Every entry failing both drivers: the error names the first, as the sequential loop would,
// however the batch is split over threads (ops/linalg/cpu/batch_chunks.hpp).
TEST(LinalgSvdRetry, EveryEntryFailingNamesTheFirst) {
  ResetInjection reset;
  auto rt = tenferro::EagerRuntime::cpu();
  const tenferro::Error e = svd_with_both_drivers_failing(rt, 7, 7, 6);
  EXPECT_NE(std::string(e.what()).find("batch entry 0 "), std::string::npos) << e.what();
  EXPECT_GE(rt->stats().numerical_retries, 1u);
}

}  // namespace
