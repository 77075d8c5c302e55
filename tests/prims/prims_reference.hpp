// A naive NumPy-semantics reference for the prims tests, written without tenferro's kernels:
// host arrays of std::complex<double> in column-major order, multi-index loops, NumPy's
// broadcasting (shapes aligned from the last axis), promotion table and reductions. Slow on
// purpose: every rule is spelled out so that a wrong kernel cannot agree with it by sharing code.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tenferro/core/tensor.hpp"

namespace tenferro::prims_test {

using C = std::complex<double>;
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

// A host array: dtype, logical shape, values in column-major order (first index fastest).
struct Ref {
  DType dtype = DType::F64;
  Shape shape;
  std::vector<C> v;
  std::int64_t numel() const { return static_cast<std::int64_t>(v.size()); }
};

inline std::int64_t ref_numel(const Shape& s) {
  std::int64_t n = 1;
  for (std::int64_t e : s) n *= e;
  return n;
}

// Column-major linear index <-> multi-index.
inline std::vector<std::int64_t> unravel(std::int64_t k, const Shape& s) {
  std::vector<std::int64_t> idx(s.size());
  for (std::size_t a = 0; a < s.size(); ++a) {
    idx[a] = k % s[a];
    k /= s[a];
  }
  return idx;
}
inline std::int64_t ravel(const std::vector<std::int64_t>& idx, const Shape& s) {
  std::int64_t k = 0, stride = 1;
  for (std::size_t a = 0; a < s.size(); ++a) {
    k += idx[a] * stride;
    stride *= s[a];
  }
  return k;
}

// The value `z` as the dtype stores it (F32 rounds, real dtypes drop the imaginary part).
inline C round_to(DType d, C z) {
  switch (d) {
    case DType::F32:
      return {static_cast<double>(static_cast<float>(z.real())), 0.0};
    case DType::F64:
      return {z.real(), 0.0};
    case DType::C32:
      return {static_cast<double>(static_cast<float>(z.real())),
              static_cast<double>(static_cast<float>(z.imag()))};
    case DType::C64:
      return z;
  }
  return z;
}

inline Ref make_ref(DType d, Shape shape, std::vector<C> values) {
  Ref r{d, std::move(shape), std::move(values)};
  EXPECT_EQ(r.numel(), ref_numel(r.shape)) << "test table row has the wrong number of values";
  for (C& z : r.v) z = round_to(d, z);
  return r;
}

// Values uniform in [lo, hi] (both parts for complex dtypes), rounded to the dtype.
inline Ref random_ref(DType d, Shape shape, unsigned seed, double lo = -2.0, double hi = 2.0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<C> v(static_cast<std::size_t>(ref_numel(shape)));
  for (C& z : v) {
    const double re = u(rng);
    z = is_complex(d) ? C(re, u(rng)) : C(re, 0.0);
  }
  return make_ref(d, std::move(shape), std::move(v));
}

inline Tensor to_tensor(const Ref& r) {
  Tensor t = Tensor::zeros(r.dtype, r.shape);
  const std::size_t n = r.v.size();
  switch (r.dtype) {
    case DType::F32: {
      float* p = t.data<float>();
      for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<float>(r.v[i].real());
      break;
    }
    case DType::F64: {
      double* p = t.data<double>();
      for (std::size_t i = 0; i < n; ++i) p[i] = r.v[i].real();
      break;
    }
    case DType::C32: {
      auto* p = t.data<std::complex<float>>();
      for (std::size_t i = 0; i < n; ++i) {
        p[i] = {static_cast<float>(r.v[i].real()), static_cast<float>(r.v[i].imag())};
      }
      break;
    }
    case DType::C64: {
      auto* p = t.data<C>();
      for (std::size_t i = 0; i < n; ++i) p[i] = r.v[i];
      break;
    }
  }
  return t;
}

inline Ref from_tensor(const Tensor& t) {
  Ref r;
  r.dtype = t.dtype();
  r.shape = t.shape();
  visit_dtype(t.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (const T& x : t.to_vector<T>()) {
      if constexpr (std::is_floating_point_v<T>) {
        r.v.emplace_back(static_cast<double>(x), 0.0);
      } else {
        r.v.emplace_back(static_cast<double>(x.real()), static_cast<double>(x.imag()));
      }
    }
  });
  return r;
}

// NumPy's promotion of two operands: the smallest of F32 < F64, C32 < C64 holding both.
inline DType promote_ref(DType a, DType b) {
  const bool cplx = is_complex(a) || is_complex(b);
  const bool wide = a == DType::F64 || a == DType::C64 || b == DType::F64 || b == DType::C64;
  if (cplx) return wide ? DType::C64 : DType::C32;
  return wide ? DType::F64 : DType::F32;
}

