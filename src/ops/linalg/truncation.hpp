// The SVD truncation rule, independent of any backend (see SvdTruncation in linalg.hpp). The
// per-entry arithmetic lives in truncation_rule.hpp, shared with the CUDA rank kernel.
#pragma once

#include <cstdint>
#include <limits>
#include <span>

#include "ops/linalg/truncation_rule.hpp"
#include "tenferro/linalg.hpp"

namespace tenferro::linalg_internal {

// The public options as the plain rule the kernels take (inline: the distributed library
// applies the same rule).
inline TruncationRule rule_of(const linalg::SvdTruncation& t) {
  return TruncationRule{static_cast<RuleCutoff>(t.cutoff_kind), t.cutoff, t.min_rank,
                        t.max_rank ? *t.max_rank : -1};
}

// What is wrong with the options, or nullptr: the one check of every SVD entry point.
inline const char* truncation_problem(const linalg::SvdTruncation& t) {
  if (t.max_rank && *t.max_rank < 0) return "truncation.max_rank must be >= 0";
  if (t.min_rank < 0) return "truncation.min_rank must be >= 0";
  if (!(t.cutoff >= 0) || t.cutoff == std::numeric_limits<double>::infinity()) {
    return "truncation.cutoff must be finite and >= 0";
  }
  if (t.cutoff_kind == linalg::CutoffKind::None && t.cutoff != 0) {
    return "truncation.cutoff is set but truncation.cutoff_kind is None; choose a cutoff kind";
  }
  return nullptr;
}

// Rank kept for one batch entry with singular values `s` (descending, s.size() = min(m, n)):
// min(max_rank, max(min_rank, cutoff rank)), never above s.size().
std::int64_t entry_rank(std::span<const double> s, const linalg::SvdTruncation& t);

// The common rank of a batch: `values` holds `batch` entries of `k` singular values each. The
// largest entry rank (so no entry drops more than its rule allows), capped by max_rank. An
// empty batch keeps min(k, max_rank).
std::int64_t common_rank(std::span<const double> values, std::int64_t k, std::int64_t batch,
                         const linalg::SvdTruncation& t);

}  // namespace tenferro::linalg_internal
