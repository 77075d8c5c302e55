// The error family: kind, phase, op, message, and the walkers over nested causes.
#include "tenferro/core/error.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

namespace tenferro {
namespace {

constexpr ErrorKind kKinds[] = {ErrorKind::Validation,     ErrorKind::ContextMismatch,
                                ErrorKind::Unsupported,    ErrorKind::MissingEngine,
                                ErrorKind::NoInputIngress, ErrorKind::MissingExtensionEngine,
                                ErrorKind::HostAccess,     ErrorKind::Numerical,
                                ErrorKind::Backend,        ErrorKind::RuntimeState};
constexpr ErrorPhase kPhases[] = {ErrorPhase::Input,    ErrorPhase::Target,  ErrorPhase::Ingress,
                                  ErrorPhase::Module,   ErrorPhase::Install, ErrorPhase::Execute,
                                  ErrorPhase::Transfer, ErrorPhase::Io,      ErrorPhase::Runtime};

// Runs `f` and returns a copy of what it threw, as std::exception_ptr.
template <class F>
std::exception_ptr capture(F&& f) {
  try {
    f();
  } catch (...) {
    return std::current_exception();
  }
  ADD_FAILURE() << "nothing was thrown";
  return nullptr;
}

// Calls `check` with the std::exception held by `p`.
template <class F>
void with_exception(const std::exception_ptr& p, F&& check) {
  ASSERT_TRUE(p);
  try {
    std::rethrow_exception(p);
  } catch (const std::exception& e) {
    check(e);
  }
}

TEST(Error, CarriesKindPhaseOpAndMessage) {
  const Error e(ErrorKind::HostAccess, ErrorPhase::Transfer, "download", "value lives on cuda:0");
  EXPECT_EQ(e.kind(), ErrorKind::HostAccess);
  EXPECT_EQ(e.phase(), ErrorPhase::Transfer);
  EXPECT_EQ(e.op(), "download");
  EXPECT_EQ(e.message(), "value lives on cuda:0");
  EXPECT_STREQ(e.what(), "download: value lives on cuda:0");
}

TEST(Error, WhatOmitsAnEmptyOp) {
  const Error e(ErrorKind::Backend, ErrorPhase::Execute, "", "kernel failed");
  EXPECT_STREQ(e.what(), "kernel failed");
}

TEST(Error, IsAStdExceptionAndCopiesIntact) {
  const Error original(ErrorKind::Numerical, ErrorPhase::Execute, "linalg.solve", "singular");
  const Error copy = original;  // NOLINT: exceptions are copied when thrown
  EXPECT_EQ(copy.kind(), ErrorKind::Numerical);
  EXPECT_STREQ(copy.what(), original.what());
  const std::exception& base = copy;
  EXPECT_STREQ(base.what(), "linalg.solve: singular");
}

TEST(Error, KindAndPhaseNamesAreDistinct) {
  std::set<std::string_view> kind_names, phase_names;
  for (ErrorKind k : kKinds) {
    EXPECT_FALSE(error_kind_name(k).empty());
    kind_names.insert(error_kind_name(k));
  }
  for (ErrorPhase p : kPhases) {
    EXPECT_FALSE(error_phase_name(p).empty());
    phase_names.insert(error_phase_name(p));
  }
  EXPECT_EQ(kind_names.size(), std::size(kKinds));
  EXPECT_EQ(phase_names.size(), std::size(kPhases));
  EXPECT_EQ(error_kind_name(ErrorKind::Validation), "Validation");
  EXPECT_EQ(error_kind_name(ErrorKind::MissingExtensionEngine), "MissingExtensionEngine");
  EXPECT_EQ(error_kind_name(ErrorKind::HostAccess), "HostAccess");
}

TEST(Error, ThrowHelpersBuildTheRightError) {
  with_exception(
      capture([] { throw_error(ErrorKind::Unsupported, ErrorPhase::Module, "fft", "no"); }),
      [](const std::exception& e) {
        const auto* err = dynamic_cast<const Error*>(&e);
        ASSERT_NE(err, nullptr);
        EXPECT_EQ(err->kind(), ErrorKind::Unsupported);
        EXPECT_EQ(err->phase(), ErrorPhase::Module);
        EXPECT_EQ(err->op(), "fft");
        EXPECT_EQ(err->message(), "no");
      });
  with_exception(capture([] { throw_validation("einsum", "bad subscripts"); }),
                 [](const std::exception& e) {
                   const auto* err = dynamic_cast<const Error*>(&e);
                   ASSERT_NE(err, nullptr);
                   EXPECT_EQ(err->kind(), ErrorKind::Validation);
                   EXPECT_EQ(err->phase(), ErrorPhase::Input);
                   EXPECT_EQ(err->op(), "einsum");
                 });
}

TEST(Reason, OfAPlainErrorIsItself) {
  const Error e(ErrorKind::Validation, ErrorPhase::Input, "op", "m");
  EXPECT_EQ(reason(e), &e);
  EXPECT_EQ(root_reason(e), &e);
}

TEST(Reason, OfAForeignExceptionIsNull) {
  const std::runtime_error e("not ours");
  EXPECT_EQ(reason(e), nullptr);
  EXPECT_EQ(root_reason(e), nullptr);
}

// outer Error <- middle Error <- root Error, built with std::throw_with_nested.
std::exception_ptr three_level_chain() {
  return capture([] {
    try {
      try {
        throw_error(ErrorKind::Numerical, ErrorPhase::Execute, "lapack", "info = 3");
      } catch (...) {
        std::throw_with_nested(
            Error(ErrorKind::Backend, ErrorPhase::Execute, "linalg.svd", "failed"));
      }
    } catch (...) {
      std::throw_with_nested(Error(ErrorKind::Validation, ErrorPhase::Io, "npy.load", "wrapped"));
    }
  });
}

TEST(Reason, WalksThroughNestedErrors) {
  with_exception(three_level_chain(), [](const std::exception& e) {
    const Error* first = reason(e);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first, dynamic_cast<const Error*>(&e));
    EXPECT_EQ(first->op(), "npy.load");
    const Error* root = root_reason(e);
    ASSERT_NE(root, nullptr);
    EXPECT_EQ(root->kind(), ErrorKind::Numerical);
    EXPECT_EQ(root->op(), "lapack");
    EXPECT_EQ(root->message(), "info = 3");
  });
}

TEST(Reason, FindsAnErrorBelowForeignWrappers) {
  const auto p = capture([] {
    try {
      try {
        throw_error(ErrorKind::MissingEngine, ErrorPhase::Target, "dispatch", "no engine");
      } catch (...) {
        std::throw_with_nested(std::runtime_error("library wrapper"));
      }
    } catch (...) {
      std::throw_with_nested(std::logic_error("application wrapper"));
    }
  });
  with_exception(p, [](const std::exception& e) {
    EXPECT_EQ(dynamic_cast<const Error*>(&e), nullptr);
    const Error* first = reason(e);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->kind(), ErrorKind::MissingEngine);
    EXPECT_EQ(root_reason(e), first);
  });
}

