// RuntimeStats: counters every test and benchmark can read.
#pragma once

#include <cstdint>
#include <map>
#include <string>

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro {

struct RuntimeStats {
  std::uint64_t epoch = 0;            // snapshot epoch (bumps once per publish)
  std::uint64_t module_installs = 0;  // snapshots published
  // Snapshots held: the current one plus those replaced while a call was running (freed when
  // the last running call of this runtime ends).
  std::uint64_t retained_snapshots = 0;
  std::uint64_t ensure_fast_path_hits = 0;  // ensure calls answered by the snapshot alone
  std::uint64_t cache_hits = 0;             // ExtensionCacheStore hits (all families)
  std::uint64_t cache_misses = 0;
  std::uint64_t cache_entries = 0;
  std::uint64_t cache_bytes = 0;
  std::uint64_t uploads = 0;  // explicit transfers
  std::uint64_t upload_bytes = 0;
  std::uint64_t downloads = 0;
  std::uint64_t download_bytes = 0;  // read from the backend: a strided view's whole span, a
                                     // broadcast view's stored elements only
  // Device-to-host reads of an op's own status words (cuSOLVER info values, a non-finite flag,
  // a truncation rank): how a device op raises its typed Numerical error in the same call.
  // Not tensor data and not a transfer the caller asked for, so counted apart from downloads;
  // at most one per device linalg call.
  std::uint64_t status_reads = 0;
  std::uint64_t status_read_bytes = 0;
  // Small coefficient transfers of the Krylov solvers (tenferro/krylov.hpp): the projections
  // and norms their host-side projected problems need (reads) and the coefficients that
  // combine basis vectors on the device (writes). Not tensor data, so counted apart.
  std::uint64_t scalar_reads = 0;
  std::uint64_t scalar_read_bytes = 0;
  std::uint64_t scalar_writes = 0;
  std::uint64_t scalar_write_bytes = 0;
  // Backends built for this runtime: its own (1) plus every backend built on the calling
  // thread during its eager calls (which should never happen: each is a regression).
  std::uint64_t backend_constructions = 0;
  std::uint64_t numerical_retries = 0;  // e.g. gesdd -> gesvd fallback on non-convergence
  // Executor launches keyed "family@backend", e.g. "tenferro.einsum.v1@cpu".
  std::map<std::string, std::uint64_t> kernel_launches;

  std::uint64_t kernel_launches_for(const std::string& family_at_backend) const;
  std::string to_json() const;
};

// Process-wide counters (all runtimes): backend objects ever constructed (by anyone, whether
// or not a runtime adopted them) and CPU kernels launched.
// A device runtime's eager call must not move the CPU kernel counter.
std::uint64_t process_backend_constructions() noexcept;
std::uint64_t process_cpu_kernel_launches() noexcept;

}  // namespace tenferro

#pragma GCC visibility pop
