#include "ops/fft/fftw/host_staging.hpp"

#include <algorithm>
#include <complex>
#include <vector>

#include "tenferro/core/error.hpp"

namespace tenferro::fft_internal {
namespace {

template <class S, class D>
void copy_overlap_typed(const Tensor& src, Tensor& dst, const Shape& overlap) {
  const S* s = src.data<S>();
  D* d = dst.data<D>();
  const std::size_t rank = overlap.size();
  if (rank == 0) {
    d[0] = D(s[0]);
    return;
  }
  const std::int64_t inner = overlap[0];
  const std::int64_t s0 = src.strides()[0], d0 = dst.strides()[0];
  std::vector<std::int64_t> index(rank, 0);  // index[0] unused: the inner loop covers it
  for (;;) {
    std::int64_t so = 0, doff = 0;
    for (std::size_t a = 1; a < rank; ++a) {
      so += index[a] * src.strides()[a];
      doff += index[a] * dst.strides()[a];
    }
    for (std::int64_t i = 0; i < inner; ++i) d[doff + i * d0] = D(s[so + i * s0]);
    std::size_t a = 1;
    for (; a < rank; ++a) {
      if (++index[a] < overlap[a]) break;
      index[a] = 0;
    }
    if (a == rank) return;
  }
}

}  // namespace

void copy_overlap(const Tensor& src, Tensor& dst) {
  if (src.rank() != dst.rank() || is_double(src.dtype()) != is_double(dst.dtype()) ||
      (is_complex(src.dtype()) && !is_complex(dst.dtype()))) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "fft",
                "internal: staging copy between incompatible tensors");
  }
  Shape overlap(src.shape().size());
  for (std::size_t a = 0; a < overlap.size(); ++a) {
    overlap[a] = std::min(src.shape()[a], dst.shape()[a]);
    if (overlap[a] == 0) return;
  }
  visit_dtype(src.dtype(), [&](auto s) {
    visit_dtype(dst.dtype(), [&](auto d) {
      using S = decltype(s);
      using D = decltype(d);
      if constexpr (std::is_constructible_v<D, S> && sizeof(D) >= sizeof(S)) {
        copy_overlap_typed<S, D>(src, dst, overlap);
      }
    });
  });
}

void scale_in_place(Tensor& t, double factor) {
  if (factor == 1.0) return;
  const std::int64_t count = t.numel() * (is_complex(t.dtype()) ? 2 : 1);
  if (is_double(t.dtype())) {
    auto* p = reinterpret_cast<double*>(t.raw_data());
    for (std::int64_t i = 0; i < count; ++i) p[i] *= factor;
  } else {
    auto* p = reinterpret_cast<float*>(t.raw_data());
    const auto f = static_cast<float>(factor);
    for (std::int64_t i = 0; i < count; ++i) p[i] *= f;
  }
}

}  // namespace tenferro::fft_internal
