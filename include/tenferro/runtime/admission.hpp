// Admission tables: which (op, backend kind, dtype) a family implements. Checked before
// execution (a refusal is a typed Unsupported error) and printed by `tenferro info`.
#pragma once

#include <array>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "tenferro/core/dtype.hpp"
#include "tenferro/runtime/placement.hpp"

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro {

class AdmissionTable {
 public:
  AdmissionTable(std::string family, std::vector<std::string> ops);
  AdmissionTable& admit(std::string_view op, BackendKind backend,
                        std::initializer_list<DType> dtypes);
  // A note printed beside a refused backend, e.g. "WGSL has no f64".
  AdmissionTable& note(BackendKind backend, std::string text);

  bool admits(std::string_view op, BackendKind backend, DType dtype) const noexcept;
  // Throws Unsupported (phase Module) naming the op, backend and dtype when not admitted.
  void check(std::string_view op, BackendKind backend, DType dtype) const;

  const std::string& family() const noexcept { return family_; }
  const std::vector<std::string>& ops() const noexcept { return ops_; }
  std::string note_for(BackendKind backend) const;
  std::string to_text() const;  // a table: one row per op, one column per backend
  std::string to_json() const;

 private:
  std::size_t op_index(std::string_view op) const noexcept;
  std::string family_;
  std::vector<std::string> ops_;
  // bits_[op][backend] is a mask over DType values.
  std::vector<std::array<unsigned, kBackendKindCount>> bits_;
  std::array<std::string, kBackendKindCount> notes_;
};

}  // namespace tenferro

#pragma GCC visibility pop
