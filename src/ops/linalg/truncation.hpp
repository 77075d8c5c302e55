// The SVD truncation rule, independent of any backend (see SvdTruncation in linalg.hpp).
#pragma once

#include <cstdint>
#include <span>

#include "tenferro/linalg.hpp"

namespace tenferro::linalg_internal {

// Rank kept for one batch entry with singular values `s` (descending, s.size() = min(m, n)):
// min(max_rank, max(min_rank, cutoff rank)), never above s.size().
std::int64_t entry_rank(std::span<const double> s, const linalg::SvdTruncation& t);

// The common rank of a batch: `values` holds `batch` entries of `k` singular values each. The
// largest entry rank (so no entry drops more than its rule allows), capped by max_rank. An
// empty batch keeps min(k, max_rank).
std::int64_t common_rank(std::span<const double> values, std::int64_t k, std::int64_t batch,
                         const linalg::SvdTruncation& t);

}  // namespace tenferro::linalg_internal
