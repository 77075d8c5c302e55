// Test-only fault injection for the SVD drivers: the next `count` gesdd (or gesvd) calls report
// non-convergence instead of running, so tests can prove the gesdd -> gesvd retry and the
// final Numerical error, which real matrices trigger too rarely to test. Process-wide atomics;
// when unused the cost is one relaxed load per driver call.
#pragma once

namespace tenferro::linalg_cpu {

void inject_gesdd_failures_for_testing(int count) noexcept;
void inject_gesvd_failures_for_testing(int count) noexcept;

// Consumes one injected failure; true when the driver call must report non-convergence.
bool take_injected_gesdd_failure() noexcept;
bool take_injected_gesvd_failure() noexcept;

}  // namespace tenferro::linalg_cpu
