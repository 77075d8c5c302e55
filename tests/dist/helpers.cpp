#include <mpi.h>

#include <vector>

#include "dist_context.hpp"

namespace tenferro::dist::testing {

Tensor random_matrix(DType dtype, std::int64_t rows, std::int64_t cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  const auto n = static_cast<std::size_t>(rows * cols);
  switch (dtype) {
    case DType::F32: {
      std::vector<float> v(n);
      for (auto& x : v) x = static_cast<float>(u(rng));
      return Tensor::from_col_major<float>({rows, cols}, v);
    }
    case DType::F64: {
      std::vector<double> v(n);
      for (auto& x : v) x = u(rng);
      return Tensor::from_col_major<double>({rows, cols}, v);
    }
    case DType::C32: {
      std::vector<std::complex<float>> v(n);
      for (auto& x : v) x = {static_cast<float>(u(rng)), static_cast<float>(u(rng))};
      return Tensor::from_col_major<std::complex<float>>({rows, cols}, v);
    }
    case DType::C64: {
      std::vector<std::complex<double>> v(n);
      for (auto& x : v) x = {u(rng), u(rng)};
      return Tensor::from_col_major<std::complex<double>>({rows, cols}, v);
    }
  }
  return Tensor();
}

std::complex<double> at(const Tensor& m, std::int64_t i, std::int64_t j) {
  const std::int64_t k = j * m.shape()[0] + i;
  switch (m.dtype()) {
    case DType::F32:
      return m.data<float>()[k];
    case DType::F64:
      return m.data<double>()[k];
    case DType::C32:
      return std::complex<double>(m.data<std::complex<float>>()[k]);
    case DType::C64:
      return m.data<std::complex<double>>()[k];
  }
  return 0;
}

double tolerance(DType dtype) {
  return dtype == DType::F32 || dtype == DType::C32 ? 1e-4 : 1e-10;
}

bool on_every_rank(bool ok) {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

}  // namespace tenferro::dist::testing
