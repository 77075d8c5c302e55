#include "tenferro/core/error.hpp"

namespace tenferro {

std::string_view error_kind_name(ErrorKind k) {
  switch (k) {
    case ErrorKind::Validation:
      return "Validation";
    case ErrorKind::ContextMismatch:
      return "ContextMismatch";
    case ErrorKind::Unsupported:
      return "Unsupported";
    case ErrorKind::MissingEngine:
      return "MissingEngine";
    case ErrorKind::NoInputIngress:
      return "NoInputIngress";
    case ErrorKind::MissingExtensionEngine:
      return "MissingExtensionEngine";
    case ErrorKind::HostAccess:
      return "HostAccess";
    case ErrorKind::Numerical:
      return "Numerical";
    case ErrorKind::Resource:
      return "Resource";
    case ErrorKind::Backend:
      return "Backend";
    case ErrorKind::RuntimeState:
      return "RuntimeState";
  }
  return "?";
}

std::string_view error_phase_name(ErrorPhase p) {
  switch (p) {
    case ErrorPhase::Input:
      return "input";
    case ErrorPhase::Target:
      return "target";
    case ErrorPhase::Ingress:
      return "ingress";
    case ErrorPhase::Module:
      return "module";
    case ErrorPhase::Install:
      return "install";
    case ErrorPhase::Execute:
      return "execute";
    case ErrorPhase::Transfer:
      return "transfer";
    case ErrorPhase::Io:
      return "io";
    case ErrorPhase::Runtime:
      return "runtime";
  }
  return "?";
}

Error::Error(ErrorKind kind, ErrorPhase phase, std::string op, std::string message)
    : kind_(kind), phase_(phase), op_(std::move(op)), message_(std::move(message)) {
  what_ = op_.empty() ? message_ : op_ + ": " + message_;
}

ResourceError::ResourceError(ErrorPhase phase, std::string op, std::string what,
                             std::uint64_t requested_bytes,
                             std::optional<std::uint64_t> available_bytes)
    : Error(ErrorKind::Resource, phase, std::move(op), std::move(what)),
      requested_bytes_(requested_bytes),
      available_bytes_(available_bytes) {}

namespace {
// Calls visit(e) on e and then on each nested cause, stopping when visit returns true.
template <class Visit>
void walk_chain(const std::exception& e, Visit&& visit) {
  if (visit(e)) return;
  try {
    std::rethrow_if_nested(e);
  } catch (const std::exception& inner) {
    walk_chain(inner, visit);
  } catch (...) {
  }
}
}  // namespace

const Error* reason(const std::exception& e) noexcept {
  const Error* found = nullptr;
  walk_chain(e, [&](const std::exception& x) {
    found = dynamic_cast<const Error*>(&x);
    return found != nullptr;
  });
  return found;
}

const Error* root_reason(const std::exception& e) noexcept {
  const Error* found = nullptr;
  walk_chain(e, [&](const std::exception& x) {
    if (auto* err = dynamic_cast<const Error*>(&x)) found = err;
    return false;
  });
  return found;
}

void throw_error(ErrorKind kind, ErrorPhase phase, std::string op, std::string message) {
  throw Error(kind, phase, std::move(op), std::move(message));
}

}  // namespace tenferro
