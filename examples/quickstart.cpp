// Quickstart: create the default CPU runtime, upload a host tensor, inspect placement and
// statistics, and download it again. Every transfer is explicit.
#include <complex>
#include <iostream>

#include "tenferro/tenferro.hpp"

int main() {
  using namespace tenferro;
  auto runtime = EagerRuntime::cpu();
  std::cout << "runtime " << runtime->id() << " on engine " << runtime->engine_id().str() << "\n";

  // A 2x3 matrix given in row-major order; element [i, j] is the same as in NumPy.
  Tensor a = Tensor::from_row_major<double>({2, 3}, {1, 2, 3, 4, 5, 6});
  EagerTensor x = runtime->upload(a);
  std::cout << "placement: " << x.placement().to_string() << "\n";

  Tensor back = x.download();
  std::cout << "a[1, 2] = " << back.at<double>({1, 2}) << "\n";
  std::cout << "stats: " << runtime->stats().to_json() << "\n";
  return back.at<double>({1, 2}) == 6.0 ? 0 : 1;
}
