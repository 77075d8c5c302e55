// The distributed suite's shared context (made by main.cpp once MPI is up) and helpers.
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <random>

#include "tenferro/dist.hpp"

namespace tenferro::dist::testing {

const std::shared_ptr<Context>& context();

// The same matrix on every rank (same seed), entries uniform in [-1, 1] (both parts).
Tensor random_matrix(DType dtype, std::int64_t rows, std::int64_t cols, std::uint64_t seed);

// Element (i, j) of a compact column-major matrix as complex<double>, whatever its dtype.
std::complex<double> at(const Tensor& m, std::int64_t i, std::int64_t j);

// Relative tolerance for checks of a result in `dtype` (F32/C32 1e-4, F64/C64 1e-10).
double tolerance(DType dtype);

// True on every rank when `ok` holds on every rank (so each rank can assert the same thing).
bool on_every_rank(bool ok);

}  // namespace tenferro::dist::testing
