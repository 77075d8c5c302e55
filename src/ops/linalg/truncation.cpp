#include "ops/linalg/truncation.hpp"

#include <algorithm>

namespace tenferro::linalg_internal {
namespace {

// Smallest rank whose dropped tail sum_{i >= r} s_i^2 stays <= threshold.
std::int64_t weight_rank(std::span<const double> s, double threshold) {
  std::int64_t r = static_cast<std::int64_t>(s.size());
  double tail = 0;
  while (r > 0) {
    const double next = tail + s[r - 1] * s[r - 1];
    if (next > threshold) break;
    tail = next;
    --r;
  }
  return r;
}

std::int64_t count_above(std::span<const double> s, double threshold) {
  return std::count_if(s.begin(), s.end(), [&](double v) { return v > threshold; });
}

}  // namespace

std::int64_t entry_rank(std::span<const double> s, const linalg::SvdTruncation& t) {
  const auto k = static_cast<std::int64_t>(s.size());
  std::int64_t r = k;
  switch (t.cutoff_kind) {
    case linalg::CutoffKind::None:
      break;
    case linalg::CutoffKind::RelativeSingularValue:
      r = k == 0 ? 0 : count_above(s, t.cutoff * s[0]);
      break;
    case linalg::CutoffKind::AbsoluteSingularValue:
      r = count_above(s, t.cutoff);
      break;
    case linalg::CutoffKind::RelativeDiscardedWeight: {
      double total = 0;
      for (double v : s) total += v * v;
      r = weight_rank(s, t.cutoff * total);
      break;
    }
    case linalg::CutoffKind::AbsoluteDiscardedWeight:
      r = weight_rank(s, t.cutoff);
      break;
  }
  r = std::min(std::max(r, t.min_rank), k);
  if (t.max_rank) r = std::min(r, *t.max_rank);
  return r;
}

std::int64_t common_rank(std::span<const double> values, std::int64_t k, std::int64_t batch,
                         const linalg::SvdTruncation& t) {
  if (batch == 0) return t.max_rank ? std::min(k, *t.max_rank) : k;
  std::int64_t r = 0;
  for (std::int64_t b = 0; b < batch; ++b) {
    r = std::max(
        r, entry_rank(values.subspan(static_cast<std::size_t>(b * k), static_cast<std::size_t>(k)),
                      t));
  }
  return r;
}

}  // namespace tenferro::linalg_internal
