#include "cli/svd_truncation_args.hpp"

#include "cli/command_registry.hpp"

namespace tenferro::cli {
namespace {

linalg::CutoffKind parse_cutoff_kind(const std::string& text) {
  if (text == "relative-sv") return linalg::CutoffKind::RelativeSingularValue;
  if (text == "absolute-sv") return linalg::CutoffKind::AbsoluteSingularValue;
  if (text == "relative-weight") return linalg::CutoffKind::RelativeDiscardedWeight;
  if (text == "absolute-weight") return linalg::CutoffKind::AbsoluteDiscardedWeight;
  throw UsageError(
      "--cutoff-kind must be relative-sv, absolute-sv, relative-weight or absolute-weight, not '" +
      text + "'");
}

}  // namespace

linalg::SvdTruncation parse_svd_truncation(const SvdTruncationArgs& args) {
  linalg::SvdTruncation t;
  if (args.max_rank) t.max_rank = parse_int("--max-rank", *args.max_rank);
  if (args.min_rank) t.min_rank = parse_int("--min-rank", *args.min_rank);
  if (args.cutoff) {
    t.cutoff = parse_double("--cutoff", *args.cutoff);
    t.cutoff_kind = parse_cutoff_kind(args.cutoff_kind.value_or("relative-sv"));
  } else if (args.cutoff_kind) {
    throw UsageError("--cutoff-kind needs --cutoff");
  }
  return t;
}

}  // namespace tenferro::cli
