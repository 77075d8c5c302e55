// Collective safety for distributed operations (see tenferro/dist.hpp): the same-call check
// before any communication, and agreement on errors so every rank throws the same one.
#pragma once

#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "dist/blacs.hpp"
#include "dist/context_impl.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::dist::detail {

// Every rank passes a description of its call (op, shapes, dtypes, options). When the ranks'
// hashes differ, every rank throws the same Validation error naming what each rank called.
void check_same_call(const Context::Impl& ctx, std::string_view op, const std::string& call);

// Every rank passes what its local step threw (or null). Returns when no rank failed;
// otherwise every rank throws the error of the lowest failing rank (its kind, phase and op,
// the message prefixed with "rank N: "; std::bad_alloc is a Resource error).
void agree(const Context::Impl& ctx, std::exception_ptr local_error);

// Runs `step` on this rank, then agrees with the others on whether it failed anywhere. `step`
// may contain collectives only where every rank reaches them: a throw before one leaves the
// other ranks waiting in it (and an agreed step nested in another is reported twice).
template <typename F>
auto agreed(const Context::Impl& ctx, F&& step) {
  using R = std::invoke_result_t<F>;
  std::exception_ptr error;
  if constexpr (std::is_void_v<R>) {
    try {
      std::forward<F>(step)();
    } catch (...) {
      error = std::current_exception();
    }
    agree(ctx, error);
  } else {
    std::optional<R> result;
    try {
      result.emplace(std::forward<F>(step)());
    } catch (...) {
      error = std::current_exception();
    }
    agree(ctx, error);
    return std::move(*result);
  }
}

// Test only: the next agreed_workspace on rank `rank` fails as an exhausted allocator would
// (std::bad_alloc), the failure no machine can be made to produce on one rank at will.
void fail_next_workspace_for_testing(int rank) noexcept;
// Throws std::bad_alloc once on the rank chosen above (agreed_workspace's hook).
void fail_injected_workspace(int rank);

// A driver's workspace of `count` elements (`name`: LWORK, RWORK, ...; ScaLAPACK indexes it with
// int), allocated with agreement: its size is this rank's (from its part of the matrix), so the
// allocation can fail on one rank alone, and that rank would leave while the others wait for it
// in the driver's collectives. Every rank gets the same ResourceError instead. A driver call is
// a collective step, so each of its workspaces is agreed before the call, never inside it.
template <typename T>
std::vector<T> agreed_workspace(const Context::Impl& ctx, std::string_view op, std::int64_t count,
                                const char* name) {
  return agreed(ctx, [&] {
    const int n = as_int(count, name);
    try {
      fail_injected_workspace(ctx.rank);
      return std::vector<T>(static_cast<std::size_t>(n));
    } catch (const std::bad_alloc&) {
      throw_error(ErrorKind::Resource, ErrorPhase::Execute, std::string(op),
                  "out of memory for the driver's workspace " + std::string(name) + " (" +
                      std::to_string(n) + " elements of " + std::to_string(sizeof(T)) + " bytes)");
    }
  });
}

}  // namespace tenferro::dist::detail
