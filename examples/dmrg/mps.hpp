// The MPS building blocks shared by the DMRG and TEBD examples, on the public API only:
// MPS and MPO tensors are EagerTensors of one runtime, environments are grown by einsum, the
// two-site effective Hamiltonian is a callable for the Krylov solvers and the two-site tensor
// is split by the truncated SVD. Nothing here transfers a tensor except heisenberg_mpo's one
// upload of the 5 x 5 x 2 x 2 MPO tensor.
//
// Index conventions (einsum labels in the .cpp):
//   MPS tensor  A[x, s, p]     left bond, physical (2: up, down), right bond
//   MPO tensor  W[a, b, s, t]  left bond, right bond, out (bra) spin, in (ket) spin
//   left env    L[y, a, x]     bra bond, MPO bond, ket bond (sites left of the block)
//   right env   R[q, b, p]     the same for the sites to the right
// The environments hold the bra bond first: in memory (column-major) the bra bond is then the
// fastest axis, and the effective Hamiltonian's contraction with the ket's bond runs as a GEMM
// with no permuting copy of the environment; with the ket bond first it copied, and a matvec at
// D=64 took 18% longer.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "tenferro/runtime/runtime.hpp"

namespace dmrg {

using tenferro::DType;
using tenferro::EagerRuntime;
using tenferro::EagerTensor;

// H = J sum_i S_i . S_{i+1} as the lower-triangular bulk MPO tensor (bond dimension 5): row 4
// starts an interaction, column 0 ends it. The boundaries select row 4 and column 0.
EagerTensor heisenberg_mpo(const std::shared_ptr<EagerRuntime>& rt, DType dtype, double j = 1.0);
// [1, 5, 1] selectors of the MPO's start (row 4) and end (column 0), made in the runtime.
EagerTensor left_boundary(const std::shared_ptr<EagerRuntime>& rt, DType dtype);
EagerTensor right_boundary(const std::shared_ptr<EagerRuntime>& rt, DType dtype);

// Bond dimensions min(max_bond, 2^i, 2^(L-i)) for i = 0..L.
std::vector<std::int64_t> bond_dims(int sites, std::int64_t max_bond);
// Seeded normal entries, made in the runtime (no upload).
std::vector<EagerTensor> random_mps(const std::shared_ptr<EagerRuntime>& rt, DType dtype, int sites,
                                    std::int64_t max_bond, std::uint64_t seed);
// How a matrix is factorised: linalg::svd (CPU, CUDA), or krylov::svds, which runs on every
// backend (WebGPU has no dense decompositions).
enum class Factorizer { Svd, Svds };

// Right-canonical form (every site but the first an isometry), by SVDs from the right; the
// first site carries the norm.
void right_canonicalize(std::vector<EagerTensor>& mps, Factorizer how = Factorizer::Svd);

EagerTensor grow_left(const EagerTensor& l, const EagerTensor& a, const EagerTensor& w);
EagerTensor grow_right(const EagerTensor& r, const EagerTensor& a, const EagerTensor& w);

// theta[x, s, u, p] = A[x, s, q] B[q, u, p].
EagerTensor two_site(const EagerTensor& a, const EagerTensor& b);
// (H_eff theta) for the two sites between environments l and r.
EagerTensor apply_two_site_hamiltonian(const EagerTensor& l, const EagerTensor& w,
                                       const EagerTensor& r, const EagerTensor& theta);

struct Split {
  EagerTensor left, right;       // [x, s, k] and [k, u, p]
  EagerTensor discarded_weight;  // 0-d tensor of the runtime (not read here)
};
// theta = left . right with at most max_bond singular values kept; the singular values go
// into `right` when the orthogonality centre moves right, into `left` otherwise.
// discarded_weight: the weight outside the kept singular values (theta is a unit vector).
Split split_two_site(const EagerTensor& theta, std::int64_t max_bond, bool centre_right,
                     Factorizer how = Factorizer::Svd);

}  // namespace dmrg
