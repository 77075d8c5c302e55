// Runs `call`, which must throw a tenferro::ResourceError; returns it (a GoogleTest failure,
// and the unexpected exception rethrown, otherwise).
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <optional>

#include "tenferro/core/error.hpp"

namespace tenferro::testing {

inline ResourceError expect_resource_error(const std::function<void()>& call) {
  try {
    call();
  } catch (const ResourceError& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a ResourceError: " << e.what();
    throw;
  }
  ADD_FAILURE() << "no error";
  return ResourceError(ErrorPhase::Execute, "", "", 0, std::nullopt);
}

}  // namespace tenferro::testing