TEST(Reason, RootIsTheInnermostErrorEvenAboveAForeignCause) {
  const auto p = capture([] {
    try {
      throw std::out_of_range("std cause");
    } catch (...) {
      std::throw_with_nested(Error(ErrorKind::Backend, ErrorPhase::Execute, "cuda", "launch"));
    }
  });
  with_exception(p, [](const std::exception& e) {
    const Error* root = root_reason(e);
    ASSERT_NE(root, nullptr);
    EXPECT_EQ(root->op(), "cuda");
    EXPECT_EQ(reason(e), root);
  });
}

TEST(Reason, StopsSafelyAtANonStdCause) {
  const auto p = capture([] {
    try {
      throw 42;
    } catch (...) {
      std::throw_with_nested(Error(ErrorKind::RuntimeState, ErrorPhase::Runtime, "rt", "closed"));
    }
  });
  with_exception(p, [](const std::exception& e) {
    ASSERT_NE(reason(e), nullptr);
    EXPECT_EQ(reason(e)->kind(), ErrorKind::RuntimeState);
    EXPECT_EQ(root_reason(e), reason(e));
  });
}

TEST(Reason, NestedCauseKeepsItsType) {
  // The cause is a real typed exception, not a flattened string: it can be rethrown and caught
  // as tenferro::Error.
  with_exception(three_level_chain(), [](const std::exception& e) {
    const auto* nested = dynamic_cast<const std::nested_exception*>(&e);
    ASSERT_NE(nested, nullptr);
    try {
      nested->rethrow_nested();
      ADD_FAILURE() << "rethrow_nested returned";
    } catch (const Error& middle) {
      EXPECT_EQ(middle.kind(), ErrorKind::Backend);
      EXPECT_EQ(middle.op(), "linalg.svd");
    }
  });
}

}  // namespace
}  // namespace tenferro
