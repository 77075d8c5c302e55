// Einsum reductions and contractions over long extents on a WebGPU runtime (issue 21): trailing
// sums, dot products and GEMMs whose reduced extent is 2^16 +- 1, 10^5, 2^20 or (GEMM) K =
// 2 x 10^5. lavapipe, the CI device, stops shader loops after 65535 iterations, so kernels that
// loop over the reduced extent inside one invocation returned truncated sums here.
//
// Each result is checked per element against a host reference in double precision (computed
// here from the same F32 inputs, independently of the library) with the tolerance
//   |got - want| <= 4 sqrt(n) eps_f32 sqrt(sum of |term|^2),
// n the number of terms. The inputs have mean 0.5, so for these sizes the bound is a few F32
// roundings of the result: one term missing or counted twice, or a running F32 sum (whose
// error grows like sqrt(n) times the result's rounding), fails it.
#include <gtest/gtest.h>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_WEBGPU

#include <cmath>
#include <complex>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "support/device_result_checks.hpp"
#include "support/long_sums.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/stats.hpp"
#include "webgpu_fixture.hpp"

namespace tenferro {
namespace {

using testing::nonzero_mean_tensor;

using cd = std::complex<double>;

std::vector<cd> as_double(const Tensor& t) {
  std::vector<cd> out;
  if (t.dtype() == DType::F32) {
    for (float v : t.to_vector<float>()) out.emplace_back(v);
  } else {
    for (std::complex<float> v : t.to_vector<std::complex<float>>()) out.emplace_back(v);
  }
  return out;
}

// Per output element (column-major): the exact-in-double sum of its terms, their count and
// the sum of their squared magnitudes.
struct Reference {
  std::vector<cd> value;
  std::vector<double> sum_sq;
  double terms = 0;
};

// A naive evaluator for explicit single-letter subscripts ("ij,jk->ik"), every label looped.
Reference reference(const std::string& subscripts, const std::vector<Tensor>& operands) {
  const std::size_t arrow = subscripts.find("->");
  std::vector<std::string> inputs(1);
  for (char ch : subscripts.substr(0, arrow))
    ch == ',' ? inputs.emplace_back() : inputs.back() += ch;
  const std::string output = subscripts.substr(arrow + 2);
  std::map<char, std::int64_t> extent;
  std::string labels;
  for (std::size_t o = 0; o < inputs.size(); ++o)
    for (std::size_t a = 0; a < inputs[o].size(); ++a) {
      if (!extent.count(inputs[o][a])) labels += inputs[o][a];
      extent[inputs[o][a]] = operands[o].shape()[a];
    }
  // Column-major strides of every operand and of the output, per label.
  const auto strides_of = [&](const std::string& axes) {
    std::map<char, std::int64_t> s;
    std::int64_t stride = 1;
    for (char l : axes) s[l] += stride, stride *= extent[l];
    return s;
  };
  std::vector<std::map<char, std::int64_t>> in_strides;
  std::vector<std::vector<cd>> values;
  for (std::size_t o = 0; o < inputs.size(); ++o) {
    in_strides.push_back(strides_of(inputs[o]));
    values.push_back(as_double(operands[o]));
  }
  const std::map<char, std::int64_t> out_strides = strides_of(output);
  std::int64_t out_size = 1, total = 1;
  for (char l : output) out_size *= extent[l];
  for (char l : labels) total *= extent[l];
  Reference r{std::vector<cd>(static_cast<std::size_t>(out_size)),
              std::vector<double>(static_cast<std::size_t>(out_size)),
              static_cast<double>(total / out_size)};
  std::map<char, std::int64_t> index;
  for (std::int64_t i = 0; i < total; ++i) {
    std::int64_t rest = i;
    for (char l : labels) index[l] = rest % extent[l], rest /= extent[l];
    cd term = 1.0;
    for (std::size_t o = 0; o < inputs.size(); ++o) {
      std::int64_t at = 0;
      for (char l : inputs[o]) at += index[l] * in_strides[o].at(l);
      term *= values[o][static_cast<std::size_t>(at)];
    }
    std::int64_t at = 0;
    for (char l : output) at += index[l] * out_strides.at(l);
    r.value[static_cast<std::size_t>(at)] += term;
    r.sum_sq[static_cast<std::size_t>(at)] += std::norm(term);
  }
  return r;
}

struct LongCase {
  std::string subscripts;
  std::vector<Shape> shapes;
  DType dtype;
  bool strided;  // operands uploaded as non-compact views (reduced axes not contiguous)
};

class LongReductionsWebGpuTest : public webgpu_test::WebGpuTest {
 protected:
  void check(const LongCase& c) {
    SCOPED_TRACE(c.subscripts + " " + std::string(dtype_name(c.dtype)) +
                 (c.strided ? " (strided)" : ""));
    std::vector<Tensor> hosts;
    std::vector<EagerTensor> operands;
    unsigned seed = 2100;
    for (const Shape& shape : c.shapes) {
      hosts.push_back(nonzero_mean_tensor(c.dtype, shape, seed++));
      operands.push_back(c.strided ? testing::upload_strided_view(runtime_, hosts.back())
                                   : runtime_->upload(hosts.back()));
    }
    const RuntimeStats before = runtime_->stats();
    const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
    const EagerTensor result = einsum(c.subscripts, operands);
    // Scratch buffers are allocations on the device, never transfers; nothing ran on the CPU.
    EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels);
    EXPECT_EQ(runtime_->stats().uploads, before.uploads);
    EXPECT_EQ(runtime_->stats().downloads, before.downloads);
    EXPECT_EQ(result.placement(), runtime_->backend().placement());

