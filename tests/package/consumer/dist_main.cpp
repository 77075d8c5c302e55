// The installed dist component under mpirun: a distributed product of a matrix with the
// identity gathered on the root equals the matrix.
#include <tenferro/dist.hpp>

#include <iostream>

int main(int argc, char** argv) {
  tenferro::dist::Environment mpi(&argc, &argv);
  const auto ctx = tenferro::dist::Context::world();
  const auto a = tenferro::Tensor::from_col_major<double>({2, 2}, {1, 2, 3, 4});
  const auto eye = tenferro::Tensor::from_col_major<double>({2, 2}, {1, 0, 0, 1});
  const auto on_root = [&](const tenferro::Tensor& t) {
    return tenferro::dist::scatter(ctx, ctx->is_root() ? t : tenferro::Tensor(), {1, 1, {}});
  };
  const auto c = tenferro::dist::gather(tenferro::dist::matmul(on_root(a), on_root(eye)));
  if (!ctx->is_root()) return 0;
  const double v = c.data<double>()[1];
  std::cout << "dist consumer: " << ctx->size() << " ranks, c[1,0] = " << v << "\n";
  return v == 2.0 ? 0 : 1;
}
