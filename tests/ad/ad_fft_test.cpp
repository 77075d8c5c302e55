// The fft/ifft rules through the gradient checker: every norm, zero-padding and truncation
// (n), a real input (promoted to complex), and a middle axis of a batched input.
#include <gtest/gtest.h>

#include "ad/gradcheck.hpp"

namespace tenferro::ad_test {
namespace {

using V = ad::Variable;

TEST(AdFft, FftAndIfft) {
  const fft::Norm norms[] = {fft::Norm::Backward, fft::Norm::Forward, fft::Norm::Ortho};
  for (fft::Norm norm : norms) {
    for (std::optional<std::int64_t> n :
         {std::optional<std::int64_t>{}, std::optional<std::int64_t>{7},
          std::optional<std::int64_t>{3}}) {
      const std::string tag =
          std::string(fft::norm_name(norm)) + " n=" + (n ? std::to_string(*n) : "none");
      for (DType d : {DType::F64, DType::C64}) {
        const EagerTensor x = randn(d, {2, 5, 3}, 700);
        check_unary(
            "fft axis 1 " + tag + " " + std::string(dtype_name(d)),
            [n, norm](const V& v) { return ad::fft(v, n, 1, norm); }, x);
        check_unary(
            "ifft last axis " + tag + " " + std::string(dtype_name(d)),
            [n, norm](const V& v) { return ad::ifft(v, n, -1, norm); }, x);
      }
    }
  }
}

}  // namespace
}  // namespace tenferro::ad_test
