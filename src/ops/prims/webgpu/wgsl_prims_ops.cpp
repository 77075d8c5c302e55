// Per-op WGSL for the WebGPU prims kernels. Semantics match the CPU kernels
// (src/ops/prims/cpu/element_math.hpp): a real scalar multiplies each part of a complex value,
// Affine adds beta unless it is scale's (-0, -0) (kernel_calls.hpp's adds_beta), maximum/minimum
// and max/min propagate NaN and otherwise keep the first operand on ties. A unary op of the list
// whose WGSL is the math library's function named after it (r_<fn> on f32, c_<fn> on C) has no case
// here: its call is derived from the list, so its math lives in one file of the library.
#include "ops/prims/webgpu/wgsl_prims_ops.hpp"

#include <string>
#include <string_view>

#include "ops/prims/prim_kind_enum.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::prims_webgpu::wgsl {
namespace {

using prims_internal::PrimKind;

[[noreturn]] void no_kernel(PrimKind kind, DType dtype) {
  throw_error(
      ErrorKind::RuntimeState, ErrorPhase::Execute, std::string(prims_internal::prim_name(kind)),
      "the WebGPU prims kernels have no WGSL for this op on " + std::string(dtype_name(dtype)));
}

// The op's name in the list (its second column) if it is a unary math op, else empty.
std::string_view unary_name(PrimKind kind) {
  switch (kind) {
#define TENFERRO_WGSL_UNARY_NAME(Kind, fn, python_name, dtypes) \
  case PrimKind::Kind:                                          \
    return #fn;
    TENFERRO_PRIMS_UNARY_OPS(TENFERRO_WGSL_UNARY_NAME)
#undef TENFERRO_WGSL_UNARY_NAME
    default:
      return {};
  }
}

// A unary op without a case below is the math library's function named after it (see
// wgsl_prims_math.hpp): `<prefix><fn>(x)`, prefix r_ on f32 and c_ on C. Built with the shader
// source, not per element.
std::string library_call(std::string_view prefix, PrimKind kind) {
  const std::string_view fn = unary_name(kind);
  if (fn.empty()) return {};
  return std::string(prefix).append(fn).append("(x)");
}

// The expression an element-wise op returns, from x (and y); empty where there is no WGSL.
std::string real_expression(PrimKind kind, DType out) {
  switch (kind) {
    case PrimKind::Neg:
      return "-x";
    case PrimKind::Conj:
    case PrimKind::Real:
      return "x";
    case PrimKind::Abs:
      return "abs(x)";
    case PrimKind::Imag:
      return "0.0";
    case PrimKind::Reciprocal:
      return "r_div(1.0, x)";
    case PrimKind::Square:
      return "x * x";
    case PrimKind::Add:
      return "x + y";
    case PrimKind::Sub:
      return "x - y";
    case PrimKind::Mul:
      return "x * y";
    case PrimKind::Div:
      return "r_div(x, y)";
    case PrimKind::Maximum:
      return "r_max(x, y)";
    case PrimKind::Minimum:
      return "r_min(x, y)";
    case PrimKind::Pow:
      return "r_pow(x, y)";
    case PrimKind::Atan2:
      return "r_atan2(x, y)";
    case PrimKind::Hypot:
      return "r_hypot(x, y)";
    case PrimKind::FloorDiv:
      return "r_divmod(x, y).x";
    case PrimKind::Mod:
      return "r_divmod(x, y).y";
    case PrimKind::Fmod:
      return "r_fmod(x, y)";
    case PrimKind::Copysign:
      return "copysign(x, y)";
    case PrimKind::Complex:
      return "C(x, y)";
    case PrimKind::Greater:
      return "r_flag(r_less(y, x))";
    case PrimKind::GreaterEqual:
      return "r_flag(r_less(y, x) || r_equal(x, y))";
    case PrimKind::Less:
      return "r_flag(r_less(x, y))";
    case PrimKind::LessEqual:
      return "r_flag(r_less(x, y) || r_equal(x, y))";
    case PrimKind::Equal:
      return "r_flag(r_equal(x, y))";
    case PrimKind::NotEqual:
      return "r_flag(!r_equal(x, y))";
    case PrimKind::Where:
      return "select(z, y, !is_zero(x))";
    case PrimKind::Affine:
      return "select(x * alpha().x, x * alpha().x + beta().x, flag(FLAG_ADD_BETA))";
    case PrimKind::Axpby:
      return "x * alpha().x + y * beta().x";
    case PrimKind::Cast:
      return out == DType::C32 ? "C(x, 0.0)" : "x";
    default:
      return library_call("r_", kind);
  }
}

std::string complex_expression(PrimKind kind) {
  switch (kind) {
    case PrimKind::Neg:
      return "-x";
    case PrimKind::Conj:
      return "C(x.x, -x.y)";
    case PrimKind::Abs:
      return "c_abs(x)";
    case PrimKind::Real:
      return "x.x";
    case PrimKind::Imag:
      return "x.y";
    case PrimKind::Reciprocal:
      return "c_div(C(1.0, 0.0), x)";
    case PrimKind::Square:
      return "c_square(x)";
    case PrimKind::Add:
      return "x + y";
    case PrimKind::Sub:
      return "x - y";
    case PrimKind::Mul:
      return "c_mul(x, y)";
    case PrimKind::Div:
      return "c_div(x, y)";
    case PrimKind::Equal:
      return "r_flag(r_equal(x.x, y.x) && r_equal(x.y, y.y))";
    case PrimKind::NotEqual:
      return "r_flag(!(r_equal(x.x, y.x) && r_equal(x.y, y.y)))";
    case PrimKind::Where:
      return "select(z, y, !is_zero(x.x) || !is_zero(x.y))";
    case PrimKind::Affine:
      return "select(scaled(alpha(), x, FLAG_ALPHA_REAL), "
             "scaled(alpha(), x, FLAG_ALPHA_REAL) + beta(), flag(FLAG_ADD_BETA))";
    case PrimKind::Axpby:
      return "scaled(alpha(), x, FLAG_ALPHA_REAL) + scaled(beta(), y, FLAG_BETA_REAL)";
    case PrimKind::Cast:
      return "x";
    default:  // a real-only op has no c_ function: no_kernel
      return prims_internal::real_only_math(kind) ? std::string() : library_call("c_", kind);
  }
}

std::string_view wgsl_type(DType d) {
  return d == DType::C32 ? "C" : "f32";
}

}  // namespace

