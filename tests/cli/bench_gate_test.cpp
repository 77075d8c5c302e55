// The bench gate, driven with cases of our own: each rule it enforces is shown to fail the
// gate (exit status 3) when broken, beside a well-behaved case that passes it.
#include <gtest/gtest.h>

#include "cli/bench/bench_report.hpp"
#include "cli/bench/bench_runner.hpp"
#include "cli/exit_status.hpp"
#include "ops/einsum/registration.hpp"
#include "tenferro/tenferro.hpp"

namespace tenferro {
namespace {

using cli::bench::BackendResult;
using cli::bench::BenchCase;
using cli::bench::BenchOptions;
using cli::bench::CaseResult;
using cli::bench::EagerCall;

constexpr int kRepeat = 5;

// A case that squares a 4x4 matrix with einsum on the CPU, with `eager` as its timed call.
BenchCase matmul_case(EagerCall eager) {
  BenchCase c;
  c.name = "test-matmul";
  c.description = "ij,jk->ik on 4x4";
  c.dtype = DType::F64;
  c.admission = &einsum_family::admission_table();
  c.admission_op = "einsum";
  Tensor a = Tensor::zeros(DType::F64, {4, 4});
  for (std::int64_t i = 0; i < 4; ++i) a.data<double>()[i * 5] = 2.0;  // 2 * identity
  c.inputs.push_back(a);
  c.eager = std::move(eager);
  c.prepare_direct = [](const std::shared_ptr<EagerRuntime>&) {
    return [](std::span<const EagerTensor> in) {
      return std::vector<EagerTensor>{einsum("ij,jk->ik", {in[0], in[0]})};
    };
  };
  c.check = [](std::span<const Tensor>, std::span<const Tensor> out) {
    for (std::int64_t i = 0; i < 4; ++i)
      for (std::int64_t j = 0; j < 4; ++j)
        if (out[0].at<double>({i, j}) != (i == j ? 4.0 : 0.0))
          throw std::runtime_error("(2I)^2 is not 4I");
  };
  return c;
}

std::vector<EagerTensor> square(std::span<const EagerTensor> in) {
  return {einsum("ij,jk->ik", {in[0], in[0]})};
}

std::vector<BackendResult> run_on_cpu(BenchCase c) {
  auto rt = EagerRuntime::cpu();
  BenchOptions options;
  options.repeat = kRepeat;
  options.progress = false;
  BackendResult result;
  result.backend = "cpu";
  std::vector<BenchCase> cases;
  cases.push_back(std::move(c));
  result.cases = cli::bench::run_cases(rt, std::move(cases), options);
  return {result};
}

TEST(BenchGate, AWellBehavedCasePasses) {
  const auto results = run_on_cpu(matmul_case(square));
  const CaseResult& r = results[0].cases[0];
  EXPECT_EQ(r.status, "ok") << r.message;
  EXPECT_TRUE(r.check_ok);
  EXPECT_EQ(r.steady_backend_constructions, 0u);
  EXPECT_EQ(r.steady_transfers, 0u);
  EXPECT_EQ(cli::bench::gate_exit_status(results), cli::kExitOk);
}

TEST(BenchGate, ABackendBuiltInTheLoopFailsIt) {
  const auto results = run_on_cpu(matmul_case([](std::span<const EagerTensor> in) {
    (void)EagerRuntime::cpu();  // a runtime, and so a backend, built on every call
    return square(in);
  }));
  const CaseResult& r = results[0].cases[0];
  EXPECT_EQ(r.status, "ok") << r.message;
  EXPECT_EQ(r.steady_backend_constructions, static_cast<std::uint64_t>(kRepeat));
  EXPECT_FALSE(cli::bench::gate_passed(results));
  EXPECT_EQ(cli::bench::gate_exit_status(results), cli::kExitGateFailed);
  EXPECT_NE(cli::bench::render_table(results, BenchOptions{}).find("gate: FAILED"),
            std::string::npos);
}

TEST(BenchGate, ATransferInTheLoopFailsIt) {
  const auto results = run_on_cpu(matmul_case([](std::span<const EagerTensor> in) {
    const Tensor host = in[0].download();  // a round trip through the host on every call
    const EagerTensor again = in[0].runtime()->upload(host);
    return std::vector<EagerTensor>{einsum("ij,jk->ik", {again, again})};
  }));
  const CaseResult& r = results[0].cases[0];
  EXPECT_EQ(r.steady_transfers, static_cast<std::uint64_t>(2 * kRepeat));
  EXPECT_EQ(cli::bench::gate_exit_status(results), cli::kExitGateFailed);
}

[[noreturn]] std::vector<EagerTensor> refuse(std::span<const EagerTensor>) {
  throw_error(ErrorKind::Unsupported, ErrorPhase::Module, "einsum", "refused for the test");
}

TEST(BenchGate, ARefusalOfWhatTheTableAdmitsFailsIt) {
  // The einsum table admits F64 on the CPU: an Unsupported answer there is a defect.
  const auto results = run_on_cpu(matmul_case(refuse));
  const CaseResult& r = results[0].cases[0];
  EXPECT_EQ(r.status, "failed");
  EXPECT_NE(r.message.find("a refusal here is a defect"), std::string::npos) << r.message;
  EXPECT_EQ(cli::bench::gate_exit_status(results), cli::kExitGateFailed);
}

TEST(BenchGate, ARefusalWhereTheTableDoesNotAdmitPasses) {
  static const AdmissionTable cuda_only = [] {
    AdmissionTable t("tenferro.test.gate.v1", {"einsum"});
    t.admit("einsum", BackendKind::Cuda, {DType::F64});
    return t;
  }();
  BenchCase c = matmul_case(refuse);
  c.admission = &cuda_only;
  const auto results = run_on_cpu(std::move(c));
  EXPECT_EQ(results[0].cases[0].status, "unsupported") << results[0].cases[0].message;
  EXPECT_EQ(cli::bench::gate_exit_status(results), cli::kExitOk);
}

TEST(BenchGate, AWrongResultFailsIt) {
  const auto results = run_on_cpu(matmul_case([](std::span<const EagerTensor> in) {
    return std::vector<EagerTensor>{
        einsum("ij,jk->ik", {in[0], einsum("ij,jk->ik", {in[0], in[0]})})};
  }));
  EXPECT_EQ(results[0].cases[0].status, "failed");
  EXPECT_EQ(cli::bench::gate_exit_status(results), cli::kExitGateFailed);
}

}  // namespace
}  // namespace tenferro
