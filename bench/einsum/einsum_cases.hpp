// The einsum benchmark cases, shared by einsum_bench (Google Benchmark) and einsum_cases (the
// JSON runner the peer script drives). Cases are written as NumPy would see them (row-major
// shapes); tenferro is column-major, so it runs the byte-identical problem: every term's
// labels and every shape reversed (a row-major (b, i, j) array is a column-major (j, i, b)
// array with the same bytes). Nothing else differs between the two sides.
#pragma once

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "tenferro/einsum.hpp"
#include "tenferro/tenferro.hpp"

namespace tenferro::bench {

struct EinsumCase {
  std::string name;
  std::string subscripts;     // NumPy (row-major) view
  std::vector<Shape> shapes;  // NumPy (row-major) view
  DType dtype = DType::F64;
};

inline char label(int i) {
  return i < 26 ? static_cast<char>('a' + i) : static_cast<char>('A' + i - 26);
}

// <psi|psi> of an open-boundary MPS of `sites` sites, bond D, physical d (ket and bra).
inline EinsumCase mps_inner_product(int sites, std::int64_t D, std::int64_t d) {
  EinsumCase c{
      "mps_inner_L" + std::to_string(sites) + "_D" + std::to_string(D), "", {}, DType::F64};
  int next = 0;
  std::vector<char> phys, ket, bra;
  for (int s = 0; s < sites; ++s) phys.push_back(label(next++));
  for (int s = 0; s + 1 < sites; ++s) ket.push_back(label(next++));
  for (int s = 0; s + 1 < sites; ++s) bra.push_back(label(next++));
  for (int layer = 0; layer < 2; ++layer) {
    const auto& bond = layer == 0 ? ket : bra;
    for (int s = 0; s < sites; ++s) {
      std::string term;
      Shape shape;
      if (s > 0) {
        term += bond[static_cast<std::size_t>(s - 1)];
        shape.push_back(D);
      }
      term += phys[static_cast<std::size_t>(s)];
      shape.push_back(d);
      if (s + 1 < sites) {
        term += bond[static_cast<std::size_t>(s)];
        shape.push_back(D);
      }
      if (!c.subscripts.empty()) c.subscripts += ',';
      c.subscripts += term;
      c.shapes.push_back(shape);
    }
  }
  c.subscripts += "->";
  return c;
}

// <psi|psi> of a rows x cols PEPS with bond D and physical d (open boundaries).
inline EinsumCase peps_norm(int rows, int cols, std::int64_t D, std::int64_t d) {
  EinsumCase c{
      "peps_norm_" + std::to_string(rows) + "x" + std::to_string(cols) + "_D" + std::to_string(D),
      "",
      {},
      DType::F64};
  int next = 0;
  std::vector<char> phys;
  for (int i = 0; i < rows * cols; ++i) phys.push_back(label(next++));
  for (int layer = 0; layer < 2; ++layer) {
    std::vector<char> h, v;  // h[r*(cols-1)+c]: (r,c)-(r,c+1); v[r*cols+c]: (r,c)-(r+1,c)
    for (int i = 0; i < rows * (cols - 1); ++i) h.push_back(label(next++));
    for (int i = 0; i < (rows - 1) * cols; ++i) v.push_back(label(next++));
    for (int r = 0; r < rows; ++r)
      for (int col = 0; col < cols; ++col) {
        std::string term;
        Shape shape;
        auto add = [&](char l, std::int64_t n) {
          term += l;
          shape.push_back(n);
        };
        add(phys[static_cast<std::size_t>(r * cols + col)], d);
        if (col > 0) add(h[static_cast<std::size_t>(r * (cols - 1) + col - 1)], D);
        if (col + 1 < cols) add(h[static_cast<std::size_t>(r * (cols - 1) + col)], D);
        if (r > 0) add(v[static_cast<std::size_t>((r - 1) * cols + col)], D);
        if (r + 1 < rows) add(v[static_cast<std::size_t>(r * cols + col)], D);
        if (!c.subscripts.empty()) c.subscripts += ',';
        c.subscripts += term;
        c.shapes.push_back(shape);
      }
  }
  c.subscripts += "->";
  return c;
}

inline std::vector<EinsumCase> einsum_cases() {
  const std::int64_t chi = 12;
  std::vector<EinsumCase> cases = {
      mps_inner_product(8, 32, 2),
      // A MERA-like ascending superoperator: two isometries, a disentangler, a two-site
      // operator, the conjugate disentangler and isometries.
      {"mera_ascend_chi12",
       "xij,ykl,jkmn,mnpq,pqJK,XiJ,YKl->xyXY",
       {{chi, chi, chi},
        {chi, chi, chi},
        {chi, chi, chi, chi},
        {chi, chi, chi, chi},
        {chi, chi, chi, chi},
        {chi, chi, chi},
        {chi, chi, chi}},
       DType::F64},
      peps_norm(2, 3, 4, 2),
      {"batched_matmul_b64_n64", "bij,bjk->bik", {{64, 64, 64}, {64, 64, 64}}, DType::F64},
      {"batched_matmul_c64_b32_n48", "bij,bjk->bik", {{32, 48, 48}, {32, 48, 48}}, DType::C64},
      {"matmul_f32_n512", "ij,jk->ik", {{512, 512}, {512, 512}}, DType::F32},
      {"trace_n2048", "ii->", {{2048, 2048}}, DType::F64},
      {"outer_n1000", "i,j->ij", {{1000}, {1000}}, DType::F64},
      {"permute_n32", "abcd->dcba", {{32, 32, 32, 32}}, DType::F64},
      {"hadamard_n1000", "ij,ij->ij", {{1000, 1000}, {1000, 1000}}, DType::F64},
      {"partial_sum_n32", "abcd->ab", {{32, 32, 32, 32}}, DType::F64},
      {"chain3_n256", "ij,jk,kl->il", {{256, 256}, {256, 256}, {256, 256}}, DType::F64},
      {"small_contract_n8", "abc,bcd->ad", {{8, 8, 8}, {8, 8, 8}}, DType::F64},
  };
  return cases;
}

// The byte-identical column-major problem: every term reversed, every shape reversed.
inline std::string reversed_subscripts(const std::string& s) {
  std::string out, term;
  auto flush = [&] {
    std::reverse(term.begin(), term.end());
    out += term;
    term.clear();
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == ',' || s[i] == '-' || s[i] == '>') {
      flush();
      out += s[i];
    } else {
      term += s[i];
    }
  }
  flush();
  return out;
}

inline Shape reversed(Shape s) {
  std::reverse(s.begin(), s.end());
  return s;
}

inline std::vector<EagerTensor> case_operands(const std::shared_ptr<EagerRuntime>& rt,
                                              const EinsumCase& c, std::uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<EagerTensor> out;
  for (const auto& numpy_shape : c.shapes) {
    const Shape shape = reversed(numpy_shape);
    const auto n = static_cast<std::size_t>(checked_numel(shape));
    out.push_back(visit_dtype(c.dtype, [&](auto zero) {
      using T = decltype(zero);
      std::vector<T> data(n);
      for (auto& v : data) {
        if constexpr (std::is_floating_point_v<T>)
          v = static_cast<T>(u(rng));
        else
          v = T(static_cast<typename T::value_type>(u(rng)),
                static_cast<typename T::value_type>(u(rng)));
      }
      return rt->upload(Tensor::from_col_major<T>(shape, std::span<const T>(data)));
    }));
  }
  return out;
}

}  // namespace tenferro::bench
