// Helpers shared by the WebGPU prims tests: random host values, the same strided view built on
// two runtimes (WebGPU and the CPU reference), device-residency checks around one op, and an
// element-by-element comparison whose tolerance can fail.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"
#include "tenferro/runtime/stats.hpp"

namespace tenferro::prims_webgpu_test {

using cd = std::complex<double>;
using cf = std::complex<float>;

inline constexpr double kEpsF32 = 0x1.0p-24;  // unit roundoff of f32

// A host tensor of `dtype` (F32 or C32) with both parts uniform in [lo, hi].
inline Tensor uniform_host(DType dtype, const Shape& shape, std::uint64_t seed, double lo,
                           double hi) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(static_cast<float>(lo), static_cast<float>(hi));
  Tensor t = Tensor::zeros(dtype, shape);
  for (std::int64_t i = 0; i < t.numel(); ++i) {
    if (dtype == DType::F32) {
      t.data<float>()[i] = dist(rng);
    } else {
      const float re = dist(rng), im = dist(rng);
      t.data<cf>()[i] = {re, im};
    }
  }
  return t;
}

// Values of a downloaded F32/C32 tensor (column-major) as complex doubles.
inline std::vector<cd> values_of(const Tensor& t) {
  std::vector<cd> v;
  if (t.dtype() == DType::F32) {
    for (float x : t.to_vector<float>()) v.emplace_back(x, 0.0);
  } else {
    for (cf x : t.to_vector<cf>()) v.emplace_back(x.real(), x.imag());
  }
  return v;
}

// How an operand of the logical shape {5, 7, 3} is laid out in device memory.
enum class View { Compact, Permuted, Strided, Broadcast };
inline const char* view_name(View v) {
  switch (v) {
    case View::Compact:
      return "compact";
    case View::Permuted:
      return "permuted";
    case View::Strided:
      return "strided";
    case View::Broadcast:
      return "broadcast";
  }
  return "?";
}
inline const Shape kViewShape{5, 7, 3};

// The host tensor behind a view (its storage shape).
inline Tensor view_storage(View v, DType dtype, std::uint64_t seed, double lo, double hi) {
  switch (v) {
    case View::Compact:
      return uniform_host(dtype, kViewShape, seed, lo, hi);
    case View::Permuted:
      return uniform_host(dtype, {3, 5, 7}, seed, lo, hi);
    case View::Strided:
      return uniform_host(dtype, {11, 7, 8}, seed, lo, hi);
    case View::Broadcast:
      return uniform_host(dtype, {5, 1, 3}, seed, lo, hi);
  }
  return {};
}

// The view of logical shape kViewShape over `storage` uploaded to `rt` (views are metadata).
inline EagerTensor make_view(const std::shared_ptr<EagerRuntime>& rt, View v,
                             const Tensor& storage) {
  const EagerTensor x = rt->upload(storage);
  switch (v) {
    case View::Compact:
      return x;
    case View::Permuted: {
      const std::int64_t perm[] = {1, 2, 0};
      return prims::permute(x, perm);
    }
    case View::Strided: {
      const prims::Slice s[] = {{0, 10, 2}, {}, {2, 8, 2}};
      return prims::slice(x, s);
    }
    case View::Broadcast:
      return prims::broadcast_to(x, kViewShape);
  }
  return x;
}

// Element (i, j, k) of the view's logical shape kViewShape, read from its storage directly
// (independent of the library's view code).
inline cd logical_value(View v, const Tensor& storage, std::int64_t i, std::int64_t j,
                        std::int64_t k) {
  const Shape& s = storage.shape();
  std::int64_t a = 0, b = 0, c = 0;  // storage index
  switch (v) {
    case View::Compact:
      a = i, b = j, c = k;
      break;
    case View::Permuted:  // storage {3, 5, 7}, permuted by {1, 2, 0}
      a = k, b = i, c = j;
      break;
    case View::Strided:  // storage {11, 7, 8}, slices {0:10:2, :, 2:8:2}
      a = 2 * i, b = j, c = 2 + 2 * k;
      break;
    case View::Broadcast:  // storage {5, 1, 3}
      a = i, b = 0, c = k;
      break;
  }
  const std::int64_t at = a + s[0] * (b + s[1] * c);
  if (storage.dtype() == DType::F32) return {storage.data<float>()[at], 0.0};
  const cf x = storage.data<cf>()[at];
  return {x.real(), x.imag()};
}

// Runs `op` on `rt` and checks the placement contract around it: no upload or download, one or
// more kernel launches of the prims family on this backend, the output on `rt` and its
// placement.
inline EagerTensor run_resident(const std::shared_ptr<EagerRuntime>& rt,
                                const std::function<EagerTensor()>& op, const std::string& what) {
  const std::string counter =
      "tenferro.prims.v1@" + std::string(backend_kind_name(rt->backend().kind()));
  const RuntimeStats before = rt->stats();
  EagerTensor out = op();
  const RuntimeStats after = rt->stats();
  EXPECT_EQ(after.uploads, before.uploads) << what << ": the op uploaded";
  EXPECT_EQ(after.downloads, before.downloads) << what << ": the op downloaded";
  EXPECT_GT(after.kernel_launches_for(counter), before.kernel_launches_for(counter))
      << what << ": no prims kernel launch was counted";
  EXPECT_EQ(out.runtime().get(), rt.get()) << what;
  EXPECT_EQ(out.placement(), rt->backend().placement()) << what;
  return out;
}

// True when `got` matches `want` within `tol`, with NaN matching NaN and infinities matching
// exactly.
inline bool close_part(double got, double want, double tol) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::isfinite(got) && std::abs(got - want) <= tol;
}

// Compares two equally shaped result lists; reports up to 5 mismatches and returns how many
// elements mismatched.
inline int compare_values(const std::vector<cd>& got, const std::vector<cd>& want, double rtol,
                          double atol, const std::string& what) {
  EXPECT_EQ(got.size(), want.size()) << what;
  int bad = 0;
  for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
    // |want|, or its largest finite part when the other is infinite.
    const double re = std::isfinite(want[i].real()) ? std::abs(want[i].real()) : 0.0;
    const double im = std::isfinite(want[i].imag()) ? std::abs(want[i].imag()) : 0.0;
    const double scale = std::isfinite(std::abs(want[i])) ? std::abs(want[i]) : std::max(re, im);
    const double tol = rtol * scale + atol;
    if (close_part(got[i].real(), want[i].real(), tol) &&
        close_part(got[i].imag(), want[i].imag(), tol))
      continue;
    if (++bad <= 5) {
      ADD_FAILURE() << what << ": element " << i << " is " << got[i] << ", expected " << want[i]
                    << " (tolerance " << tol << ")";
    }
  }
  return bad;
}

}  // namespace tenferro::prims_webgpu_test
