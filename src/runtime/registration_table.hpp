// One op family's registration table: rows (op, backend kind, dtypes) -> kernel. It is the only
// place a family says what a backend runs; everything else is derived from it:
//   - the admission answer (admits / check), given before anything is installed or executed;
//   - the module each factory builds (module_for: "<family>/<engine id>", one per (kind, engine),
//     whose executor indexes the table);
//   - the public AdmissionTable that `tenferro info` prints and the op-name strings.
// A row holds a kernel by construction (a null kernel is refused when the table is built), so a
// backend claims exactly what it runs: nothing can be admitted and then fail to find a kernel.
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/dtype_mask.hpp"
#include "runtime/family_ids.hpp"
#include "runtime/family_modules.hpp"
#include "tenferro/runtime/admission.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::runtime_internal {

// The body of one (op, backend, dtypes) row: runs inside the runtime's backend session.
using Kernel = std::vector<EagerTensor> (*)(const ExecutionContext&, const ExtensionOp&,
                                            std::span<const EagerTensor>);

struct Registration {
  std::uint32_t op;  // index into the family's op names
  BackendKind backend;
  DTypeMask dtypes;
  Kernel kernel;
};

// What a call asks the table: which op, keyed by which dtype.
struct OpKey {
  std::uint32_t op;
  DType dtype;
  // A conversion's other end (prims' cast writes this dtype): the backend must run the op on
  // it too, so that a cast is refused before execution when its target has no kernel. Empty
  // for every op whose kernel reads and writes one dtype family.
  std::optional<DType> to{};
};
// How a family reads the key of one of its ops (throws RuntimeState for another family's op).
using KeyOf = OpKey (*)(const ExtensionOp&, std::span<const EagerTensor>);

// Everything about a family besides its rows.
struct FamilyInfo {
  std::string family;
  std::vector<std::string> ops;  // op names, by op index
  KeyOf key_of = nullptr;
  // Per BackendKind: a remark printed beside the backend's column and appended to refusals
  // (e.g. "WGSL has no f64"), and, for a kind without rows, why the factory refuses it.
  std::array<std::string, kBackendKindCount> notes;
  std::array<std::string, kBackendKindCount> missing;
};

// Whether this build has the backend (the CPU always; runtime.cpp, beside the factory).
bool backend_compiled_in(BackendKind kind) noexcept;
// The notes and refusals of the backends this build lacks: "not compiled in", "this build has
// no <kind> backend". A family calls it last, after its own notes, so that one place words them.
void note_backends_not_compiled_in(FamilyInfo& info);

class RegistrationTable {
 public:
  // Throws RuntimeState for a row with a null kernel, an unknown op, or two rows claiming the
  // same (op, backend, dtype): registration errors are programming errors, found at startup.
  RegistrationTable(FamilyInfo info, std::vector<Registration> rows);
  RegistrationTable(const RegistrationTable&) = delete;
  RegistrationTable& operator=(const RegistrationTable&) = delete;

  // The kernel of (op, backend, dtype), or nullptr: an index, no search.
  Kernel kernel(std::uint32_t op, BackendKind backend, DType dtype) const noexcept {
    return op < info_.ops.size() ? dense_[slot(op, backend, dtype)] : nullptr;
  }
  bool admits(std::uint32_t op, BackendKind backend, DType dtype) const noexcept {
    return kernel(op, backend, dtype) != nullptr;
  }
  // Throws Unsupported (phase Module) naming the op, backend and dtype when not admitted.
  void check(std::uint32_t op, BackendKind backend, DType dtype) const;
  // The same for a whole key: its dtype, then its conversion target (if any).
  void check(OpKey key, BackendKind backend) const;
  // Whether any row names `backend`.
  bool runs_on(BackendKind backend) const noexcept {
    return runs_on_[static_cast<std::size_t>(backend)];
  }

  // The module factory step for one call: Unsupported (phase Module, before anything is
  // installed) unless the target's backend runs `key`; else the module of the target's engine.
  ModulePtr module_for(const EagerExtensionTarget& target, OpKey key) const;
  // module_for's refusals alone, building nothing.
  void check(const EagerExtensionTarget& target, OpKey key) const;
  // The warm call's two steps, once `module` (the runtime's installed module of this family)
  // is one this table built: whether it is (a pointer compare per engine built, no string
  // compare), and the kernel of `key` on `backend`, with the admission answer (the same
  // Unsupported errors as module_for) when there is none. The kernel is what the module's
  // executor would index, so the call skips that executor's std::function and second key read.
  bool built(const ExtensionModule* module) const noexcept { return modules_.built(module); }
  Kernel admitted_kernel(OpKey key, BackendKind backend) const {
    const Kernel k = kernel(key.op, backend, key.dtype);
    if (k == nullptr || (key.to && !admits(key.op, backend, *key.to))) check(key, backend);
    return k;
  }
  // The module of the target's engine without an admission check (tests, benchmarks).
  ModulePtr module_for(const EagerExtensionTarget& target) const {
    return modules_.module_for(target);
  }

  const std::string& family() const noexcept { return info_.family; }
  // The family's dense process-wide id (runtime_internal::family_id), resolved once here so a
  // warm call indexes the runtime's slot and launch counter with it.
  std::uint32_t family_id() const noexcept { return family_id_; }
  const std::vector<std::string>& ops() const noexcept { return info_.ops; }
  std::span<const Registration> rows() const noexcept { return rows_; }
  // The public admission table, derived from the rows (what `tenferro info` prints).
  const AdmissionTable& admission() const noexcept { return admission_; }

 private:
  static std::size_t slot(std::uint32_t op, BackendKind backend, DType dtype) noexcept {
    return (op * kBackendKindCount + static_cast<std::size_t>(backend)) * std::size(kAllDTypes) +
           static_cast<std::size_t>(dtype);
  }
  static FamilyModules build_modules(const RegistrationTable& table);
  static AdmissionTable build_admission(const FamilyInfo& info, std::span<const Registration> rows);
  std::vector<EagerTensor> execute(BackendKind backend, const ExecutionContext& ctx,
                                   const ExtensionOp& op,
                                   std::span<const EagerTensor> inputs) const;

  FamilyInfo info_;
  std::uint32_t family_id_;
  std::vector<Registration> rows_;
  std::vector<Kernel> dense_;  // [op][backend][dtype]
  std::array<bool, kBackendKindCount> runs_on_{};
  AdmissionTable admission_;
  FamilyModules modules_;  // built last: its executors call back into this table
};

}  // namespace tenferro::runtime_internal