std::string elementwise_function(PrimKind kind, DType in, DType out) {
  const std::string e = in == DType::C32 ? complex_expression(kind) : real_expression(kind, out);
  if (e.empty() || (in != DType::F32 && in != DType::C32)) no_kernel(kind, in);
  const std::string ti(wgsl_type(in)), to(wgsl_type(out));
  const int arity = prims_internal::info(kind).arity;
  std::string args = "x: " + ti;
  if (arity >= 2) args += ", y: " + ti;
  if (arity == 3) args += ", z: " + ti;
  return "fn op(" + args + ") -> " + to + " { return " + e + "; }\n";
}

bool reduce_accumulator_is_pair(PrimKind kind, DType in) {
  return kind == PrimKind::Norm || kind == PrimKind::ArgMax || kind == PrimKind::ArgMin ||
         in == DType::C32;
}

std::string reduce_functions(PrimKind kind, DType in) {
  const bool complex = in == DType::C32;
  if (in != DType::F32 && !complex) no_kernel(kind, in);
  const std::string ti(wgsl_type(in));
  switch (kind) {
    case PrimKind::Sum:
    case PrimKind::Mean: {
      std::string s = "alias A = " + ti + ";\nfn identity() -> A { return A(); }\n" +
                      "fn combine(a: A, b: A) -> A { return a + b; }\n" +
                      "fn lift(v: TI, j: i32) -> A { return v; }\n";
      if (kind == PrimKind::Sum) return s + "fn finish(a: A) -> TO { return a; }\n";
      // NaN for a mean of zero elements, as NumPy (0 / 0 is left to no compiler).
      return s + "fn finish(a: A) -> TO {\n  if (is_zero(count())) { return TO(f_nan()); }\n" +
             "  return a / count();\n}\n";
    }
    case PrimKind::Prod:
      return "alias A = " + ti + ";\n" +
             (complex ? "fn identity() -> A { return A(1.0, 0.0); }\n"
                        "fn combine(a: A, b: A) -> A { return c_mul(a, b); }\n"
                      : "fn identity() -> A { return 1.0; }\n"
                        "fn combine(a: A, b: A) -> A { return a * b; }\n") +
             "fn lift(v: TI, j: i32) -> A { return v; }\nfn finish(a: A) -> TO { return a; }\n";
    case PrimKind::Max:
    case PrimKind::Min:
      if (complex) no_kernel(kind, in);
      // The identity is the infinity every value beats; NaN wins over everything.
      return std::string("alias A = f32;\n") +
             (kind == PrimKind::Max ? "fn identity() -> A { return -f_inf(); }\n"
                                      "fn combine(a: A, b: A) -> A { return r_max(a, b); }\n"
                                    : "fn identity() -> A { return f_inf(); }\n"
                                      "fn combine(a: A, b: A) -> A { return r_min(a, b); }\n") +
             "fn lift(v: TI, j: i32) -> A { return v; }\nfn finish(a: A) -> TO { return a; }\n";
    case PrimKind::ArgMax:
    case PrimKind::ArgMin: {
      if (complex) no_kernel(kind, in);
      // (the value's bits, its index): u32 words, which carry every bit pattern through the
      // passes' buffers. NaN beats every value, a strictly larger (smaller) value a smaller
      // one, and of equals (two NaNs, -0 and +0) the lower index wins: the tree's pairs are
      // not in index order. Values compare by r_less (bit patterns), so a device that flushes
      // subnormals to zero in arithmetic still puts 1e-40 above 0, as max does. The identity
      // loses to every element.
      const bool is_max = kind == PrimKind::ArgMax;
      const std::string a_wins = is_max ? "r_less(y, x)" : "r_less(x, y)";
      const std::string b_wins = is_max ? "r_less(x, y)" : "r_less(y, x)";
      return "alias A = vec2<u32>;\n"
             "fn identity() -> A { return A(bitcast<u32>(" +
             std::string(is_max ? "-" : "") +
             "f_inf()), 0xffffffffu); }\n"
             "fn first_of(a: A, b: A) -> A { return select(b, a, a.y <= b.y); }\n"
             "fn combine(a: A, b: A) -> A {\n"
             "  let x = bitcast<f32>(a.x);\n"
             "  let y = bitcast<f32>(b.x);\n"
             "  if (is_nan(x) || is_nan(y)) {\n"
             "    if (is_nan(x) && is_nan(y)) { return first_of(a, b); }\n"
             "    return select(b, a, is_nan(x));\n"
             "  }\n"
             "  if (" +
             a_wins +
             ") { return a; }\n"
             "  if (" +
             b_wins +
             ") { return b; }\n"
             "  return first_of(a, b);\n"
             "}\n"
             "fn lift(v: TI, j: i32) -> A { return A(bitcast<u32>(v), u32(j)); }\n"
             "fn finish(a: A) -> TO { return f32(a.y); }\n";
    }
    case PrimKind::Norm:
      // A scaled sum of squares, LAPACK's nrm2 way: (s, q) stands for s^2 q with s the largest
      // magnitude seen, so neither squares of large values overflow nor squares of small ones
      // underflow. NaN wins over Inf, Inf over everything else (as sqrt(sum |x|^2) would).
      return std::string(
                 "alias A = vec2<f32>;\nfn identity() -> A { return A(0.0, 0.0); }\n"
                 "fn combine(a: A, b: A) -> A {\n"
                 "  if (is_nan(a.x) || is_nan(b.x)) { return A(f_nan(), 1.0); }\n"
                 "  if (is_inf(a.x) || is_inf(b.x)) { return A(f_inf(), 1.0); }\n"
                 "  if (a.x >= b.x) {\n"
                 "    if (is_zero(a.x)) { return A(0.0, 0.0); }\n"
                 "    let r = b.x / a.x;\n"
                 "    return A(a.x, a.y + b.y * (r * r));\n"
                 "  }\n"
                 "  let r = a.x / b.x;\n"
                 "  return A(b.x, b.y + a.y * (r * r));\n"
                 "}\n") +
             (complex
                  ? "fn lift(v: TI, j: i32) -> A { return combine(A(abs(v.x), 1.0), A(abs(v.y), "
                    "1.0)); }\n"
                  : "fn lift(v: TI, j: i32) -> A { return A(abs(v), 1.0); }\n") +
             "fn finish(a: A) -> TO {\n  if (is_zero(a.x)) { return 0.0; }\n"
             "  return a.x * sqrt(a.y);\n}\n";
    default:
      no_kernel(kind, in);
  }
}

