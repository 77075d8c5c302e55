// The eight FFT rules through the gradient checker: every norm, zero-padding and truncation
// (n / s), real inputs (promoted to complex), middle axes of a batched input, odd and even
// lengths for the one-sided transforms.
#include <gtest/gtest.h>

#include "ad/gradcheck.hpp"

namespace tenferro::ad_test {
namespace {

using V = ad::Variable;
using N = std::optional<std::int64_t>;
constexpr fft::Norm kNorms[] = {fft::Norm::Backward, fft::Norm::Forward, fft::Norm::Ortho};

std::string tag(fft::Norm norm, N n) {
  return std::string(fft::norm_name(norm)) + " n=" + (n ? std::to_string(*n) : "none");
}

TEST(AdFft, FftAndIfft) {
  for (fft::Norm norm : kNorms) {
    for (N n : {N{}, N{7}, N{3}}) {
      for (DType d : {DType::F64, DType::C64}) {
        const EagerTensor x = randn(d, {2, 5, 3}, 700);
        const std::string t = tag(norm, n) + " " + std::string(dtype_name(d));
        check_unary(
            "fft axis 1 " + t, [n, norm](const V& v) { return ad::fft(v, n, 1, norm); }, x);
        check_unary(
            "ifft last axis " + t, [n, norm](const V& v) { return ad::ifft(v, n, -1, norm); }, x);
      }
    }
  }
}

TEST(AdFft, RfftAndIrfft) {
  for (fft::Norm norm : kNorms) {
    for (N n : {N{}, N{8}, N{5}, N{3}}) {
      const std::string t = tag(norm, n);
      check_unary(
          "rfft axis 0 " + t, [n, norm](const V& v) { return ad::rfft(v, n, 0, norm); },
          randn(DType::F64, {6, 2}, 710));
      check_unary(
          "rfft odd length " + t, [n, norm](const V& v) { return ad::rfft(v, n, -1, norm); },
          randn(DType::F64, {2, 5}, 711));
      check_unary(
          "irfft " + t, [n, norm](const V& v) { return ad::irfft(v, n, 0, norm); },
          randn(DType::C64, {4, 2}, 712));
      check_unary(
          "irfft real input " + t, [n, norm](const V& v) { return ad::irfft(v, n, -1, norm); },
          randn(DType::F64, {2, 3}, 713));
    }
  }
}

TEST(AdFft, NDimensional) {
  for (fft::Norm norm : kNorms) {
    const std::string t = std::string(fft::norm_name(norm));
    const EagerTensor c = randn(DType::C64, {3, 4, 2}, 720);
    const EagerTensor r = randn(DType::F64, {3, 4, 2}, 721);
    check_unary(
        "fftn all " + t,
        [norm](const V& v) { return ad::fftn(v, std::nullopt, std::nullopt, norm); }, c);
    check_unary(
        "ifftn axes {0,2} s {5,1} " + t,
        [norm](const V& v) {
          return ad::ifftn(v, std::vector<std::int64_t>{5, 1}, std::vector<std::int64_t>{0, 2},
                           norm);
        },
        c);
    check_unary(
        "rfftn axes {2,0} " + t,
        [norm](const V& v) {
          return ad::rfftn(v, std::nullopt, std::vector<std::int64_t>{2, 0}, norm);
        },
        r);
    check_unary(
        "rfftn s {4,6} " + t,
        [norm](const V& v) {
          return ad::rfftn(v, std::vector<std::int64_t>{4, 6}, std::nullopt, norm);
        },
        r);
    check_unary(
        "irfftn all " + t,
        [norm](const V& v) { return ad::irfftn(v, std::nullopt, std::nullopt, norm); }, c);
    check_unary(
        "irfftn axes {0,1} s {3,5} " + t,
        [norm](const V& v) {
          return ad::irfftn(v, std::vector<std::int64_t>{3, 5}, std::vector<std::int64_t>{0, 1},
                            norm);
        },
        c);
  }
}

}  // namespace
}  // namespace tenferro::ad_test
