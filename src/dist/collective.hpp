// Collective safety for distributed operations (see tenferro/dist.hpp): the same-call check
// before any communication, and agreement on errors so every rank throws the same one.
#pragma once

#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "dist/context_impl.hpp"

namespace tenferro::dist::detail {

// Every rank passes a description of its call (op, shapes, dtypes, options). When the ranks'
// hashes differ, every rank throws the same Validation error naming what each rank called.
void check_same_call(const Context::Impl& ctx, std::string_view op, const std::string& call);

// Every rank passes what its local step threw (or null). Returns when no rank failed;
// otherwise every rank throws the error of the lowest failing rank (its kind, phase and op,
// the message prefixed with "rank N: ").
void agree(const Context::Impl& ctx, std::exception_ptr local_error);

// Runs `step` on this rank, then agrees with the others on whether it failed anywhere.
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

}  // namespace tenferro::dist::detail