// Parameter words of generate (see wgsl_prims_sources.cpp): p[1] rows, p[2] diagonal offset,
// v(3)..v(6) f32 values, p[7], p[8] the seed's low and high words.
std::string generate_function(PrimKind kind, DType out) {
  const bool complex = out == DType::C32;
  if (out != DType::F32 && !complex) no_kernel(kind, out);
  const auto wrap = [&](std::string_view real) {
    return complex ? "TO(" + std::string(real) + ", 0.0)" : std::string(real);
  };
  std::string body;
  switch (kind) {
    case PrimKind::Fill:
      body = complex ? "return TO(v(3), v(4));" : "return v(3);";
      break;
    case PrimKind::Eye:
      body = "let row = k % p[1];\n  let col = k / p[1];\n  return " +
             wrap("select(0.0, 1.0, col - row == p[2])") + ";";
      break;
    case PrimKind::Arange:
      // Element 0 is start whatever the step (a step of inf in f32 made it 0 * inf = NaN).
      body = "return " + wrap("select(v(3) + f32(k) * v(4), v(3), k == 0)") + ";";
      break;
    case PrimKind::RandomUniform:
      // v(3) = low, v(4) = high - low, v(5) = high, v(6) = the value next to high (rounded to
      // f32 on the host, as the CPU does); uniform_between is the CPU's.
      body = "let w = philox_words(k);\n  return " +
             std::string(complex ? "TO(uniform_between(unit_uniform(w.x)), "
                                   "uniform_between(unit_uniform(w.z)))"
                                 : "uniform_between(unit_uniform(w.x))") +
             ";";
      break;
    case PrimKind::RandomNormal:
      // Box-Muller; the angle 2 pi u2 is taken as pi + 2 pi (u2 - 1/2) so that cos and sin see
      // [-pi, pi), where WGSL bounds their error (u2 - 1/2 is exact). v(3) = mean, v(4) =
      // stddev, v(5) = stddev / sqrt 2.
      body =
          "let w = philox_words(k);\n"
          "  let r = r_sqrt(-2.0 * r_log(1.0 - unit_uniform(w.x)));\n"
          "  let t = 2.0 * PI * (unit_uniform(w.y) - 0.5);\n"
          "  let z0 = -(r * cos(t));\n"
          "  let z1 = -(r * sin(t));\n  return " +
          std::string(complex ? "TO(v(3) + v(5) * z0, v(5) * z1)" : "v(3) + v(4) * z0") + ";";
      break;
    default:
      no_kernel(kind, out);
  }
  return "fn value(k: i32) -> TO {\n  " + body + "\n}\n";
}

}  // namespace tenferro::prims_webgpu::wgsl
