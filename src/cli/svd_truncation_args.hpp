// The SVD truncation options of the command line (--max-rank, --min-rank, --cutoff,
// --cutoff-kind), parsed once for `tenferro linalg svd` and `tenferro dist linalg svd`.
#pragma once

#include <optional>
#include <string>

#include "tenferro/linalg.hpp"

namespace tenferro::cli {

struct SvdTruncationArgs {
  std::optional<std::string> max_rank, min_rank, cutoff, cutoff_kind;
};

// UsageError for a malformed number, an unknown kind, or a kind without a cutoff.
linalg::SvdTruncation parse_svd_truncation(const SvdTruncationArgs& args);

}  // namespace tenferro::cli
