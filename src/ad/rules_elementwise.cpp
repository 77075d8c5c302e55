// VJP/JVP rules of the prims element-wise ops (unary, binary with broadcasting, scalar forms).
// Broadcasting and promotion of a cotangent are undone centrally (fit() in the reverse pass),
// so a rule returns the cotangent in the output's shape.
#include <numbers>

#include "ad/helpers.hpp"
#include "ad/tape.hpp"

namespace tenferro::ad {
namespace {

using T = EagerTensor;
using prims::Scalar;

// conj(x), skipping the copy for real values.
T conj_if(const T& x) {
  return is_complex(x.dtype()) ? prims::conj(x) : x;
}

// A holomorphic (or real) unary f with derivative d(x, y): g_x = g conj(f'(x)), t_y = f'(x) t.
template <class Forward, class Deriv>
Variable holomorphic(std::string op, const Variable& x, Forward forward, Deriv deriv) {
  T xv = x.value();
  T y = forward(xv);
  return record1(
      std::move(op), std::span<const Variable>(&x, 1), y,
      [xv, y, deriv](std::span<const T> g, const std::vector<bool>&) {
        return std::vector<T>{prims::mul(g[0], conj_if(deriv(xv, y)))};
      },
      [xv, y, deriv](std::span<const T> t) {
        return std::vector<T>{prims::mul(deriv(xv, y), t[0])};
      });
}

// A linear unary map L with adjoint A: g_x = A(g), t_y = L(t).
template <class L, class A>
Variable linear(std::string op, const Variable& x, L lin, A adj) {
  return record1(
      std::move(op), std::span<const Variable>(&x, 1), lin(x.value()),
      [adj](std::span<const T> g, const std::vector<bool>&) { return std::vector<T>{adj(g[0])}; },
      [lin](std::span<const T> t) { return std::vector<T>{lin(t[0])}; });
}

// The sum of the defined terms (undefined = zero).
T sum_terms(std::initializer_list<T> terms) {
  T r;
  for (const auto& t : terms) r = add_opt(r, t);
  return r;
}

// A binary op with partial derivatives da(a, b, y), db(a, b, y) (holomorphic in each).
template <class Forward, class Da, class Db>
Variable binary(std::string op, const Variable& a, const Variable& b, Forward forward, Da da,
                Db db) {
  T av = a.value(), bv = b.value();
  T y = forward(av, bv);
  const Variable in[] = {a, b};
  return record1(
      std::move(op), in, y,
      [av, bv, y, da, db](std::span<const T> g, const std::vector<bool>& needs) {
        std::vector<T> r(2);
        if (needs[0]) r[0] = prims::mul(g[0], conj_if(da(av, bv, y)));
        if (needs[1]) r[1] = prims::mul(g[0], conj_if(db(av, bv, y)));
        return r;
      },
      [av, bv, y, da, db](std::span<const T> t) {
        return std::vector<T>{sum_terms({t[0].defined() ? prims::mul(da(av, bv, y), t[0]) : T(),
                                         t[1].defined() ? prims::mul(db(av, bv, y), t[1]) : T()})};
      });
}

T zeros_like(const T& x) {
  return prims::zeros(x.runtime(), x.dtype(), x.shape());
}

// A piecewise-constant op (floor, ceil, rint, trunc): derivative zero, JAX's choice (the jumps
// have none), and zeros rather than 0 * g, which an infinite cotangent would make NaN.
Variable piecewise_constant(std::string op, const Variable& x, T y) {
  return record1(
      std::move(op), std::span<const Variable>(&x, 1), std::move(y),
      [](std::span<const T> g, const std::vector<bool>&) {
        return std::vector<T>{zeros_like(g[0])};
      },
      [](std::span<const T> t) { return std::vector<T>{zeros_like(t[0])}; });
}

// The same for a binary op (floor_div): zero cotangents for both operands, and a zero tangent
// in the output's (broadcast) shape.
Variable piecewise_constant(std::string op, const Variable& a, const Variable& b, T y) {
  const Variable in[] = {a, b};
  T out = y;
  return record1(
      std::move(op), in, std::move(y),
      [](std::span<const T> g, const std::vector<bool>& needs) {
        std::vector<T> r(2);
        for (std::size_t i = 0; i < 2; ++i)
          if (needs[i]) r[i] = zeros_like(g[0]);
        return r;
      },
      [out](std::span<const T>) { return std::vector<T>{zeros_like(out)}; });
}

// A remainder y = a - q b whose integer quotient q(a, b, y) is piecewise constant (mod: the
// floored one, fmod: the truncated one; PyTorch's derivatives between the jumps): g_a = g,
// g_b = -q g, the tangent t_a - q t_b, as sub's with b scaled by q.
template <class Quotient>
Variable remainder_of(std::string op, const Variable& a, const Variable& b, T y,
                      Quotient quotient) {
  const Variable in[] = {a, b};
  T av = a.value(), bv = b.value();
  return record1(
      std::move(op), in, y,
      [av, bv, y, quotient](std::span<const T> g, const std::vector<bool>& needs) {
        return std::vector<T>{g[0],
                              needs[1] ? prims::neg(prims::mul(g[0], quotient(av, bv, y))) : T()};
      },
      [av, bv, y, quotient](std::span<const T> t) {
        if (!t[1].defined()) return std::vector<T>{t[0]};
        const T moved = prims::mul(quotient(av, bv, y), t[1]);
        return std::vector<T>{t[0].defined() ? prims::sub(t[0], moved) : prims::neg(moved)};
      });
}

// (1 - x)(1 + x): 1 - x^2 without cancelling near |x| = 1.
T one_minus_square(const T& x) {
  return prims::mul(prims::shift(prims::neg(x), 1.0), prims::shift(x, 1.0));
}

// v / h for h = hypot(a, b) >= 0, and 0 where h = 0: the subgradient at the origin, as abs's
// (hypot's a / h and atan2's b / h^2 are NaN there in JAX and PyTorch, which poisoned angle's
// gradient at 0).
T over_hypot(const T& v, const T& h) {
  const T zero = prims::equal(h, zeros_like(h));
  return prims::where(zero, zeros_like(h), prims::div(v, prims::add(h, zero)));
}

// 1 where a > b, 1/2 where a == b, 0 elsewhere (NaN compares false: 0).
T wins_or_ties(const T& a, const T& b) {
  return prims::add(prims::greater(a, b), prims::scale(prims::equal(a, b), 0.5));
}

}  // namespace

Variable neg(const Variable& x) {
  return linear(
      "neg", x, [](const T& v) { return prims::neg(v); }, [](const T& g) { return prims::neg(g); });
}
Variable conj(const Variable& x) {
  // conj is anti-linear: dw/dz* = 1, so g_z = conj(g_w), and its own JVP.
  return linear(
      "conj", x, [](const T& v) { return prims::conj(v); },
      [](const T& g) { return prims::conj(g); });
}
Variable real(const Variable& x) {
  // g_z = g (a real cotangent as complex): d Re z = Re dz.
  return linear(
      "real", x, [](const T& v) { return prims::real(v); }, [](const T& g) { return g; });
}
Variable imag(const Variable& x) {
  if (!is_complex(x.dtype())) {
    // Zeros that depend on nothing: the gradient is zero.
    return linear(
        "imag", x, [](const T& v) { return prims::imag(v); },
        [](const T& g) { return prims::scale(g, 0.0); });
  }
  // w = Im z: dw/dz = -i/2, dw/dz* = i/2, so g_z = i g.
  return linear(
      "imag", x, [](const T& v) { return prims::imag(v); }, [](const T& g) { return times_i(g); });
}
Variable abs(const Variable& x) {
  T xv = x.value();
  T y = prims::abs(xv);
  // d|z| = Re(conj(sign z) dz); g_z = g sign(z) (sign(0) = 0: the subgradient 0 at 0).
  return record1(
      "abs", std::span<const Variable>(&x, 1), y,
      [xv](std::span<const T> g, const std::vector<bool>&) {
        return std::vector<T>{prims::mul(g[0], prims::sign(xv))};
      },
      [xv](std::span<const T> t) {
        T d = prims::mul(prims::conj(prims::sign(xv)), t[0]);
        return std::vector<T>{is_complex(d.dtype()) ? prims::real(d) : d};
      });
}
Variable sign(const Variable& x) {
  T xv = x.value();
  T w = prims::sign(xv);
  if (is_complex(xv.dtype())) {
    // w = z / |z| is smooth off 0: dw = (dz - w Re(conj(w) dz)) / |z|, a self-adjoint map
    // (the projection off w, over |z|), so the VJP has the same form. At 0 the subgradient 0,
    // as abs's and the real sign's (a division by |z| = 0 gave inf/NaN that poisoned the
    // whole gradient): divided by 1 there and masked.
    const T mag = prims::abs(xv);
    const T off_zero = prims::sign(mag);  // 1 where z != 0, 0 at 0
    const T safe = prims::add(mag, prims::shift(prims::neg(off_zero), 1.0));
    const auto proj = [w, safe, off_zero](const T& d) {
      T along = prims::real(prims::mul(prims::conj(w), d));
      return prims::mul(prims::div(prims::sub(d, prims::mul(w, along)), safe), off_zero);
    };
    return record1(
        "sign", std::span<const Variable>(&x, 1), w,
        [proj](std::span<const T> g, const std::vector<bool>&) {
          return std::vector<T>{proj(g[0])};
        },
        [proj](std::span<const T> t) { return std::vector<T>{proj(t[0])}; });
  }
  // Real: piecewise constant, zero derivative (the jump at 0 has none).
  return record1(
      "sign", std::span<const Variable>(&x, 1), w,
      [](std::span<const T> g, const std::vector<bool>&) {
        return std::vector<T>{prims::scale(g[0], 0.0)};
      },
      [](std::span<const T> t) { return std::vector<T>{prims::scale(t[0], 0.0)}; });
}
Variable sqrt(const Variable& x) {
  return holomorphic(
      "sqrt", x, [](const T& v) { return prims::sqrt(v); },
      [](const T&, const T& y) { return prims::scale(prims::reciprocal(y), 0.5); });
}
Variable exp(const Variable& x) {
  return holomorphic(
      "exp", x, [](const T& v) { return prims::exp(v); }, [](const T&, const T& y) { return y; });
}
Variable exp2(const Variable& x) {
  return holomorphic(
      "exp2", x, [](const T& v) { return prims::exp2(v); },
      [](const T&, const T& y) { return prims::scale(y, std::numbers::ln2); });
}
Variable log(const Variable& x) {
  return holomorphic(
      "log", x, [](const T& v) { return prims::log(v); },
      [](const T& v, const T&) { return prims::reciprocal(v); });
}
Variable expm1(const Variable& x) {
  return holomorphic(
      "expm1", x, [](const T& v) { return prims::expm1(v); },
      // exp(v), not expm1(v) + 1, which loses exp's digits for v << 0 (0 at v = -40).
      [](const T& v, const T&) { return prims::exp(v); });
}
Variable log1p(const Variable& x) {
  return holomorphic(
      "log1p", x, [](const T& v) { return prims::log1p(v); },
      [](const T& v, const T&) { return prims::reciprocal(prims::shift(v, 1.0)); });
}
Variable log2(const Variable& x) {
  return holomorphic(
      "log2", x, [](const T& v) { return prims::log2(v); },
      [](const T& v, const T&) { return prims::scale(prims::reciprocal(v), std::numbers::log2e); });
}
Variable log10(const Variable& x) {
  return holomorphic(
      "log10", x, [](const T& v) { return prims::log10(v); },
      [](const T& v, const T&) {
        return prims::scale(prims::reciprocal(v), std::numbers::log10e);
      });
}
Variable sin(const Variable& x) {
  return holomorphic(
      "sin", x, [](const T& v) { return prims::sin(v); },
      [](const T& v, const T&) { return prims::cos(v); });
}
Variable cos(const Variable& x) {
  return holomorphic(
      "cos", x, [](const T& v) { return prims::cos(v); },
      [](const T& v, const T&) { return prims::neg(prims::sin(v)); });
}
Variable tan(const Variable& x) {
  return holomorphic(
      "tan", x, [](const T& v) { return prims::tan(v); },
      [](const T&, const T& y) { return prims::shift(prims::square(y), 1.0); });
}
Variable sinh(const Variable& x) {
  return holomorphic(
      "sinh", x, [](const T& v) { return prims::sinh(v); },
      [](const T& v, const T&) { return prims::cosh(v); });
}
Variable cosh(const Variable& x) {
  return holomorphic(
      "cosh", x, [](const T& v) { return prims::cosh(v); },
      [](const T& v, const T&) { return prims::sinh(v); });
}
// The inverse functions are real-only (prims): their derivatives are real.
Variable asin(const Variable& x) {
  return holomorphic(
      "asin", x, [](const T& v) { return prims::asin(v); },
      [](const T& v, const T&) { return prims::reciprocal(prims::sqrt(one_minus_square(v))); });
}
Variable acos(const Variable& x) {
  return holomorphic(
      "acos", x, [](const T& v) { return prims::acos(v); },
      [](const T& v, const T&) {
        return prims::neg(prims::reciprocal(prims::sqrt(one_minus_square(v))));
      });
}
Variable atan(const Variable& x) {
  return holomorphic(
      "atan", x, [](const T& v) { return prims::atan(v); },
      [](const T& v, const T&) { return prims::reciprocal(prims::shift(prims::square(v), 1.0)); });
}
Variable asinh(const Variable& x) {
  return holomorphic(
      "asinh", x, [](const T& v) { return prims::asinh(v); },
      [](const T& v, const T&) {  // 1 / hypot(x, 1): x^2 + 1 overflowed from |x| = 1e154
        return prims::reciprocal(prims::hypot(v, prims::ones(v.runtime(), v.dtype(), {})));
      });
}
Variable acosh(const Variable& x) {
  return holomorphic(
      "acosh", x, [](const T& v) { return prims::acosh(v); },
      [](const T& v, const T&) {  // sqrt(x - 1) sqrt(x + 1): (x - 1)(x + 1) overflowed
        return prims::reciprocal(
            prims::mul(prims::sqrt(prims::shift(v, -1.0)), prims::sqrt(prims::shift(v, 1.0))));
      });
}
Variable atanh(const Variable& x) {
  return holomorphic(
      "atanh", x, [](const T& v) { return prims::atanh(v); },
      [](const T& v, const T&) { return prims::reciprocal(one_minus_square(v)); });
}
Variable floor(const Variable& x) {
  return piecewise_constant("floor", x, prims::floor(x.value()));
}
Variable ceil(const Variable& x) {
  return piecewise_constant("ceil", x, prims::ceil(x.value()));
}
Variable rint(const Variable& x) {
  return piecewise_constant("rint", x, prims::rint(x.value()));
}
Variable trunc(const Variable& x) {
  return piecewise_constant("trunc", x, prims::trunc(x.value()));
}
Variable cbrt(const Variable& x) {
  // 1 / (3 y^2): inf at 0, where the slope is.
  return holomorphic(
      "cbrt", x, [](const T& v) { return prims::cbrt(v); },
      [](const T&, const T& y) { return prims::reciprocal(prims::scale(prims::square(y), 3.0)); });
}
Variable tanh(const Variable& x) {
  return holomorphic(
      "tanh", x, [](const T& v) { return prims::tanh(v); },
      [](const T&, const T& y) { return prims::neg(prims::shift(prims::square(y), -1.0)); });
}
Variable reciprocal(const Variable& x) {
  return holomorphic(
      "reciprocal", x, [](const T& v) { return prims::reciprocal(v); },
      [](const T&, const T& y) { return prims::neg(prims::square(y)); });
}
Variable square(const Variable& x) {
  return holomorphic(
      "square", x, [](const T& v) { return prims::square(v); },
      [](const T& v, const T&) { return prims::scale(v, 2.0); });
}

Variable add(const Variable& a, const Variable& b) {
  const Variable in[] = {a, b};
  return record1(
      "add", in, prims::add(a.value(), b.value()),
      [](std::span<const T> g, const std::vector<bool>&) {
        return std::vector<T>{g[0], g[0]};
      },
      [](std::span<const T> t) {
        return std::vector<T>{sum_terms({t[0], t[1]})};
      });
}
Variable sub(const Variable& a, const Variable& b) {
  const Variable in[] = {a, b};
  return record1(
      "sub", in, prims::sub(a.value(), b.value()),
      [](std::span<const T> g, const std::vector<bool>& needs) {
        return std::vector<T>{g[0], needs[1] ? prims::neg(g[0]) : T()};
      },
      [](std::span<const T> t) {
        if (!t[1].defined()) return std::vector<T>{t[0]};
        return std::vector<T>{t[0].defined() ? prims::sub(t[0], t[1]) : prims::neg(t[1])};
      });
}
Variable mul(const Variable& a, const Variable& b) {
  return binary(
      "mul", a, b, [](const T& x, const T& y) { return prims::mul(x, y); },
      [](const T&, const T& bv, const T&) { return bv; },
      [](const T& av, const T&, const T&) { return av; });
}
Variable div(const Variable& a, const Variable& b) {
  return binary(
      "div", a, b, [](const T& x, const T& y) { return prims::div(x, y); },
      [](const T&, const T& bv, const T&) { return prims::reciprocal(bv); },
      [](const T&, const T& bv, const T& y) { return prims::neg(prims::div(y, bv)); });
}
Variable floor_div(const Variable& a, const Variable& b) {
  return piecewise_constant("floor_div", a, b, prims::floor_div(a.value(), b.value()));
}
Variable mod(const Variable& a, const Variable& b) {
  // a - b floor(a / b), the quotient the remainder was taken with.
  return remainder_of("mod", a, b, prims::mod(a.value(), b.value()),
                      [](const T& av, const T& bv, const T&) { return prims::floor_div(av, bv); });
}
Variable fmod(const Variable& a, const Variable& b) {
  // a - b q with q = (a - fmod(a, b)) / b, an integer (rint takes the division's rounding off).
  return remainder_of("fmod", a, b, prims::fmod(a.value(), b.value()),
                      [](const T& av, const T& bv, const T& y) {
                        return prims::rint(prims::div(prims::sub(av, y), bv));
                      });
}
Variable maximum(const Variable& a, const Variable& b) {
  // 1 where a wins, 0 where b wins, 1/2 at a tie (inf against inf included: a sign of a - b
  // would be NaN there).
  return binary(
      "maximum", a, b, [](const T& x, const T& y) { return prims::maximum(x, y); },
      [](const T& av, const T& bv, const T&) { return wins_or_ties(av, bv); },
      [](const T& av, const T& bv, const T&) { return wins_or_ties(bv, av); });
}
Variable minimum(const Variable& a, const Variable& b) {
  return binary(
      "minimum", a, b, [](const T& x, const T& y) { return prims::minimum(x, y); },
      [](const T& av, const T& bv, const T&) { return wins_or_ties(bv, av); },
      [](const T& av, const T& bv, const T&) { return wins_or_ties(av, bv); });
}
Variable pow(const Variable& a, const Variable& b) {
  // d/da = b a^(b-1), taken as 0 where b = 0 (a^b is constant 1 there; the formula gives
  // 0 * inf at a = 0). d/db = a^b log a, taken as 0 where a = 0 and b >= 0 (0^b is 0 for b > 0;
  // the formula gives 0 * -inf). PyTorch's choices, so that x ** 0 and 0 ** y differentiate.
  return binary(
      "pow", a, b, [](const T& x, const T& y) { return prims::pow(x, y); },
      [](const T& av, const T& bv, const T&) {
        const T d = prims::mul(bv, prims::pow(av, prims::shift(bv, -1.0)));
        return prims::where(prims::equal(bv, zeros_like(bv)), zeros_like(d), d);
      },
      [](const T& av, const T& bv, const T& y) {
        const T d = prims::mul(y, prims::log(av));
        const T at_zero =
            prims::mul(prims::equal(av, zeros_like(av)), prims::greater_equal(bv, zeros_like(bv)));
        return prims::where(at_zero, zeros_like(d), d);
      });
}
Variable atan2(const Variable& a, const Variable& b) {
  // d/da = b / (a^2 + b^2), d/db = -a / (a^2 + b^2), as (v / h) / h with h = hypot(a, b): the
  // squares overflowed past 1e154 (or underflowed) to a gradient of 0 or inf.
  const auto over_square = [](const T& v, const T& h) { return over_hypot(over_hypot(v, h), h); };
  return binary(
      "atan2", a, b, [](const T& x, const T& y) { return prims::atan2(x, y); },
      [over_square](const T& av, const T& bv, const T&) {
        return over_square(bv, prims::hypot(av, bv));
      },
      [over_square](const T& av, const T& bv, const T&) {
        return over_square(prims::neg(av), prims::hypot(av, bv));
      });
}
Variable hypot(const Variable& a, const Variable& b) {
  // d/da = a / h, d/db = b / h (0 at the origin).
  return binary(
      "hypot", a, b, [](const T& x, const T& y) { return prims::hypot(x, y); },
      [](const T& av, const T&, const T& y) { return over_hypot(av, y); },
      [](const T&, const T& bv, const T& y) { return over_hypot(bv, y); });
}
Variable copysign(const Variable& a, const Variable& b) {
  // sign(a) times b's sign: 0 at a = 0 (PyTorch's choice), +-1 at an infinite a (y / a was NaN
  // there); b moves only a sign.
  return binary(
      "copysign", a, b, [](const T& x, const T& y) { return prims::copysign(x, y); },
      [](const T& av, const T& bv, const T&) {
        return prims::mul(prims::sign(av),
                          prims::copysign(prims::ones(bv.runtime(), bv.dtype(), {}), bv));
      },
      [](const T&, const T&, const T& y) { return zeros_like(y); });
}
Variable complex(const Variable& re, const Variable& im) {
  T rv = re.value(), iv = im.value();
  const Variable in[] = {re, im};
  return record1(
      "complex", in, prims::complex(rv, iv),
      [](std::span<const T> g, const std::vector<bool>&) {
        return std::vector<T>{prims::real(g[0]), prims::imag(g[0])};
      },
      [rv, iv](std::span<const T> t) {
        return std::vector<T>{prims::complex(t[0].defined() ? t[0] : zeros_like(rv),
                                             t[1].defined() ? t[1] : zeros_like(iv))};
      });
}

Variable scale(const Variable& x, Scalar alpha) {
  return linear(
      "scale", x, [alpha](const T& v) { return prims::scale(v, alpha); },
      [alpha](const T& g) { return prims::scale(g, std::conj(alpha)); });
}
Variable shift(const Variable& x, Scalar beta) {
  T y = prims::shift(x.value(), beta);
  return record1(
      "shift", std::span<const Variable>(&x, 1), y,
      [](std::span<const T> g, const std::vector<bool>&) { return std::vector<T>{g[0]}; },
      [](std::span<const T> t) { return std::vector<T>{t[0]}; });
}
Variable axpby(Scalar alpha, const Variable& x, Scalar beta, const Variable& y) {
  const Variable in[] = {x, y};
  return record1(
      "axpby", in, prims::axpby(alpha, x.value(), beta, y.value()),
      [alpha, beta](std::span<const T> g, const std::vector<bool>& needs) {
        std::vector<T> r(2);
        if (needs[0]) r[0] = prims::scale(g[0], std::conj(alpha));
        if (needs[1]) r[1] = prims::scale(g[0], std::conj(beta));
        return r;
      },
      [alpha, beta](std::span<const T> t) {
        return std::vector<T>{sum_terms({t[0].defined() ? prims::scale(t[0], alpha) : T(),
                                         t[1].defined() ? prims::scale(t[1], beta) : T()})};
      });
}

namespace {
// v as a 0-d constant of x's runtime: x's dtype, complex when v is and x is real.
T scalar_for(const Variable& x, Scalar v) {
  const DType d = v.imag() != 0.0 && !is_complex(x.dtype()) ? complex_dtype(x.dtype()) : x.dtype();
  return prims::full(x.value().runtime(), d, {}, v);
}
}  // namespace

Variable div(const Variable& x, Scalar v) {
  return div(x, Variable(scalar_for(x, v)));
}
Variable div(Scalar v, const Variable& x) {
  return div(Variable(scalar_for(x, v)), x);
}

Variable operator-(const Variable& x) {
  return neg(x);
}
Variable operator+(const Variable& a, const Variable& b) {
  return add(a, b);
}
Variable operator-(const Variable& a, const Variable& b) {
  return sub(a, b);
}
Variable operator*(const Variable& a, const Variable& b) {
  return mul(a, b);
}
Variable operator/(const Variable& a, const Variable& b) {
  return div(a, b);
}
Variable operator*(const Variable& x, Scalar alpha) {
  return scale(x, alpha);
}
Variable operator*(Scalar alpha, const Variable& x) {
  return scale(x, alpha);
}
Variable operator+(const Variable& x, Scalar beta) {
  return shift(x, beta);
}
Variable operator-(const Variable& x, Scalar beta) {
  return shift(x, -beta);
}

}  // namespace tenferro::ad
