// The error family of tenferro: one exception root with a typed kind, the phase and op in
// which it happened, and a nested typed cause (std::nested_exception, never flattened).
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro {

enum class ErrorKind : std::uint8_t {
  Validation,
  ContextMismatch,
  Unsupported,
  MissingEngine,
  NoInputIngress,
  MissingExtensionEngine,
  HostAccess,
  Numerical,
  Resource,  // an allocation that cannot succeed (ResourceError says how many bytes)
  Backend,
  RuntimeState,
};

// Where in an eager call an error arose (DESIGN §2 order).
enum class ErrorPhase : std::uint8_t {
  Input,     // argument validation, before anything runs
  Target,    // deriving the runtime's extension target
  Ingress,   // input placement check
  Module,    // module factory / admission
  Install,   // ensure / install of the module
  Execute,   // the executor ran
  Transfer,  // explicit upload / download
  Io,        // file reading / writing
  Runtime,   // runtime construction and lifetime
};

std::string_view error_kind_name(ErrorKind k);
std::string_view error_phase_name(ErrorPhase p);

class Error : public std::exception {
 public:
  Error(ErrorKind kind, ErrorPhase phase, std::string op, std::string message);
  ErrorKind kind() const noexcept { return kind_; }
  ErrorPhase phase() const noexcept { return phase_; }
  const std::string& op() const noexcept { return op_; }
  const std::string& message() const noexcept { return message_; }
  // "<op>: <message>" (op omitted when empty).
  const char* what() const noexcept override { return what_.c_str(); }

 private:
  ErrorKind kind_;
  ErrorPhase phase_;
  std::string op_;
  std::string message_;
  std::string what_;
};

// An allocation that cannot succeed: more bytes than this process can be given (checked
// before allocating), or an allocator failure caught at the op boundary. The runtime that
// raised it stays usable. requested_bytes is 0 when the allocator failed without saying.
class ResourceError : public Error {
 public:
  ResourceError(ErrorPhase phase, std::string op, std::string what, std::uint64_t requested_bytes,
                std::optional<std::uint64_t> available_bytes);
  std::uint64_t requested_bytes() const noexcept { return requested_bytes_; }
  // The most this process can be given (physical memory + swap, capped by resource limits),
  // when known.
  const std::optional<std::uint64_t>& available_bytes() const noexcept { return available_bytes_; }

 private:
  std::uint64_t requested_bytes_;
  std::optional<std::uint64_t> available_bytes_;
};

// The first tenferro::Error in the chain that starts at `e` (e itself, then its nested
// causes), or nullptr when the chain holds none.
const Error* reason(const std::exception& e) noexcept;
// The innermost tenferro::Error of the chain (the root cause), or nullptr.
const Error* root_reason(const std::exception& e) noexcept;

// Shorthands that build an Error of one kind.
[[noreturn]] void throw_error(ErrorKind kind, ErrorPhase phase, std::string op,
                              std::string message);
[[noreturn]] inline void throw_validation(std::string op, std::string message) {
  throw_error(ErrorKind::Validation, ErrorPhase::Input, std::move(op), std::move(message));
}

}  // namespace tenferro

#pragma GCC visibility pop