    const std::vector<cd> got = as_double(result.download());
    const Reference want = reference(c.subscripts, hosts);
    ASSERT_EQ(got.size(), want.value.size());
    const double eps = std::numeric_limits<float>::epsilon();
    for (std::size_t i = 0; i < got.size(); ++i) {
      const double tolerance = 4.0 * std::sqrt(want.terms) * eps * std::sqrt(want.sum_sq[i]);
      EXPECT_LE(std::abs(got[i] - want.value[i]), tolerance)
          << "element " << i << " of " << want.terms << " terms: got " << got[i] << ", want "
          << want.value[i];
    }
  }
};

TEST_F(LongReductionsWebGpuTest, FullSumsAroundAndBeyond65536Terms) {
  check({"i->", {{(1 << 16) - 1}}, DType::F32, false});
  check({"i->", {{(1 << 16) + 1}}, DType::F32, false});
  check({"i->", {{100000}}, DType::C32, false});
  check({"i->", {{1 << 20}}, DType::F32, false});  // two tree passes: 512 partials, then one
}

TEST_F(LongReductionsWebGpuTest, PartialSumsOverLongStridedAxes) {
  check({"ij->i", {{3, 100000}}, DType::F32, false});        // reduced axis of stride 3
  check({"ij->j", {{(1 << 16) + 1, 2}}, DType::C32, true});  // leading axis, transposed copy
  check({"ijk->", {{3, 5, 4369}}, DType::F32, true});        // 2^16 - 1 over three axes
}

TEST_F(LongReductionsWebGpuTest, DotProductsAndGemmsWithALongContractedExtent) {
  check({"i,i->", {{100000}, {100000}}, DType::F32, false});
  check({"i,i->", {{(1 << 16) + 1}, {(1 << 16) + 1}}, DType::C32, false});
  check({"ij,jk->ik", {{3, 200000}, {200000, 2}}, DType::F32, false});
  check({"ij,jk->ik", {{2, 200000}, {200000, 3}}, DType::C32, true});
}

}  // namespace
}  // namespace tenferro

#endif  // TENFERRO_HAS_WEBGPU
