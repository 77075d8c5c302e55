#include "memory_order.hpp"

#include <algorithm>
#include <numeric>

namespace tenferro::python {

namespace {

std::vector<std::int64_t> inverse(const std::vector<std::int64_t>& perm) {
  std::vector<std::int64_t> inv(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) inv[static_cast<std::size_t>(perm[i])] = i;
  return inv;
}

}  // namespace

std::optional<std::vector<std::int64_t>> dense_order(const TensorLayout& layout) {
  std::vector<std::int64_t> perm(layout.shape.size());
  std::iota(perm.begin(), perm.end(), 0);
  // Ascending strides; ties (extent-1 axes) keep their order, which compactness ignores.
  std::stable_sort(perm.begin(), perm.end(), [&](std::int64_t a, std::int64_t b) {
    return layout.strides[static_cast<std::size_t>(a)] <
           layout.strides[static_cast<std::size_t>(b)];
  });
  if (!layout.permuted(perm).is_compact()) return std::nullopt;
  return perm;
}

EagerTensor upload_keeping_order(EagerRuntime& runtime, const Tensor& host) {
  const std::optional<std::vector<std::int64_t>> perm = dense_order(host.layout());
  if (!perm) return runtime.upload(host);  // gaps: compacted (column-major) by the upload
  return runtime.upload(host.permute(*perm)).permute(inverse(*perm));
}

Tensor download_keeping_order(const EagerTensor& t) {
  const std::optional<std::vector<std::int64_t>> perm = dense_order(t.layout());
  if (!perm) return t.download();  // a strided view: gathered into column-major order
  return t.permute(*perm).download().permute(inverse(*perm));
}

}  // namespace tenferro::python
