#include <tenferro/tenferro.hpp>

#include <iostream>

int main() {
  auto runtime = tenferro::EagerRuntime::cpu();
  auto x = runtime->upload(tenferro::Tensor::from_row_major<float>({2, 2}, {1, 2, 3, 4}));
  const float v = x.download().at<float>({1, 0});
  std::cout << "consumer: engine " << runtime->engine_id().str() << ", x[1,0] = " << v << "\n";
  return v == 3.0f ? 0 : 1;
}