// NumPy broadcasting: align from the last axis; equal extents or a 1 on one side. Returns false
// when the shapes do not broadcast.
inline bool broadcast_ref(const Shape& a, const Shape& b, Shape& out) {
  const std::size_t rank = std::max(a.size(), b.size());
  out.assign(rank, 1);
  for (std::size_t back = 0; back < rank; ++back) {
    const std::int64_t ea = back < a.size() ? a[a.size() - 1 - back] : 1;
    const std::int64_t eb = back < b.size() ? b[b.size() - 1 - back] : 1;
    std::int64_t e;
    if (ea == eb) {
      e = ea;
    } else if (ea == 1) {
      e = eb;
    } else if (eb == 1) {
      e = ea;
    } else {
      return false;
    }
    out[rank - 1 - back] = e;
  }
  return true;
}

// The element of `x` that output multi-index `oidx` (of a broadcast result) reads.
inline C broadcast_read(const Ref& x, const std::vector<std::int64_t>& oidx) {
  const std::size_t lead = oidx.size() - x.shape.size();
  std::vector<std::int64_t> idx(x.shape.size());
  for (std::size_t a = 0; a < x.shape.size(); ++a) {
    idx[a] = x.shape[a] == 1 ? 0 : oidx[lead + a];
  }
  return x.v[static_cast<std::size_t>(ravel(idx, x.shape))];
}

// The exact result as the output dtype stores it: F32/C32 round (so a result past FLT_MAX is
// the infinity the kernel must give), and a real dtype holds no imaginary part (the reference
// drops what complex<double> arithmetic leaves there: inf * 5 as complex numbers is (inf, nan),
// -x of a real gives a -0 imaginary part).
inline C as_dtype(DType d, C z) {
  return round_to(d, z);
}

inline Ref unary_ref(const Ref& x, DType out, const std::function<C(C)>& f) {
  Ref r{out, x.shape, {}};
  for (const C& z : x.v) r.v.push_back(as_dtype(out, f(z)));
  return r;
}

inline Ref binary_ref(const Ref& a, const Ref& b, DType out, const std::function<C(C, C)>& f) {
  Ref r{out, {}, {}};
  EXPECT_TRUE(broadcast_ref(a.shape, b.shape, r.shape)) << "reference: shapes do not broadcast";
  const std::int64_t n = ref_numel(r.shape);
  for (std::int64_t k = 0; k < n; ++k) {
    const auto idx = unravel(k, r.shape);
    r.v.push_back(as_dtype(out, f(broadcast_read(a, idx), broadcast_read(b, idx))));
  }
  return r;
}

// Permutes axes: result axis i is input axis perm[i].
inline Ref permute_ref(const Ref& x, const std::vector<std::int64_t>& perm) {
  Ref r{x.dtype, Shape(perm.size()), {}};
  for (std::size_t i = 0; i < perm.size(); ++i) r.shape[i] = x.shape[perm[i]];
  const std::int64_t n = ref_numel(r.shape);
  for (std::int64_t k = 0; k < n; ++k) {
    const auto oidx = unravel(k, r.shape);
    std::vector<std::int64_t> idx(perm.size());
    for (std::size_t i = 0; i < perm.size(); ++i) idx[perm[i]] = oidx[i];
    r.v.push_back(x.v[static_cast<std::size_t>(ravel(idx, x.shape))]);
  }
  return r;
}

// Python's slice on one axis: clamped start/stop, positive step.
inline Ref slice_ref(const Ref& x, std::size_t axis, std::int64_t start, std::int64_t stop,
                     std::int64_t step) {
  const std::int64_t n = x.shape[axis];
  auto fix = [n](std::int64_t i) { return std::clamp<std::int64_t>(i < 0 ? i + n : i, 0, n); };
  std::vector<std::int64_t> picks;
  for (std::int64_t i = fix(start); i < fix(stop); i += step) picks.push_back(i);
  Ref r{x.dtype, x.shape, {}};
  r.shape[axis] = static_cast<std::int64_t>(picks.size());
  const std::int64_t total = ref_numel(r.shape);
  for (std::int64_t k = 0; k < total; ++k) {
    auto idx = unravel(k, r.shape);
    idx[axis] = picks[static_cast<std::size_t>(idx[axis])];
    r.v.push_back(x.v[static_cast<std::size_t>(ravel(idx, x.shape))]);
  }
  return r;
}

// A reduction with NumPy's axis rules: `axes` already normalized (each in [0, rank)), the
// result keeps the remaining axes in order (or size-1 axes with keepdims).
struct Reduction {
  C init;
  std::function<C(C, C)> combine;
  std::function<C(C, std::int64_t)> finish = [](C acc, std::int64_t) { return acc; };
};

