// workspace_count: a single-precision workspace answer above 2^24 arrives rounded (possibly
// down); the count is never below the true size plus one.
#include "core/workspace_count.hpp"

#include <gtest/gtest.h>

#include <complex>

namespace tenferro {
namespace {

TEST(WorkspaceCount, RoundsSinglePrecisionAnswersUp) {
  // 2^24 + 1 is not a float: it arrives as 2^24, one short.
  for (std::int64_t exact :
       {std::int64_t{16777217}, std::int64_t{50000001}, std::int64_t{123456789}}) {
    const float answer = static_cast<float>(exact);
    EXPECT_GE(workspace_count(answer), exact + 1) << exact;
    EXPECT_GE(workspace_count(std::complex<float>(answer, 0)), exact + 1) << exact;
    EXPECT_LE(workspace_count(answer), exact + exact / 1000000 + 40) << exact;
  }
  // Exact answers keep their size, plus a little.
  EXPECT_GE(workspace_count(100.0), 101);
  EXPECT_LE(workspace_count(100.0), 102);
  EXPECT_GE(workspace_count(std::complex<double>(1e9, 0)), 1000000001);
}

}  // namespace
}  // namespace tenferro
