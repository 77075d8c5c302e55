// Distributed sliced einsum: the root plans (path and slicing under the memory limit), every
// rank prepares the same plan from the root's path, contracts its share of the slices on its
// local runtime (PreparedEinsum::run_slices) and the partial outputs are summed in place by
// one MPI_Allreduce into the downloaded output (the one full-size copy a rank holds).
#include <algorithm>
#include <string>
#include <vector>

#include "dist/collective.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::dist {
namespace {

MPI_Datatype mpi_type(DType dtype) {
  switch (dtype) {
    case DType::F32:
      return MPI_FLOAT;
    case DType::F64:
      return MPI_DOUBLE;
    case DType::C32:
      return MPI_C_FLOAT_COMPLEX;
    case DType::C64:
      return MPI_C_DOUBLE_COMPLEX;
  }
  return MPI_DATATYPE_NULL;
}

std::string describe_call(std::string_view subscripts, std::span<const Tensor> operands,
                          const EinsumOptions& o) {
  std::string s = "einsum " + std::string(subscripts);
  for (const Tensor& t : operands)
    s += " " + std::string(dtype_name(t.dtype())) + shape_to_string(t.shape());
  s += " strategy " + std::to_string(static_cast<int>(o.strategy)) + " planner '" + o.planner +
       "' limit " + std::to_string(o.memory_limit) + " seed " + std::to_string(o.seed);
  return s;
}

}  // namespace

Tensor einsum(const std::shared_ptr<Context>& ctx, std::string_view subscripts,
              std::span<const Tensor> operands, const EinsumOptions& options) {
  Context::Impl& c = ctx->impl();
  detail::check_same_call(c, "dist.einsum", describe_call(subscripts, operands, options));
  std::vector<TensorMeta> metas;
  for (const Tensor& t : operands) metas.push_back({t.dtype(), t.shape()});

  // The root's path (its planner may be randomised or time-bounded; the ranks must agree).
  std::vector<int> steps = detail::agreed(c, [&] {
    std::vector<int> flat;
    if (c.rank == 0) {
      const PreparedEinsum plan(subscripts, metas, options);
      for (const auto& [i, j] : plan.path().steps) flat.insert(flat.end(), {i, j});
    }
    return flat;
  });
  int length = static_cast<int>(steps.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, c.comm);
  steps.resize(static_cast<std::size_t>(length));
  MPI_Bcast(steps.data(), length, MPI_INT, 0, c.comm);

  // Every rank builds the root's plan; the ranks agree on it before any rank uploads or
  // contracts anything. A rank's local runtime may be any backend: the slices run on it
  // (a device runs and sums them itself) and the rank downloads its sum, explicitly and
  // counted, for the host-side MPI_Allreduce.
  const PreparedEinsum plan = detail::agreed(c, [&] {
    EinsumOptions same = options;
    same.planner.clear();
    same.strategy = PathStrategy::Explicit;
    same.path.clear();
    for (std::size_t k = 0; k + 1 < steps.size(); k += 2)
      same.path.emplace_back(steps[k], steps[k + 1]);
    return PreparedEinsum(subscripts, metas, same);
  });

  Tensor result = detail::agreed(c, [&] {
    const std::int64_t n = plan.num_slices();
    const std::int64_t first = n * c.rank / c.size, last = n * (c.rank + 1) / c.size;
    if (first == last) return Tensor::zeros(plan.output().dtype, plan.output().shape);
    std::vector<EagerTensor> local;
    for (const Tensor& t : operands) local.push_back(c.runtime->upload(t));
    return plan.run_slices(local, first, last - first).download();
  });

  // In place, in chunks (MPI counts are int).
  const MPI_Datatype type = mpi_type(result.dtype());
  const std::int64_t total = result.numel();
  constexpr std::int64_t kChunk = std::int64_t{1} << 28;
  for (std::int64_t done = 0; done < total; done += kChunk) {
    const int count = static_cast<int>(std::min(kChunk, total - done));
    MPI_Allreduce(MPI_IN_PLACE,
                  result.raw_data() + done * static_cast<std::int64_t>(dtype_size(result.dtype())),
                  count, type, MPI_SUM, c.comm);
  }
  c.reductions.fetch_add(1);
  c.bytes_sent.fetch_add(result.nbytes());
  return result;
}

}  // namespace tenferro::dist
