#include "ops/linalg/truncation.hpp"

#include <algorithm>

namespace tenferro::linalg_internal {

static_assert(static_cast<int>(RuleCutoff::None) == static_cast<int>(linalg::CutoffKind::None));
static_assert(static_cast<int>(RuleCutoff::RelativeSingularValue) ==
              static_cast<int>(linalg::CutoffKind::RelativeSingularValue));
static_assert(static_cast<int>(RuleCutoff::AbsoluteSingularValue) ==
              static_cast<int>(linalg::CutoffKind::AbsoluteSingularValue));
static_assert(static_cast<int>(RuleCutoff::RelativeDiscardedWeight) ==
              static_cast<int>(linalg::CutoffKind::RelativeDiscardedWeight));
static_assert(static_cast<int>(RuleCutoff::AbsoluteDiscardedWeight) ==
              static_cast<int>(linalg::CutoffKind::AbsoluteDiscardedWeight));

std::int64_t entry_rank(std::span<const double> s, const linalg::SvdTruncation& t) {
  return truncated_rank(s.data(), static_cast<std::int64_t>(s.size()), rule_of(t));
}

std::int64_t common_rank(std::span<const double> values, std::int64_t k, std::int64_t batch,
                         const linalg::SvdTruncation& t) {
  if (batch == 0) return t.max_rank ? std::min(k, *t.max_rank) : k;
  const TruncationRule rule = rule_of(t);
  std::int64_t r = 0;
  for (std::int64_t b = 0; b < batch; ++b) {
    r = std::max(r, truncated_rank(values.data() + b * k, k, rule));
  }
  return r;
}

}  // namespace tenferro::linalg_internal
