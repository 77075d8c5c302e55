#include "runtime/registration_table.hpp"

#include "tenferro/core/error.hpp"

namespace tenferro::runtime_internal {

void note_backends_not_compiled_in(FamilyInfo& info) {
  for (BackendKind kind : kAllBackendKinds) {
    if (backend_compiled_in(kind)) continue;
    const auto k = static_cast<std::size_t>(kind);
    info.notes[k] = "not compiled in";
    info.missing[k] = "this build has no " + std::string(backend_kind_name(kind)) + " backend";
  }
}

namespace {

[[noreturn]] void bad_row(const std::string& family, const std::string& why) {
  throw_error(ErrorKind::RuntimeState, ErrorPhase::Module, family, "registration table: " + why);
}

}  // namespace

RegistrationTable::RegistrationTable(FamilyInfo info, std::vector<Registration> rows)
    : info_(std::move(info)),
      family_id_(runtime_internal::family_id(info_.family)),
      rows_(std::move(rows)),
      dense_(info_.ops.size() * kBackendKindCount * std::size(kAllDTypes), nullptr),
      admission_(build_admission(info_, rows_)),
      modules_(build_modules(*this)) {
  if (info_.key_of == nullptr) bad_row(info_.family, "no key function");
  for (const Registration& r : rows_) {
    if (r.op >= info_.ops.size()) bad_row(info_.family, "a row names op #" + std::to_string(r.op));
    const std::string& op = info_.ops[r.op];
    if (r.kernel == nullptr) bad_row(info_.family, "the row of '" + op + "' has no kernel");
    for (DType d : kAllDTypes) {
      if (!(r.dtypes & dtypes({d}))) continue;
      Kernel& cell = dense_[slot(r.op, r.backend, d)];
      if (cell != nullptr) {
        bad_row(info_.family, "two rows claim (" + op + ", " +
                                  std::string(backend_kind_name(r.backend)) + ", " +
                                  std::string(dtype_name(d)) + ")");
      }
      cell = r.kernel;
    }
    runs_on_[static_cast<std::size_t>(r.backend)] = true;
  }
}

AdmissionTable RegistrationTable::build_admission(const FamilyInfo& info,
                                                  std::span<const Registration> rows) {
  AdmissionTable t(info.family, info.ops);
  for (const Registration& r : rows) {
    for (DType d : kAllDTypes) {
      if (r.op < info.ops.size() && (r.dtypes & dtypes({d})))
        t.admit(info.ops[r.op], r.backend, {d});
    }
  }
  for (BackendKind b : kAllBackendKinds) {
    const auto i = static_cast<std::size_t>(b);
    if (!info.notes[i].empty()) t.note(b, info.notes[i]);
  }
  return t;
}

FamilyModules RegistrationTable::build_modules(const RegistrationTable& table) {
  std::array<FamilyBackend, kBackendKindCount> backends;
  for (BackendKind kind : kAllBackendKinds) {
    const auto i = static_cast<std::size_t>(kind);
    bool any = false;
    for (const Registration& r : table.rows_) any = any || r.backend == kind;
    if (any) {
      // One executor per backend kind: it reads the op's key and indexes the table.
      backends[i].executor = [&table, kind](const ExecutionContext& ctx, const ExtensionOp& op,
                                            std::span<const EagerTensor> inputs) {
        return table.execute(kind, ctx, op, inputs);
      };
    } else {
      backends[i].missing = table.info_.missing[i].empty()
                                ? "this build registers no " + table.info_.family + " kernel for it"
                                : table.info_.missing[i];
    }
  }
  return FamilyModules(table.info_.family, std::move(backends));
}

void RegistrationTable::check(std::uint32_t op, BackendKind backend, DType dtype) const {
  if (admits(op, backend, dtype)) return;
  admission_.check(op < info_.ops.size() ? std::string_view(info_.ops[op]) : "?", backend, dtype);
  // Unreachable while the admission table is derived from the same rows; never run unadmitted.
  throw_error(ErrorKind::Unsupported, ErrorPhase::Module, info_.family,
              "no kernel registered for this op");
}

void RegistrationTable::check(OpKey key, BackendKind backend) const {
  check(key.op, backend, key.dtype);
  if (!key.to || admits(key.op, backend, *key.to)) return;
  const std::string op = info_.ops[key.op];
  throw_error(ErrorKind::Unsupported, ErrorPhase::Module, op,
              std::string(backend_kind_name(backend)) + " cannot " + op + " " +
                  std::string(dtype_name(key.dtype)) + " to " + std::string(dtype_name(*key.to)) +
                  " (it has no kernel for the target dtype)");
}

void RegistrationTable::check(const EagerExtensionTarget& target, OpKey key) const {
  // A kind without rows: the factory's own error (why, what to do instead).
  if (!runs_on(target.backend_kind)) return modules_.require(target);
  check(key, target.backend_kind);
}

ModulePtr RegistrationTable::module_for(const EagerExtensionTarget& target, OpKey key) const {
  check(target, key);
  return modules_.module_for(target);
}

std::vector<EagerTensor> RegistrationTable::execute(BackendKind backend,
                                                    const ExecutionContext& ctx,
                                                    const ExtensionOp& op,
                                                    std::span<const EagerTensor> inputs) const {
  const OpKey key = info_.key_of(op, inputs);
  const Kernel k = kernel(key.op, backend, key.dtype);
  // Reached only by a caller that skipped the factory's admission step.
  if (k == nullptr || (key.to && !admits(key.op, backend, *key.to))) check(key, backend);
  return k(ctx, op, inputs);
}

}  // namespace tenferro::runtime_internal
