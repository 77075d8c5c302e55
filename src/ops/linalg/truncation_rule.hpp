// The per-entry SVD truncation rule as one function that compiles for the host and, inside
// the CUDA .cu kernels (C++17, no tenferro headers), for the device: the CPU executor and the
// CUDA rank kernel run the same code, and the CPU tests of the rule cover both.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define TENFERRO_HOST_DEVICE __host__ __device__
#else
#define TENFERRO_HOST_DEVICE
#endif

namespace tenferro::linalg_internal {

// Mirrors linalg::CutoffKind value for value (truncation.cpp checks it at compile time).
enum class RuleCutoff : std::uint8_t {
  None,
  RelativeSingularValue,
  AbsoluteSingularValue,
  RelativeDiscardedWeight,
  AbsoluteDiscardedWeight,
};

// linalg::SvdTruncation in plain data: max_rank < 0 means "no cap".
struct TruncationRule {
  RuleCutoff cutoff_kind = RuleCutoff::None;
  double cutoff = 0.0;
  std::int64_t min_rank = 0;
  std::int64_t max_rank = -1;
};

namespace rule_detail {

// acc + v * v rounded twice on the host and the device alike: nvcc would otherwise fuse it
// into one FMA, and a spectrum sitting on a weight cutoff could keep another rank there.
TENFERRO_HOST_DEVICE inline double add_square(double acc, double v) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(acc, __dmul_rn(v, v));
#else
  return acc + v * v;
#endif
}

// Smallest rank whose dropped tail sum_{i >= r} s_i^2 stays <= threshold.
template <class R>
TENFERRO_HOST_DEVICE std::int64_t weight_rank(const R* s, std::int64_t k, double threshold) {
  std::int64_t r = k;
  double tail = 0;
  while (r > 0) {
    const double v = static_cast<double>(s[r - 1]);
    const double next = add_square(tail, v);
    if (next > threshold) break;
    tail = next;
    --r;
  }
  return r;
}

template <class R>
TENFERRO_HOST_DEVICE std::int64_t count_above(const R* s, std::int64_t k, double threshold) {
  std::int64_t r = 0;
  for (std::int64_t i = 0; i < k; ++i) r += static_cast<double>(s[i]) > threshold ? 1 : 0;
  return r;
}

}  // namespace rule_detail

// Rank kept for one batch entry with singular values s[0..k) (descending):
// min(max_rank, max(min_rank, cutoff rank)), never above k.
template <class R>
TENFERRO_HOST_DEVICE std::int64_t truncated_rank(const R* s, std::int64_t k,
                                                 const TruncationRule& rule) {
  std::int64_t r = k;
  switch (rule.cutoff_kind) {
    case RuleCutoff::None:
      break;
    case RuleCutoff::RelativeSingularValue:
      r = k == 0 ? 0 : rule_detail::count_above(s, k, rule.cutoff * static_cast<double>(s[0]));
      break;
    case RuleCutoff::AbsoluteSingularValue:
      r = rule_detail::count_above(s, k, rule.cutoff);
      break;
    case RuleCutoff::RelativeDiscardedWeight: {
      double total = 0;
      for (std::int64_t i = 0; i < k; ++i) total = rule_detail::add_square(total, s[i]);
      r = rule_detail::weight_rank(s, k, rule.cutoff * total);
      break;
    }
    case RuleCutoff::AbsoluteDiscardedWeight:
      r = rule_detail::weight_rank(s, k, rule.cutoff);
      break;
  }
  if (r < rule.min_rank) r = rule.min_rank;
  if (r > k) r = k;
  if (rule.max_rank >= 0 && r > rule.max_rank) r = rule.max_rank;
  return r;
}

}  // namespace tenferro::linalg_internal