inline Ref reduce_ref(const Ref& x, const std::set<std::int64_t>& axes, bool keepdims, DType out,
                      const Reduction& red) {
  Shape kept = x.shape;
  std::int64_t count = 1;
  for (std::int64_t a : axes) {
    count *= x.shape[static_cast<std::size_t>(a)];
    kept[static_cast<std::size_t>(a)] = 1;
  }
  std::vector<C> acc(static_cast<std::size_t>(ref_numel(kept)), red.init);
  for (std::int64_t k = 0; k < x.numel(); ++k) {
    auto idx = unravel(k, x.shape);
    for (std::int64_t a : axes) idx[static_cast<std::size_t>(a)] = 0;
    C& slot = acc[static_cast<std::size_t>(ravel(idx, kept))];
    slot = as_dtype(x.dtype, red.combine(slot, x.v[static_cast<std::size_t>(k)]));
  }
  Ref r{out, {}, {}};
  for (std::size_t a = 0; a < x.shape.size(); ++a) {
    if (!axes.count(static_cast<std::int64_t>(a))) {
      r.shape.push_back(x.shape[a]);
    } else if (keepdims) {
      r.shape.push_back(1);
    }
  }
  // Dropping size-1 axes does not move any element in column-major order.
  for (const C& s : acc) r.v.push_back(as_dtype(out, red.finish(s, count)));
  return r;
}

inline bool has_nan(C z) {
  return std::isnan(z.real()) || std::isnan(z.imag());
}

// Tolerances. F32 kernels round each operation to 2^-24 relative; a handful of roundings per
// element (a transcendental is a few ulp, a short reduction a few dozen) stays well under 1e-5
// while any wrong formula or precision loss (computing in a narrower type, a wrong branch) is
// orders of magnitude larger. F64 by the same argument at 2^-53: 1e-12 leaves ~10^4 ulp for the
// longest reductions in these tables. atol covers results that cancel to ~0 from O(1) inputs.
struct Tol {
  double rtol;
  double atol;
};
inline Tol tol_for(DType d) {
  return is_double(d) ? Tol{1e-12, 1e-13} : Tol{1e-5, 1e-6};
}

inline std::string fmt(C z) {
  std::ostringstream os;
  os.precision(17);
  os << z;
  return os.str();
}

// got vs want: same dtype and shape; per element, NaN where the reference has NaN (any part, for
// complex: which part carries the NaN is not specified), an infinity exactly where it has one,
// else |got - want| <= atol * scale + rtol * |want|.
inline ::testing::AssertionResult close(const Ref& got, const Ref& want, Tol tol,
                                        double scale = 1.0) {
  if (got.dtype != want.dtype) {
    return ::testing::AssertionFailure()
           << "dtype " << dtype_name(got.dtype) << ", expected " << dtype_name(want.dtype);
  }
  if (got.shape != want.shape) {
    return ::testing::AssertionFailure() << "shape " << shape_to_string(got.shape) << ", expected "
                                         << shape_to_string(want.shape);
  }
  std::ostringstream bad;
  int misses = 0;
  for (std::size_t i = 0; i < want.v.size(); ++i) {
    const C g = got.v[i], w = want.v[i];
    bool ok;
    if (has_nan(w)) {
      ok = has_nan(g);
    } else if (std::isinf(w.real()) || std::isinf(w.imag())) {
      ok = !has_nan(g) &&
           (std::isinf(w.real()) ? g.real() == w.real()
                                 : std::abs(g.real() - w.real()) <=
                                       tol.atol * scale + tol.rtol * std::abs(w.real())) &&
           (std::isinf(w.imag()) ? g.imag() == w.imag()
                                 : std::abs(g.imag() - w.imag()) <=
                                       tol.atol * scale + tol.rtol * std::abs(w.imag()));
    } else {
      ok = !has_nan(g) && std::abs(g - w) <= tol.atol * scale + tol.rtol * std::abs(w);
    }
    if (!ok && misses++ < 5) {
      bad << "\n  at " << shape_to_string(unravel(static_cast<std::int64_t>(i), want.shape))
          << ": got " << fmt(g) << ", expected " << fmt(w);
    }
  }
  if (misses > 0) {
    return ::testing::AssertionFailure()
           << misses << " of " << want.v.size() << " elements differ (" << dtype_name(want.dtype)
           << ", shape " << shape_to_string(want.shape) << ")" << bad.str();
  }
  return ::testing::AssertionSuccess();
}

// Bit-for-bit equality including the sign of zero (casts, views, copies and branch cuts).
inline ::testing::AssertionResult identical(const Ref& got, const Ref& want) {
  if (got.dtype != want.dtype || got.shape != want.shape) {
    return ::testing::AssertionFailure()
           << dtype_name(got.dtype) << shape_to_string(got.shape) << ", expected "
           << dtype_name(want.dtype) << shape_to_string(want.shape);
  }
  for (std::size_t i = 0; i < want.v.size(); ++i) {
    const C g = got.v[i], w = want.v[i];
    const auto same = [](double x, double y) {
      return (std::isnan(x) && std::isnan(y)) || (x == y && std::signbit(x) == std::signbit(y));
    };
    if (!same(g.real(), w.real()) || !same(g.imag(), w.imag())) {
      return ::testing::AssertionFailure()
             << "at " << shape_to_string(unravel(static_cast<std::int64_t>(i), want.shape))
             << ": got " << fmt(g) << ", expected " << fmt(w);
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace tenferro::prims_test
