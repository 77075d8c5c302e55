// The einsum rule through the gradient checker, over the notations einsum accepts: matrix
// products, traces and diagonals (repeated labels), outer products, labels summed inside one
// operand, ellipsis broadcasting and implicit output.
#include <gtest/gtest.h>

#include "ad/gradcheck.hpp"

namespace tenferro::ad_test {
namespace {

using V = ad::Variable;

struct Case {
  const char* subscripts;
  std::vector<Shape> shapes;
};

void check_einsum(const Case& c, DType d, std::uint64_t seed) {
  std::vector<EagerTensor> xs;
  for (std::size_t i = 0; i < c.shapes.size(); ++i) xs.push_back(randn(d, c.shapes[i], seed + i));
  const std::string sub = c.subscripts;
  check_gradients(
      sub + " " + std::string(dtype_name(d)),
      [sub](std::span<const V> v) { return std::vector<V>{ad::einsum(sub, v)}; }, xs);
}

TEST(AdEinsum, Notations) {
  const std::vector<Case> cases = {
      {"ij,jk->ik", {{3, 4}, {4, 2}}},
      {"ij,jk", {{3, 4}, {4, 2}}},  // implicit output
      {"ij,jk,kl->il", {{2, 3}, {3, 4}, {4, 2}}},
      {"ii->", {{4, 4}}},               // trace
      {"ii->i", {{4, 4}}},              // diagonal
      {"iij->j", {{3, 3, 2}}},          // partial trace
      {"ij->", {{3, 4}}},               // full sum
      {"ij->j", {{3, 4}}},              // a label only one operand carries
      {"i,j->ij", {{3}, {2}}},          // outer product
      {"i,i->", {{5}, {5}}},            // inner product
      {"i->ii", {{3}}},                 // diagonal embedding
      {"ij,ij->ij", {{2, 3}, {2, 3}}},  // Hadamard
      {"...ij,...jk->...ik", {{4, 2, 3}, {4, 3, 2}}},
      {"...ij,...jk->...ik", {{1, 2, 3}, {4, 3, 2}}},  // ellipsis broadcasting of size 1
      {"ij...,jk->ik...", {{2, 3, 2, 2}, {3, 2}}},
      {"ij,ij->i", {{3, 1}, {3, 4}}},  // a lettered label's extent 1 broadcasts (NumPy)
      {"ab,bc,cd->ad", {{3, 1}, {4, 5}, {1, 2}}},
      {"bij,bjk->bik", {{2, 3, 4}, {2, 4, 2}}},
      {"abc,cd,db->a", {{2, 3, 4}, {4, 2}, {2, 3}}},
      // Three or more plain operands are recorded as pairwise steps:
      {"ab,bc,cd,de->ae", {{2, 3}, {3, 4}, {4, 2}, {2, 3}}},
      {"ijk,jl,lm,km->i", {{2, 3, 2}, {3, 2}, {2, 4}, {2, 4}}},
      {"ab,bc,ca", {{2, 3}, {3, 4}, {4, 2}}},      // a closed loop, implicit (0-d) output
      {"ij,jk,kl->li", {{2, 3}, {3, 4}, {4, 2}}},  // a permuted output
      // ... but a repeated label keeps the N-ary rule:
      {"ii,ij,jk->k", {{3, 3}, {3, 2}, {2, 4}}},
  };
  std::uint64_t seed = 100;
  for (const auto& c : cases) {
    check_einsum(c, DType::F64, seed += 10);
    check_einsum(c, DType::C64, seed += 10);
  }
}

TEST(AdEinsum, OperandUsedTwice) {
  // x appears twice in one einsum: both cotangents add up.
  const EagerTensor x = randn(DType::C64, {3, 3}, 7);
  check_gradients("ij,jk->ik with x twice",
                  [](std::span<const V> v) {
                    return std::vector<V>{ad::einsum("ij,jk->ik", {v[0], v[0]})};
                  },
                  {x});
}

}  // namespace
}  // namespace tenferro::ad_test
