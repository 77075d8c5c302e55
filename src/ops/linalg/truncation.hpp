// The SVD truncation rule, independent of any backend (see SvdTruncation in linalg.hpp). The
// per-entry arithmetic lives in truncation_rule.hpp, shared with the CUDA rank kernel.
#pragma once

#include <cstdint>
#include <span>

#include "ops/linalg/truncation_rule.hpp"
#include "tenferro/linalg.hpp"

namespace tenferro::linalg_internal {

// The public options as the plain rule the kernels take.
TruncationRule rule_of(const linalg::SvdTruncation& t);

// Rank kept for one batch entry with singular values `s` (descending, s.size() = min(m, n)):
// min(max_rank, max(min_rank, cutoff rank)), never above s.size().
std::int64_t entry_rank(std::span<const double> s, const linalg::SvdTruncation& t);

// The common rank of a batch: `values` holds `batch` entries of `k` singular values each. The
// largest entry rank (so no entry drops more than its rule allows), capped by max_rank. An
// empty batch keeps min(k, max_rank).
std::int64_t common_rank(std::span<const double> values, std::int64_t k, std::int64_t batch,
                         const linalg::SvdTruncation& t);

}  // namespace tenferro::linalg_internal
