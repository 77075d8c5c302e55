// Hardware-independent checks of the CUDA prims kernel set (run wherever CUDA is compiled in,
// device or not):
//  - its claim: runs[] covers exactly the dtypes each op's semantics allow (every element-wise,
//    reduction and creation kind on F32/F64/C32/C64, real-only kinds on F32/F64), and the
//    admission table derived from it admits and refuses accordingly;
//  - the strided index the kernels walk: the host's coalescing plus the offsets_of decoding the
//    device runs visit exactly the elements of the original views, each once;
//  - long reductions are split into parts whose workspace stays bounded;
//  - dispatch: a runtime that claims CUDA reaches the CUDA prims executor (never a CPU kernel),
//    which refuses a backend that is not a CudaBackend with a typed error.
#include <gtest/gtest.h>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_CUDA

#include <algorithm>
#include <array>
#include <random>
#include <span>
#include <tuple>
#include <vector>

#include "ops/prims/cuda/prims_layout.hpp"
#include "ops/prims/registration.hpp"
#include "support/test_device_backend.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"
#include "tenferro/runtime/stats.hpp"

namespace tenferro {
namespace {

using prims_internal::cuda_prims_kernels;
using prims_internal::DTypeMask;
using prims_internal::info;
using prims_internal::kPrimInfo;

std::string mask_text(DTypeMask m) {
  std::string s;
  for (DType d : kAllDTypes) {
    if (m & prims_internal::dtype_bit(d)) s += std::string(dtype_name(d)) + " ";
  }
  return s.empty() ? "(none)" : s;
}

TEST(CudaPrimsClaim, RunsCoversEveryKindsSemanticDtypesExactly) {
  const prims_internal::PrimsKernels& k = cuda_prims_kernels();
  EXPECT_EQ(k.backend, BackendKind::Cuda);
  EXPECT_NE(k.elementwise, nullptr);
  EXPECT_NE(k.reduce, nullptr);
  EXPECT_NE(k.generate, nullptr);
  for (const prims_internal::PrimInfo& p : kPrimInfo) {
    const DTypeMask runs = k.runs[static_cast<std::size_t>(p.kind)];
    EXPECT_EQ(runs, p.dtypes) << p.name << ": CUDA runs " << mask_text(runs) << "but the op allows "
                              << mask_text(p.dtypes);
  }
  // The real-only kinds really are refused for complex (not merely masked by the op's table).
  for (auto kind : {prims_internal::PrimKind::Maximum, prims_internal::PrimKind::Minimum,
                    prims_internal::PrimKind::Pow, prims_internal::PrimKind::Complex,
                    prims_internal::PrimKind::Max, prims_internal::PrimKind::Min}) {
    const DTypeMask runs = k.runs[static_cast<std::size_t>(kind)];
    EXPECT_EQ(runs & prims_internal::dtype_bit(DType::C32), 0) << info(kind).name;
    EXPECT_EQ(runs & prims_internal::dtype_bit(DType::C64), 0) << info(kind).name;
  }
}

TEST(CudaPrimsClaim, AdmissionTableAdmitsCudaExactlyWhereTheOpAllows) {
  EXPECT_EQ(prims_internal::kernels_for(BackendKind::Cuda), &cuda_prims_kernels());
  const AdmissionTable& table = prims_family::admission_table();
  for (const prims_internal::PrimInfo& p : kPrimInfo) {
    for (DType d : kAllDTypes) {
      const bool allowed = (p.dtypes & prims_internal::dtype_bit(d)) != 0;
      EXPECT_EQ(table.admits(p.name, BackendKind::Cuda, d), allowed)
          << p.name << " " << dtype_name(d);
    }
  }
}

// The strides of one operand over the shared shape.
struct View {
  std::vector<std::int64_t> strides;
};

// The multiset of per-operand offset tuples of a column-major walk over `shape`.
template <int N>
std::vector<std::array<std::int64_t, N>> naive_offsets(const std::vector<std::int64_t>& shape,
                                                       const std::array<View, N>& views) {
  std::vector<std::array<std::int64_t, N>> out;
  std::int64_t count = 1;
  for (auto e : shape) count *= e;
  for (std::int64_t i = 0; i < count; ++i) {
    std::array<std::int64_t, N> off{};
    std::int64_t rest = i;
    for (std::size_t a = 0; a < shape.size(); ++a) {
      const std::int64_t q = rest % shape[a];
      rest /= shape[a];
      for (int n = 0; n < N; ++n) off[n] += q * views[n].strides[a];
    }
    out.push_back(off);
  }
  std::sort(out.begin(), out.end());
  return out;
}

template <int N>
std::vector<std::array<std::int64_t, N>> kernel_offsets(const std::vector<std::int64_t>& shape,
                                                        const std::array<View, N>& views) {
  std::array<std::span<const std::int64_t>, N> strides{};
  for (int n = 0; n < N; ++n) strides[n] = views[n].strides;
  const auto c = prims_internal::cuda_layout::coalesce<N>(
      shape, strides, prims_internal::cuda_layout::all_axes(shape.size()));
  std::vector<std::array<std::int64_t, N>> out;
  for (std::int64_t i = 0; i < c.count; ++i) {
    std::int64_t off[N];
    cuda_kernels::prims::offsets_of<N>(c.index, i, off);
    std::array<std::int64_t, N> a{};
    for (int n = 0; n < N; ++n) a[n] = off[n];
    out.push_back(a);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Random layouts of rank 0..5: a compact output, a permuted/strided input and a broadcast
// input (stride-0 axes, extent-1 axes), as the executor hands them to the kernels.
TEST(CudaPrimsLayout, CoalescedIndexVisitsExactlyTheViewsElements) {
  std::mt19937_64 rng(20261201);
  int merged_to_rank_one = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int rank = static_cast<int>(rng() % 6);
    std::vector<std::int64_t> shape(rank);
    for (auto& e : shape) e = 1 + static_cast<std::int64_t>(rng() % 4);
    std::array<View, 3> v;
    std::int64_t s = 1;
    for (int a = 0; a < rank; ++a) {  // operand 0: compact column-major
      v[0].strides.push_back(s);
      s *= shape[a];
    }
    // operand 1: a permuted compact buffer with a gap per axis
    std::vector<int> perm(rank);
    for (int a = 0; a < rank; ++a) perm[a] = a;
    std::shuffle(perm.begin(), perm.end(), rng);
    v[1].strides.assign(rank, 0);
    s = 1;
    for (int a : perm) {
      v[1].strides[a] = s;
      s *= shape[a] + static_cast<std::int64_t>(rng() % 2);
    }
    // operand 2: broadcast on random axes
    for (int a = 0; a < rank; ++a) v[2].strides.push_back(rng() % 3 == 0 ? 0 : v[0].strides[a]);
    EXPECT_EQ(kernel_offsets<3>(shape, v), naive_offsets<3>(shape, v)) << "trial " << trial;
    const std::array<View, 2> compact{v[0], v[0]};
    EXPECT_EQ(kernel_offsets<2>(shape, compact), naive_offsets<2>(shape, compact));
    const auto c = prims_internal::cuda_layout::coalesce<2>(
        shape, {v[0].strides, v[0].strides}, prims_internal::cuda_layout::all_axes(rank));
    EXPECT_LE(c.index.rank, 1) << "compact operands are one run of memory";
    merged_to_rank_one += c.index.rank <= 1;
  }
  EXPECT_EQ(merged_to_rank_one, 300);
}

TEST(CudaPrimsLayout, ViewsOfManyNonMergeableAxesKeepEveryAxis) {
  // 40 axes of extent 2, the input viewed through the reversing permutation: no two axes merge,
  // and the kernels still get all of them (einsum's strided index stops at 24).
  const std::size_t rank = 40;
  const std::vector<std::int64_t> shape(rank, 2);
  std::vector<std::int64_t> out(rank), in(rank);
  for (std::size_t a = 0; a < rank; ++a) {
    out[a] = std::int64_t{1} << a;
    in[a] = std::int64_t{1} << (rank - 1 - a);
  }
  const auto c = prims_internal::cuda_layout::coalesce<2>(
      shape, {out, in}, prims_internal::cuda_layout::all_axes(rank));
  EXPECT_EQ(c.index.rank, 40);
  EXPECT_EQ(c.count, std::int64_t{1} << 40);
  // Element i of the walk is out offset i and in offset bit-reverse(i).
  for (std::int64_t i :
       {std::int64_t{0}, std::int64_t{1}, std::int64_t{5}, (std::int64_t{1} << 40) - 2}) {
    std::int64_t off[2];
    cuda_kernels::prims::offsets_of<2>(c.index, i, off);
    std::int64_t reversed = 0;
    for (std::size_t a = 0; a < rank; ++a) reversed |= ((i >> a) & 1) << (rank - 1 - a);
    EXPECT_EQ(off[0], i);
    EXPECT_EQ(off[1], reversed);
  }
}

TEST(CudaPrimsLayout, ReductionAxesSplitIntoKeptAndReducedIndices) {
  // in: 3 x 4 x 5 compact; reduce axes 0 and 2; out: 1 x 4 x 1 compact.
  const std::vector<std::int64_t> shape{3, 4, 5}, in{1, 3, 12}, out{0, 1, 0};
  const auto kept = prims_internal::cuda_layout::coalesce<2>(shape, {out, in}, {1});
  const auto reduced = prims_internal::cuda_layout::coalesce<1>(shape, {in}, {0, 2});
  EXPECT_EQ(kept.count, 4);
  EXPECT_EQ(reduced.count, 15);
  std::vector<std::int64_t> seen;
  for (std::int64_t i = 0; i < kept.count; ++i) {
    std::int64_t ko[2];
    cuda_kernels::prims::offsets_of<2>(kept.index, i, ko);
    EXPECT_EQ(ko[0], i);
    for (std::int64_t j = 0; j < reduced.count; ++j) {
      std::int64_t r[1];
      cuda_kernels::prims::offsets_of<1>(reduced.index, j, r);
      seen.push_back(ko[1] + r[0]);
      EXPECT_EQ((ko[1] + r[0]) / 3 % 4, i) << "a reduced element of another output";
    }
  }
  std::sort(seen.begin(), seen.end());
  std::vector<std::int64_t> all(60);
  for (int i = 0; i < 60; ++i) all[i] = i;
  EXPECT_EQ(seen, all);
}

TEST(CudaPrimsLayout, LongReductionsAreSplitWithABoundedWorkspace) {
  using cuda_kernels::prims::reduce_parts;
  EXPECT_EQ(reduce_parts(1000000, 10), 1) << "many short reductions: one thread each";
  EXPECT_EQ(reduce_parts(1, 100), 1);
  EXPECT_GT(reduce_parts(1, 10000000), 100) << "one 10^7 reduction must spread over many blocks";
  for (std::int64_t kept : {1, 7, 1000, 30000}) {
    for (std::int64_t red : {1000, 100000, 10000000, 1000000000}) {
      const std::int64_t parts = reduce_parts(kept, red);
      EXPECT_GE(parts, 1);
      EXPECT_LE(kept * parts, std::int64_t{1} << 20) << kept << " x " << red;
      EXPECT_LE(parts, red);
    }
  }
}

TEST(CudaPrimsDispatch, ACudaRuntimeReachesTheCudaKernelsNeverACpuKernel) {
  // A device-like backend presenting itself as CUDA device 0: admission passes (CUDA runs
  // add on F64), the factory gives it the CUDA prims module, whose kernels then find no real
  // CudaBackend: a RuntimeState error, and no CPU kernel runs in their place.
  auto rt = testing::make_test_device_runtime(BackendKind::Cuda, "tenferro.cuda.d0.v1");
  const EagerTensor a = rt->upload(Tensor::zeros(DType::F64, {3, 2}));
  const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
  try {
    (void)prims::add(a, a);
    ADD_FAILURE() << "add ran on a backend that is not a CudaBackend";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::RuntimeState) << e.what();
  }
  EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels) << "no CPU fallback";
  const ModulePtr cuda = prims_internal::prims_module_for(
      EagerExtensionTarget{EngineId("tenferro.cuda.d0.v1"), BackendKind::Cuda});
  const ModulePtr cpu = prims_internal::prims_module_for(
      EagerExtensionTarget{EngineId("tenferro.cpu.v1"), BackendKind::Cpu});
  ASSERT_TRUE(cuda && cpu);
  EXPECT_NE(cuda.get(), cpu.get());
  EXPECT_NE(cuda->find(prims_family::kFamily, EngineId("tenferro.cuda.d0.v1")), nullptr);
}

}  // namespace
}  // namespace tenferro

#endif  // TENFERRO_HAS_CUDA
