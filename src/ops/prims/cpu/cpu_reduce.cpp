// The CPU reduction kernel. Each output element walks its reduced sub-tensor in column-major
// order; sums use a wider accumulator (double for F32/C32) and pairwise blocks, so a 10^7-term
// sum loses O(log n) ulps, not O(n).
#include <cmath>
#include <limits>
#include <vector>

#include "ops/prims/cpu/cpu_kernels.hpp"
#include "ops/prims/cpu/element_math.hpp"
#include "ops/prims/cpu/strided_iteration.hpp"

namespace tenferro::prims_cpu {
namespace {

using prims_internal::PrimKind;
using prims_internal::ReduceCall;

// Cascade summation: blocks of kBlock terms summed directly, block sums combined like a binary
// counter (pairwise), so the error grows with log2(n / kBlock).
template <class Acc>
class PairwiseSum {
 public:
  void add(Acc x) {
    block_ += x;
    if (++in_block_ == kBlock) {
      push(block_);
      block_ = Acc(0);
      in_block_ = 0;
    }
  }
  Acc total() const {
    Acc s = block_;
    for (int k = 0; k < 64; ++k) {
      if ((blocks_ >> k) & 1u) s += levels_[k];
    }
    return s;
  }

 private:
  static constexpr int kBlock = 64;
  void push(Acc s) {
    int k = 0;
    while ((blocks_ >> k) & 1u) {
      s += levels_[k];
      levels_[k] = Acc(0);
      ++k;
    }
    levels_[k] = s;
    ++blocks_;
  }
  Acc block_{0};
  int in_block_ = 0;
  std::uint64_t blocks_ = 0;
  Acc levels_[64]{};
};

template <class T>
using Wide = std::conditional_t<kIsComplex<T>, std::complex<double>, double>;

template <class T>
void run_typed(const ReduceCall& c) {
  const TensorLayout& in = c.in.layout;
  const std::size_t rank = in.shape.size();
  // The reduced sub-space (shape and strides) and the kept space walked by the outer loop.
  Shape red_shape, kept_shape;
  Strides red_strides, kept_in_strides, kept_out_strides;
  std::int64_t count = 1;
  for (std::size_t i = 0; i < rank; ++i) {
    if (c.reduced[i]) {
      red_shape.push_back(in.shape[i]);
      red_strides.push_back(in.strides[i]);
      count *= in.shape[i];
    } else {
      kept_shape.push_back(in.shape[i]);
      kept_in_strides.push_back(in.strides[i]);
      kept_out_strides.push_back(c.out.layout.strides[i]);
    }
  }
  const T* x = reinterpret_cast<const T*>(c.in.buffer->host_data());
  std::byte* out_bytes = c.out.buffer->host_data();
  const PrimKind k = c.kind;
  // Reductions over each kept index run serially inside; the kept space is split over threads.
  const auto reduce_one = [&](std::int64_t base, std::int64_t out_offset) {
    const auto each = [&](auto&& f) {
      if (count == 0) return;
      // Serial: f accumulates into one accumulator.
      for_each_strided<1>(
          red_shape, {red_strides}, {base},
          [&](const std::array<std::int64_t, 1>& o) { f(x[o[0]]); }, /*parallel=*/false);
    };
    using W = Wide<T>;
    switch (k) {
      case PrimKind::Sum:
      case PrimKind::Mean: {
        PairwiseSum<W> s;
        each([&](T v) { s.add(static_cast<W>(v)); });
        W total = s.total();
        if (k == PrimKind::Mean) total /= static_cast<double>(count);
        reinterpret_cast<T*>(out_bytes)[out_offset] = static_cast<T>(total);
        return;
      }
      case PrimKind::Norm: {
        PairwiseSum<double> s;
        each([&](T v) {
          if constexpr (kIsComplex<T>) {
            s.add(static_cast<double>(v.real()) * v.real() +
                  static_cast<double>(v.imag()) * v.imag());
          } else {
            s.add(static_cast<double>(v) * v);
          }
        });
        reinterpret_cast<Real<T>*>(out_bytes)[out_offset] =
            static_cast<Real<T>>(std::sqrt(s.total()));
        return;
      }
      case PrimKind::Prod: {
        W p(1);
        each([&](T v) { p *= static_cast<W>(v); });
        reinterpret_cast<T*>(out_bytes)[out_offset] = static_cast<T>(p);
        return;
      }
      case PrimKind::Max:
      case PrimKind::Min:
        if constexpr (!kIsComplex<T>) {
          T m = x[base];
          each([&](T v) { m = k == PrimKind::Max ? nan_max(m, v) : nan_min(m, v); });
          reinterpret_cast<T*>(out_bytes)[out_offset] = m;
          return;
        }
        break;
      default:
        break;
    }
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute,
                std::string(prims_internal::prim_name(k)),
                "no CPU reduction for this kind and dtype");
  };
  // The kept space: one output element each. Parallel when the whole input is large.
  for_each_strided<2>(kept_shape, {kept_in_strides, kept_out_strides},
                      {in.offset, c.out.layout.offset},
                      [&](const std::array<std::int64_t, 2>& o) { reduce_one(o[0], o[1]); });
}

}  // namespace

void reduce(const ExecutionContext&, const ReduceCall& call) {
  count_cpu_kernel_launch();
  visit_dtype(call.in.layout.dtype, [&](auto tag) { run_typed<decltype(tag)>(call); });
}

}  // namespace tenferro::prims_cpu
