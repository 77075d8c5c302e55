// One entry point per linalg op on the CPU. Each takes the call context and the op's inputs
// (already validated), runs LAPACK batch entry by batch entry and returns compact host outputs
// in the order LinalgOp::infer_outputs lists them.
#pragma once

#include <span>
#include <vector>

#include "ops/linalg/cpu/common.hpp"

namespace tenferro::linalg_cpu {

using Inputs = std::span<const EagerTensor>;

std::vector<Tensor> run_qr(const CpuCall& call, Inputs inputs);
std::vector<Tensor> run_svd(const CpuCall& call, Inputs inputs);
std::vector<Tensor> run_eigh(const CpuCall& call, Inputs inputs);
std::vector<Tensor> run_eig(const CpuCall& call, Inputs inputs);
std::vector<Tensor> run_lu(const CpuCall& call, Inputs inputs);
std::vector<Tensor> run_cholesky(const CpuCall& call, Inputs inputs);
std::vector<Tensor> run_solve(const CpuCall& call, Inputs inputs);
std::vector<Tensor> run_triangular_solve(const CpuCall& call, Inputs inputs);
std::vector<Tensor> run_lstsq(const CpuCall& call, Inputs inputs);
std::vector<Tensor> run_inv(const CpuCall& call, Inputs inputs);
std::vector<Tensor> run_det(const CpuCall& call, Inputs inputs);
std::vector<Tensor> run_slogdet(const CpuCall& call, Inputs inputs);

}  // namespace tenferro::linalg_cpu
