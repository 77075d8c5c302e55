// prims::cast between every allowed pair (F32 <-> F64, real -> complex, C32 <-> C64, and the
// same dtype as a compact copy) must equal C++'s own conversion bit for bit (round to nearest);
// complex -> real is refused with a typed error that names the explicit ops. Every runtime kind.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "prims/prims_reference.hpp"
#include "prims/prims_runtimes.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::prims_test {
namespace {

class PrimsCast : public PrimsRuntimeTest {};
TENFERRO_PRIMS_ON_ALL_RUNTIMES(PrimsCast);

// Values that exercise rounding F64 -> F32 (1/3, 0.1, a value between two floats), large and
// tiny magnitudes, signed zeros, NaN and infinities.
std::vector<C> cast_inputs(bool cplx) {
  std::vector<C> v = {1.0 / 3, 0.1,  -2.5, 1.0 + 0x1.0p-30, 3.0e38, -1.0e-40, 0.0,
                      -0.0,    kNaN, kInf, -kInf,           7.0,    -123.456, 1e-3};
  if (cplx) {
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = C(v[i].real(), v[(i + 3) % v.size()].real());
  }
  return v;
}

TEST_P(PrimsCast, EveryAllowedPairRoundsLikeCxx) {
  for (DType from : dtypes()) {
    for (DType to : dtypes()) {
      if (is_complex(from) && !is_complex(to)) continue;  // refused, tested below
      SCOPED_TRACE(std::string(dtype_name(from)) + " -> " + std::string(dtype_name(to)));
      const std::vector<C> values = cast_inputs(is_complex(from));
      const Ref x = make_ref(from, {static_cast<std::int64_t>(values.size())}, values);
      // round_to is static_cast per part: exactly the conversion C++ performs.
      const Ref want = unary_ref(x, to, [&](C z) { return round_to(to, z); });
      const EagerTensor ex = up(x);
      const EagerTensor y = prims::cast(ex, to);
      EXPECT_EQ(y.dtype(), to);
      EXPECT_TRUE(identical(down(y), want));
      if (from == to) {
        EXPECT_FALSE(y.buffer() == ex.buffer()) << "casting to the same dtype makes a copy";
      }
    }
  }
}

// A strided source: the cast reads the view, and its output is compact.
TEST_P(PrimsCast, CastOfAPermutedViewIsCompact) {
  for (DType from : dtypes()) {
    // Real -> its complex dtype; complex -> the other complex width where the runtime has it.
    DType to = complex_dtype(from);
    if (is_complex(from)) to = from == DType::C32 ? DType::C64 : DType::C32;
    if (!runs(to)) to = from;
    SCOPED_TRACE(std::string(dtype_name(from)) + " -> " + std::string(dtype_name(to)));
    const Ref x = random_ref(from, {3, 4}, 101);
    const EagerTensor t = prims::transpose(up(x));
    const EagerTensor same = prims::cast(t, from);
    EXPECT_TRUE(same.layout().is_compact());
    EXPECT_TRUE(identical(down(same), permute_ref(x, {1, 0})));
    const EagerTensor y = prims::cast(t, to);
    EXPECT_TRUE(y.layout().is_compact());
    EXPECT_TRUE(identical(
        down(y), unary_ref(permute_ref(x, {1, 0}), to, [&](C z) { return round_to(to, z); })));
  }
}

// The header: complex -> real only through real()/abs(); cast() refuses, naming them. The
// lead's implementation raises Validation (the request itself is ill-formed on every backend).
TEST_P(PrimsCast, ComplexToRealIsRefused) {
  for (DType from : dtypes()) {
    if (!is_complex(from)) continue;
    for (DType to : dtypes()) {
      if (is_complex(to)) continue;
      SCOPED_TRACE(std::string(dtype_name(from)) + " -> " + std::string(dtype_name(to)));
      const EagerTensor x = up(random_ref(from, {2, 2}, 102));
      const RuntimeStats before = rt_->stats();
      EXPECT_TRUE(
          throws_kind([&] { (void)prims::cast(x, to); }, ErrorKind::Validation, {"real", "abs"}));
      EXPECT_EQ(rt_->stats().kernel_launches, before.kernel_launches);
    }
  }
}

}  // namespace
}  // namespace tenferro::prims_test
