// The kind of the tenferro::Error a callable throws (a test failure when it throws none).
#pragma once

#include <gtest/gtest.h>

#include "tenferro/core/error.hpp"

namespace tenferro::testing {

template <class F>
ErrorKind kind_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.kind();
  }
  ADD_FAILURE() << "no tenferro::Error was thrown";
  return ErrorKind::RuntimeState;
}

}  // namespace tenferro::testing
