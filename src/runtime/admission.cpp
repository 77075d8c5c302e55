#include "tenferro/runtime/admission.hpp"

#include "tenferro/core/error.hpp"

namespace tenferro {

namespace {
constexpr unsigned bit(DType d) {
  return 1u << static_cast<unsigned>(d);
}
constexpr std::size_t slot(BackendKind b) {
  return static_cast<std::size_t>(b);
}
}  // namespace

AdmissionTable::AdmissionTable(std::string family, std::vector<std::string> ops)
    : family_(std::move(family)), ops_(std::move(ops)), bits_(ops_.size(), {0u, 0u, 0u}) {}

std::size_t AdmissionTable::op_index(std::string_view op) const noexcept {
  for (std::size_t i = 0; i < ops_.size(); ++i) {
    if (ops_[i] == op) return i;
  }
  return ops_.size();
}

AdmissionTable& AdmissionTable::admit(std::string_view op, BackendKind backend,
                                      std::initializer_list<DType> dtypes) {
  const std::size_t i = op_index(op);
  if (i == ops_.size()) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Module, family_,
                "admission table has no op '" + std::string(op) + "'");
  }
  for (DType d : dtypes) bits_[i][slot(backend)] |= bit(d);
  return *this;
}

AdmissionTable& AdmissionTable::note(BackendKind backend, std::string text) {
  notes_[slot(backend)] = std::move(text);
  return *this;
}

bool AdmissionTable::admits(std::string_view op, BackendKind backend, DType dtype) const noexcept {
  const std::size_t i = op_index(op);
  return i < ops_.size() && (bits_[i][slot(backend)] & bit(dtype)) != 0;
}

void AdmissionTable::check(std::string_view op, BackendKind backend, DType dtype) const {
  if (admits(op, backend, dtype)) return;
  std::string why = std::string(op) + " is not implemented for " + std::string(dtype_name(dtype)) +
                    " on the " + std::string(backend_kind_name(backend)) + " backend";
  if (!notes_[slot(backend)].empty()) why += " (" + notes_[slot(backend)] + ")";
  why +=
      "; see `tenferro info` for the admission table. No other backend is tried: "
      "move the data explicitly (download / upload) to a runtime that supports it";
  throw_error(ErrorKind::Unsupported, ErrorPhase::Module, std::string(op), why);
}

std::string AdmissionTable::note_for(BackendKind backend) const {
  return notes_[slot(backend)];
}

std::string AdmissionTable::to_text() const {
  auto cell = [](unsigned mask) {
    std::string s;
    for (DType d : kAllDTypes) {
      if (mask & bit(d)) s += (s.empty() ? "" : ",") + std::string(dtype_name(d));
    }
    return s.empty() ? std::string("-") : s;
  };
  std::size_t width = 4;
  for (const auto& op : ops_) width = std::max(width, op.size());
  auto pad = [](std::string s, std::size_t w) {
    s.resize(std::max(s.size(), w), ' ');
    return s;
  };
  std::string out = family_ + "\n  " + pad("op", width);
  for (BackendKind b : kAllBackendKinds) out += "  " + pad(std::string(backend_kind_name(b)), 16);
  out += "\n";
  for (std::size_t i = 0; i < ops_.size(); ++i) {
    out += "  " + pad(ops_[i], width);
    for (BackendKind b : kAllBackendKinds) out += "  " + pad(cell(bits_[i][slot(b)]), 16);
    out += "\n";
  }
  for (BackendKind b : kAllBackendKinds) {
    if (!notes_[slot(b)].empty()) {
      out += "  note (" + std::string(backend_kind_name(b)) + "): " + notes_[slot(b)] + "\n";
    }
  }
  return out;
}

std::string AdmissionTable::to_json() const {
  std::string out = "{\"family\": \"" + family_ + "\", \"ops\": {";
  for (std::size_t i = 0; i < ops_.size(); ++i) {
    if (i) out += ", ";
    out += "\"" + ops_[i] + "\": {";
    bool first_backend = true;
    for (BackendKind b : kAllBackendKinds) {
      if (!first_backend) out += ", ";
      first_backend = false;
      out += "\"" + std::string(backend_kind_name(b)) + "\": [";
      bool first = true;
      for (DType d : kAllDTypes) {
        if (!(bits_[i][slot(b)] & bit(d))) continue;
        if (!first) out += ", ";
        first = false;
        out += "\"" + std::string(dtype_name(d)) + "\"";
      }
      out += "]";
    }
    out += "}";
  }
  out += "}, \"notes\": {";
  bool first = true;
  for (BackendKind b : kAllBackendKinds) {
    if (notes_[slot(b)].empty()) continue;
    if (!first) out += ", ";
    first = false;
    std::string escaped;
    for (char c : notes_[slot(b)]) {
      if (c == '"' || c == '\\') escaped += '\\';
      escaped += c;
    }
    out += "\"" + std::string(backend_kind_name(b)) + "\": \"" + escaped + "\"";
  }
  return out + "}}";
}

}  // namespace tenferro
