#include "einsum_reference.hpp"

#include <algorithm>
#include <cctype>
#include <complex>
#include <map>
#include <stdexcept>
#include <string>

namespace tenferro::testing {
namespace {

using C = std::complex<double>;

struct Term {
  std::vector<int> letters;  // -1 marks the ellipsis position
};

Term parse_term(std::string_view text) {
  Term t;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == ' ') continue;
    if (ch == '.') {
      if (text.substr(i, 3) != "...") throw std::invalid_argument("bad ellipsis");
      t.letters.push_back(-1);
      i += 2;
    } else if (std::isalpha(static_cast<unsigned char>(ch))) {
      t.letters.push_back(ch);
    } else {
      throw std::invalid_argument(std::string("bad character ") + ch);
    }
  }
  return t;
}

std::vector<C> to_complex(const Tensor& t) {
  std::vector<C> out;
  visit_dtype(t.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (const T& v : t.to_vector<T>()) out.emplace_back(v);
  });
  return out;
}

}  // namespace

ReferenceExpression reference_parse(std::string_view subscripts,
                                    std::span<const std::int64_t> ranks) {
  std::string_view lhs = subscripts, rhs;
  const auto arrow = subscripts.find("->");
  const bool explicit_output = arrow != std::string_view::npos;
  if (explicit_output) {
    lhs = subscripts.substr(0, arrow);
    rhs = subscripts.substr(arrow + 2);
  }
  std::vector<Term> terms;
  std::size_t start = 0;
  for (;;) {
    const auto comma = lhs.find(',', start);
    terms.push_back(
        parse_term(lhs.substr(start, comma == std::string_view::npos ? lhs.npos : comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (terms.size() != ranks.size()) throw std::invalid_argument("operand count");
  ReferenceExpression e;
  int ellipsis_rank = 0;
  std::map<int, int> counts;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const auto& L = terms[i].letters;
    const int letters =
        static_cast<int>(std::count_if(L.begin(), L.end(), [](int l) { return l >= 0; }));
    const int ell = static_cast<int>(ranks[i]) - letters;
    std::vector<int> labels;
    for (int l : L) {
      if (l >= 0) {
        labels.push_back(l);
        ++counts[l];
      } else {
        for (int k = ell - 1; k >= 0; --k) labels.push_back(1000 + k);
        ellipsis_rank = std::max(ellipsis_rank, ell);
      }
    }
    e.inputs.push_back(labels);
  }
  if (explicit_output) {
    for (int l : parse_term(rhs).letters) {
      if (l >= 0)
        e.output.push_back(l);
      else
        for (int k = ellipsis_rank - 1; k >= 0; --k) e.output.push_back(1000 + k);
    }
  } else {
    for (int k = ellipsis_rank - 1; k >= 0; --k) e.output.push_back(1000 + k);
    for (const auto& [l, n] : counts)
      if (n == 1) e.output.push_back(l);
  }
  return e;
}

ReferenceResult reference_einsum(const ReferenceExpression& expr,
                                 std::span<const Tensor> operands) {
  std::map<int, std::int64_t> size;
  for (std::size_t i = 0; i < operands.size(); ++i)
    for (std::size_t a = 0; a < expr.inputs[i].size(); ++a) {
      const int l = expr.inputs[i][a];
      const std::int64_t n = operands[i].shape()[a];
      auto it = size.find(l);
      if (it == size.end() || it->second == 1)
        size[l] = n;
      else if (n != 1 && n != it->second)
        throw std::invalid_argument("size mismatch");
    }
  std::vector<int> labels;
  std::vector<std::int64_t> extents;
  for (const auto& [l, n] : size) {
    labels.push_back(l);
    extents.push_back(n);
  }
  auto slot = [&](int l) {
    return static_cast<std::size_t>(std::find(labels.begin(), labels.end(), l) - labels.begin());
  };
  std::vector<std::vector<C>> data;
  for (const auto& t : operands) data.push_back(to_complex(t));
  Shape out_shape;
  for (int l : expr.output) out_shape.push_back(size.at(l));
  const Strides out_strides = col_major_strides(out_shape);
  const std::int64_t out_numel = checked_numel(out_shape);
  std::vector<C> out(static_cast<std::size_t>(out_numel));
  std::vector<double> mag(static_cast<std::size_t>(out_numel));

  std::int64_t total = 1;
  for (auto n : extents) total *= n;
  std::vector<std::int64_t> value(labels.size(), 0);
  for (std::int64_t it = 0; it < total; ++it) {
    std::int64_t rest = it;
    for (std::size_t s = 0; s < labels.size(); ++s) {
      value[s] = rest % extents[s];
      rest /= extents[s];
    }
    C product(1.0);
    for (std::size_t i = 0; i < operands.size(); ++i) {
      const Shape& shape = operands[i].shape();
      std::int64_t index = 0, stride = 1;
      for (std::size_t a = 0; a < shape.size(); ++a) {
        const std::int64_t v = shape[a] == 1 ? 0 : value[slot(expr.inputs[i][a])];
        index += v * stride;
        stride *= shape[a];
      }
      product *= data[i][static_cast<std::size_t>(index)];
    }
    std::int64_t o = 0;
    for (std::size_t a = 0; a < expr.output.size(); ++a)
      o += value[slot(expr.output[a])] * out_strides[a];
    out[static_cast<std::size_t>(o)] += product;
    mag[static_cast<std::size_t>(o)] += std::abs(product);
  }
  // Output entries whose labels repeat (i->ii) and are off the diagonal stay zero.
  ReferenceResult r;
  r.magnitude = std::move(mag);
  const DType dtype = operands.empty() ? DType::F64 : operands[0].dtype();
  visit_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> cast;
    for (const C& v : out) {
      if constexpr (std::is_floating_point_v<T>)
        cast.push_back(static_cast<T>(v.real()));
      else
        cast.emplace_back(static_cast<typename T::value_type>(v.real()),
                          static_cast<typename T::value_type>(v.imag()));
    }
    r.value = Tensor::from_col_major<T>(out_shape, std::span<const T>(cast));
  });
  return r;
}

ReferenceResult reference_einsum(std::string_view subscripts, std::span<const Tensor> operands) {
  std::vector<std::int64_t> ranks;
  for (const auto& t : operands) ranks.push_back(t.rank());
  return reference_einsum(reference_parse(subscripts, ranks), operands);
}

double reference_tolerance(DType dtype) {
  return is_double(dtype) ? 1e-12 : 1e-4;
}

Agreement compare_with_reference(const Tensor& got, const ReferenceResult& want) {
  Agreement a;
  if (got.dtype() != want.value.dtype() || got.shape() != want.value.shape()) {
    a.detail = "got " + std::string(dtype_name(got.dtype())) + " " + shape_to_string(got.shape()) +
               ", want " + std::string(dtype_name(want.value.dtype())) + " " +
               shape_to_string(want.value.shape());
    return a;
  }
  const auto g = to_complex(got), w = to_complex(want.value);
  std::size_t worst_at = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double err = std::abs(g[i] - w[i]) / (want.magnitude[i] + 1.0);
    if (!(err <= a.worst)) {  // NaN counts as the worst
      a.worst = std::isnan(err) ? INFINITY : err;
      worst_at = i;
    }
  }
  a.ok = a.worst <= reference_tolerance(got.dtype());
  if (!a.ok)
    a.detail = "element " + std::to_string(worst_at) + ": got " +
               std::to_string(g[worst_at].real()) + "+" + std::to_string(g[worst_at].imag()) +
               "i, want " + std::to_string(w[worst_at].real()) + "+" +
               std::to_string(w[worst_at].imag()) + "i (relative error " + std::to_string(a.worst) +
               ")";
  return a;
}

}  // namespace tenferro::testing
