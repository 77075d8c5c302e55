#include "support/long_sums.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "tenferro/einsum.hpp"

namespace tenferro::testing {
namespace {

using cd = std::complex<double>;

cd element(const Tensor& t, std::int64_t i) {
  switch (t.dtype()) {
    case DType::F32:
      return t.data<float>()[i];
    case DType::F64:
      return t.data<double>()[i];
    case DType::C32:
      return cd(t.data<std::complex<float>>()[i]);
    case DType::C64:
      return t.data<std::complex<double>>()[i];
  }
  return {};
}

double eps_of(DType dtype) {
  return dtype == DType::F32 || dtype == DType::C32 ? std::numeric_limits<float>::epsilon()
                                                    : std::numeric_limits<double>::epsilon();
}

// Neumaier's compensated sum: its error is a rounding or two of the result, whatever n, so the
// reference stays exact enough for float64 inputs too (a plain double sum would not).
class CompensatedSum {
 public:
  void add(double x) {
    const double t = sum_ + x;
    compensation_ += std::abs(sum_) >= std::abs(x) ? (sum_ - t) + x : (x - t) + sum_;
    sum_ = t;
  }
  double value() const { return sum_ + compensation_; }

 private:
  double sum_ = 0, compensation_ = 0;
};

// The reference of a sum of a column-major tensor of shape `shape` over the axes not in
// `kept` (kept axes in output order), per output element (column-major).
struct Reference {
  std::vector<cd> value;
  std::vector<double> sum_sq;
  double terms = 0;
};

Reference reference_sum(const Tensor& t, const std::vector<std::size_t>& kept) {
  const Shape& shape = t.shape();
  std::int64_t outputs = 1;
  for (std::size_t a : kept) outputs *= shape[a];
  Reference r{std::vector<cd>(static_cast<std::size_t>(outputs)),
              std::vector<double>(static_cast<std::size_t>(outputs)),
              static_cast<double>(t.numel() / std::max<std::int64_t>(outputs, 1))};
  std::vector<CompensatedSum> re(r.value.size()), im(r.value.size());
  std::vector<std::int64_t> index(shape.size(), 0);
  for (std::int64_t i = 0; i < t.numel(); ++i) {
    std::int64_t out = 0, stride = 1;
    for (std::size_t a : kept) {
      out += index[a] * stride;
      stride *= shape[a];
    }
    const cd v = element(t, i);
    const auto o = static_cast<std::size_t>(out);
    re[o].add(v.real());
    im[o].add(v.imag());
    r.sum_sq[o] += std::norm(v);
    for (std::size_t a = 0; a < shape.size() && ++index[a] == shape[a]; ++a) index[a] = 0;
  }
  for (std::size_t o = 0; o < r.value.size(); ++o) r.value[o] = cd(re[o].value(), im[o].value());
  return r;
}

void expect_close(const Tensor& got, const Reference& want, DType dtype) {
  ASSERT_EQ(got.numel(), static_cast<std::int64_t>(want.value.size()));
  int reported = 0;
  for (std::size_t i = 0; i < want.value.size(); ++i) {
    const double bound = 4.0 * std::sqrt(want.terms) * eps_of(dtype) * std::sqrt(want.sum_sq[i]);
    const double error = std::abs(element(got, static_cast<std::int64_t>(i)) - want.value[i]);
    if (error > bound && reported++ < 3) {
      ADD_FAILURE() << "output " << i << ": got " << element(got, static_cast<std::int64_t>(i))
                    << ", want " << want.value[i] << ", error " << error << " > bound " << bound;
    }
  }
}

struct SumCase {
  const char* subscripts;
  Shape shape;
  std::vector<std::size_t> kept;  // the input axes the output keeps, in output order
};

}  // namespace

Tensor nonzero_mean_tensor(DType dtype, const Shape& shape, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-0.5, 1.5);
  Tensor t = Tensor::zeros(dtype, shape);
  for (std::int64_t i = 0; i < t.numel(); ++i) {
    switch (dtype) {
      case DType::F32:
        t.data<float>()[i] = static_cast<float>(dist(gen));
        break;
      case DType::F64:
        t.data<double>()[i] = dist(gen);
        break;
      case DType::C32: {
        const auto re = static_cast<float>(dist(gen)), im = static_cast<float>(dist(gen));
        t.data<std::complex<float>>()[i] = {re, im};
        break;
      }
      case DType::C64: {
        const double re = dist(gen), im = dist(gen);
        t.data<std::complex<double>>()[i] = {re, im};
        break;
      }
    }
  }
  return t;
}

void check_long_sums(const std::shared_ptr<EagerRuntime>& runtime,
                     std::initializer_list<DType> dtypes) {
  const std::vector<SumCase> cases{
      {"i->", {std::int64_t{1} << 22}, {}},         // one output, contiguous terms
      {"ij->i", {16, std::int64_t{1} << 18}, {0}},  // the kept axis is the contiguous one
      {"ij->j", {std::int64_t{1} << 18, 16}, {1}},  // the summed axis is the contiguous one
      {"ijk->j", {512, 8, 1024}, {1}},              // summed axes on both sides of the kept one
      {"ij->", {2048, 2048}, {}},                   // two summed axes, fused
  };
  unsigned seed = 11;
  for (DType dtype : dtypes) {
    for (const SumCase& c : cases) {
      SCOPED_TRACE(std::string(c.subscripts) + " " + std::string(dtype_name(dtype)));
      const Tensor host = nonzero_mean_tensor(dtype, c.shape, seed++);
      const Tensor got = einsum(c.subscripts, {runtime->upload(host)}).download();
      expect_close(got, reference_sum(host, c.kept), dtype);
    }
  }
}

}  // namespace tenferro::testing
