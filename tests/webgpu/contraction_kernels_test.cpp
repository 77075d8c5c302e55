// einsum's WGSL contraction kernels, one by one, against host loops in double precision:
// strided copies (permutes, diagonals, broadcasts), fills, products, trailing sums and the
// tiled batched GEMM with arbitrary strides, for F32 and C32.
#include <gtest/gtest.h>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_WEBGPU

#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "backends/webgpu/webgpu_backend.hpp"
#include "ops/einsum/webgpu/webgpu_contraction_kernels.hpp"
#include "tenferro/runtime/stats.hpp"
#include "webgpu_fixture.hpp"

namespace tenferro::einsum_internal {
namespace {

using cd = std::complex<double>;

// A device buffer of `dtype` elements with a host copy of its values (in double precision).
struct DeviceArray {
  DType dtype;
  std::shared_ptr<Buffer> buffer;
  std::vector<cd> host;
};

class ContractionKernelsTest : public webgpu_test::WebGpuTest,
                               public ::testing::WithParamInterface<DType> {
 protected:
  void SetUp() override {
    webgpu_test::WebGpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    backend_ = &dynamic_cast<WebGpuBackend&>(runtime_->backend());
    kernels_ = std::make_unique<WebGpuContractionKernels>(*backend_);
  }

  DeviceArray array(std::size_t n, unsigned seed) {
    const DType dtype = GetParam();
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    DeviceArray a{dtype, backend_->allocate(n * dtype_size(dtype)), std::vector<cd>(n)};
    for (auto& v : a.host) {
      const double re = dist(gen), im = is_complex(dtype) ? dist(gen) : 0.0;
      v = cd(static_cast<float>(re), static_cast<float>(im));  // exactly representable
    }
    store(a);
    return a;
  }

  void store(const DeviceArray& a) {
    std::vector<std::byte> bytes(a.host.size() * dtype_size(a.dtype));
    for (std::size_t i = 0; i < a.host.size(); ++i) {
      if (a.dtype == DType::F32) {
        const auto v = static_cast<float>(a.host[i].real());
        std::memcpy(bytes.data() + 4 * i, &v, 4);
      } else {
        const std::complex<float> v(static_cast<float>(a.host[i].real()),
                                    static_cast<float>(a.host[i].imag()));
        std::memcpy(bytes.data() + 8 * i, &v, 8);
      }
    }
    backend_->write(*a.buffer, 0, bytes);
  }

  std::vector<cd> load(const DeviceArray& a) {
    std::vector<std::byte> bytes(a.host.size() * dtype_size(a.dtype));
    backend_->read(*a.buffer, 0, bytes);
    std::vector<cd> out(a.host.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (a.dtype == DType::F32) {
        float v;
        std::memcpy(&v, bytes.data() + 4 * i, 4);
        out[i] = v;
      } else {
        std::complex<float> v;
        std::memcpy(&v, bytes.data() + 8 * i, 8);
        out[i] = cd(v.real(), v.imag());
      }
    }
    return out;
  }

  static KernelView view(const DeviceArray& a, Shape shape, Strides strides,
                         std::int64_t offset = 0) {
    return KernelView{a.buffer.get(), a.dtype, std::move(shape), std::move(strides), offset};
  }

  // Expects `got` to equal `want` within F32 rounding relative to `scale` (per element).
  static void expect_close(const std::vector<cd>& got, const std::vector<cd>& want,
                           const std::vector<double>& scale) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_LE(std::abs(got[i] - want[i]), 1e-5 * (scale[i] + 1.0))
          << "element " << i << ": got " << got[i] << ", want " << want[i];
    }
  }
  static void expect_exact(const std::vector<cd>& got, const std::vector<cd>& want) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], want[i]) << "element " << i;
  }

  WebGpuBackend* backend_ = nullptr;
  std::unique_ptr<WebGpuContractionKernels> kernels_;
};

// Calls f(index, linear) for every multi-index of `shape` in column-major order.
void for_each_index(const Shape& shape,
                    const std::function<void(const std::vector<std::int64_t>&)>& f) {
  const std::int64_t n = checked_numel(shape);
  std::vector<std::int64_t> idx(shape.size(), 0);
  for (std::int64_t i = 0; i < n; ++i) {
    f(idx);
    for (std::size_t a = 0; a < shape.size(); ++a) {
      if (++idx[a] < shape[a]) break;
      idx[a] = 0;
    }
  }
}

std::int64_t at(const std::vector<std::int64_t>& idx, const Strides& strides, std::int64_t offset) {
  std::int64_t o = offset;
  for (std::size_t a = 0; a < idx.size(); ++a) o += idx[a] * strides[a];
  return o;
}

TEST_P(ContractionKernelsTest, CopyPermutesIntoAStridedDestination) {
  // src: compact [3, 4, 5] read as its permutation (2, 0, 1); dst: a [5, 3, 4] block at
  // offset 7 inside a larger buffer with padded strides. Untouched elements keep their values.
  DeviceArray src = array(60, 1);
  DeviceArray dst = array(7 + 6 * 4 * 5 * 2, 2);
  const Shape shape = {5, 3, 4};
  const Strides src_strides = {12, 1, 3};
  const Strides dst_strides = {1, 6, 24};
  kernels_->copy(view(src, shape, src_strides), view(dst, shape, dst_strides, 7));
  std::vector<cd> want = dst.host;
  for_each_index(
      shape, [&](const auto& i) { want[at(i, dst_strides, 7)] = src.host[at(i, src_strides, 0)]; });
  expect_exact(load(dst), want);
}

TEST_P(ContractionKernelsTest, CopyExtractsADiagonalAndBroadcasts) {
  DeviceArray src = array(4 * 4 * 3, 3);
  // Diagonal of the first two axes of a compact [4, 4, 3]: stride 1 + 4.
  DeviceArray diag = array(12, 4);
  kernels_->copy(view(src, {4, 3}, {5, 16}), view(diag, {4, 3}, {1, 4}));
  std::vector<cd> want(12);
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 3; ++k) want[i + 4 * k] = src.host[i * 5 + k * 16];
  expect_exact(load(diag), want);

  // Broadcast a [3] vector along a new leading axis of 4 (stride 0) and an extent-1 axis.
  DeviceArray row = array(3, 5);
  DeviceArray out = array(12, 6);
  kernels_->copy(view(row, {1, 3}, {0, 1}), view(out, {4, 3}, {1, 4}));
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 3; ++k) want[i + 4 * k] = row.host[k];
  expect_exact(load(out), want);
}

TEST_P(ContractionKernelsTest, FillZeroTouchesOnlyItsView) {
  DeviceArray a = array(30, 7);
  kernels_->fill_zero(view(a, {2, 3}, {2, 10}, 1));  // every other element of 3 columns
  std::vector<cd> want = a.host;
  for_each_index({2, 3}, [&](const auto& i) { want[at(i, {2, 10}, 1)] = 0.0; });
  expect_exact(load(a), want);
}

TEST_P(ContractionKernelsTest, MultiplyIsElementwiseWithBroadcasts) {
  // Outer product: a[i] * b[j] written to [5, 6].
  DeviceArray a = array(5, 8), b = array(6, 9), c = array(30, 10);
  kernels_->multiply(view(a, {5, 6}, {1, 0}), view(b, {5, 6}, {0, 1}), view(c, {5, 6}, {1, 5}));
  std::vector<cd> want(30);
  std::vector<double> scale(30);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 6; ++j) {
      want[i + 5 * j] = a.host[i] * b.host[j];
      scale[i + 5 * j] = std::abs(a.host[i]) * std::abs(b.host[j]);
    }
  expect_close(load(c), want, scale);
  // In place (the output aliases an input): c = c * c.
  kernels_->multiply(view(c, {30}, {1}), view(c, {30}, {1}), view(c, {30}, {1}));
  std::vector<cd> squared(30);
  for (int i = 0; i < 30; ++i) {
    squared[i] = want[i] * want[i];
    scale[i] = std::norm(want[i]);
  }
  expect_close(load(c), squared, scale);
}

TEST_P(ContractionKernelsTest, SumTrailingReducesTheLastAxes) {
  // src: a permuted view of compact [4, 3, 5, 2] as [5, 4, 3, 2]: keep [5, 4], reduce [3, 2].
  DeviceArray src = array(120, 11);
  const Shape shape = {5, 4, 3, 2};
  const Strides strides = {12, 1, 4, 60};
  DeviceArray dst = array(20, 12);
  kernels_->sum_trailing(view(src, shape, strides), view(dst, {5, 4}, {4, 1}), 2);
  std::vector<cd> want(20, 0.0);
  std::vector<double> scale(20, 0.0);
  for_each_index(shape, [&](const auto& i) {
    const cd v = src.host[at(i, strides, 0)];
    want[i[0] * 4 + i[1]] += v;
    scale[i[0] * 4 + i[1]] += std::abs(v);
  });
  expect_close(load(dst), want, scale);
  // A full reduction (trace-like sum of everything) into a rank-0 destination.
  DeviceArray total = array(1, 13);
  kernels_->sum_trailing(view(src, {120}, {1}), view(total, {}, {}), 1);
  cd sum = 0;
  double mag = 0;
  for (const cd& v : src.host) sum += v, mag += std::abs(v);
  expect_close(load(total), {sum}, {mag});
}

struct GemmCase {
  std::int64_t m, n, k, batch;
  bool a_transposed, b_transposed, c_transposed;
};

TEST_P(ContractionKernelsTest, BatchedGemmWithArbitraryStrides) {
  const GemmCase cases[] = {
      {1, 1, 1, 1, false, false, false},
      {17, 33, 19, 3, false, false, false},
      {16, 16, 16, 2, true, false, false},
      {5, 40, 70, 1, false, true, true},
      {31, 2, 45, 4, true, true, false},
      {70, 130, 33, 2, true, false, true},  // several 64 x 64 blocks per batch
      {9, 7, 0, 2, false, false, false},    // k == 0 writes zeros
      {3, 2, 300, 4, true, false, true},    // dot_tree, one chunk of K per element
      {1, 1, 5000, 3, false, true, false},  // dot_tree, three chunks summed into C
  };
  unsigned seed = 100;
  for (const GemmCase& g : cases) {
    SCOPED_TRACE(::testing::Message()
                 << g.m << "x" << g.n << "x" << g.k << " batch " << g.batch << " transposes "
                 << g.a_transposed << g.b_transposed << g.c_transposed);
    const std::int64_t a_off = 3, b_off = 5, c_off = 2;
    DeviceArray a = array(static_cast<std::size_t>(a_off + g.m * g.k * g.batch), seed++);
    DeviceArray b = array(static_cast<std::size_t>(b_off + g.k * g.n * g.batch), seed++);
    DeviceArray c = array(static_cast<std::size_t>(c_off + g.m * g.n * g.batch), seed++);
    GemmProblem p;
    p.dtype = GetParam();
    p.m = g.m, p.n = g.n, p.k = g.k, p.batch = g.batch;
    // Batch outermost; within a batch, column-major or its transpose.
    p.a = a.buffer.get(), p.a_offset = a_off, p.a_stride_batch = g.m * g.k;
    p.a_stride_m = g.a_transposed ? g.k : 1, p.a_stride_k = g.a_transposed ? 1 : g.m;
    p.b = b.buffer.get(), p.b_offset = b_off, p.b_stride_batch = g.k * g.n;
    p.b_stride_k = g.b_transposed ? g.n : 1, p.b_stride_n = g.b_transposed ? 1 : g.k;
    p.c = c.buffer.get(), p.c_offset = c_off, p.c_stride_batch = g.m * g.n;
    p.c_stride_m = g.c_transposed ? g.n : 1, p.c_stride_n = g.c_transposed ? 1 : g.m;
    kernels_->gemm(p);

    std::vector<cd> want = c.host;
    std::vector<double> scale(want.size(), 0.0);
    for (std::int64_t bt = 0; bt < g.batch; ++bt)
      for (std::int64_t i = 0; i < g.m; ++i)
        for (std::int64_t j = 0; j < g.n; ++j) {
          cd acc = 0;
          double mag = 0;
          for (std::int64_t l = 0; l < g.k; ++l) {
            const cd x =
                a.host[a_off + bt * p.a_stride_batch + i * p.a_stride_m + l * p.a_stride_k];
            const cd y =
                b.host[b_off + bt * p.b_stride_batch + l * p.b_stride_k + j * p.b_stride_n];
            acc += x * y;  // no conjugation
            mag += std::abs(x) * std::abs(y);
          }
          const std::int64_t o =
              c_off + bt * p.c_stride_batch + i * p.c_stride_m + j * p.c_stride_n;
          want[o] = acc;
          scale[o] = mag;
        }
    expect_close(load(c), want, scale);
  }
}

TEST_P(ContractionKernelsTest, GemmBroadcastsAnOperandAcrossTheBatch) {
  // B shared by every batch (batch stride 0), A's batch axis innermost (stride 1).
  const std::int64_t m = 6, n = 5, k = 4, batch = 3;
  DeviceArray a = array(m * k * batch, 21), b = array(k * n, 22), c = array(m * n * batch, 23);
  GemmProblem p;
  p.dtype = GetParam();
  p.m = m, p.n = n, p.k = k, p.batch = batch;
  p.a = a.buffer.get(), p.a_stride_batch = 1, p.a_stride_m = batch, p.a_stride_k = batch * m;
  p.b = b.buffer.get(), p.b_stride_batch = 0, p.b_stride_k = 1, p.b_stride_n = k;
  p.c = c.buffer.get(), p.c_stride_batch = m * n, p.c_stride_m = 1, p.c_stride_n = m;
  kernels_->gemm(p);
  std::vector<cd> want(c.host.size());
  std::vector<double> scale(c.host.size());
  for (std::int64_t bt = 0; bt < batch; ++bt)
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        cd acc = 0;
        double mag = 0;
        for (std::int64_t l = 0; l < k; ++l) {
          const cd x = a.host[bt + i * batch + l * batch * m], y = b.host[l + j * k];
          acc += x * y;
          mag += std::abs(x) * std::abs(y);
        }
        want[bt * m * n + i + j * m] = acc;
        scale[bt * m * n + i + j * m] = mag;
      }
  expect_close(load(c), want, scale);
}

TEST_P(ContractionKernelsTest, KernelsRunOnTheDeviceOnly) {
  const std::uint64_t cpu_before = process_cpu_kernel_launches();
  const WebGpuPipelineStats before = backend_->pipeline_stats();
  DeviceArray a = array(64, 31), b = array(64, 32);
  kernels_->multiply(view(a, {64}, {1}), view(b, {64}, {1}), view(b, {64}, {1}));
  kernels_->multiply(view(a, {64}, {1}), view(b, {64}, {1}), view(b, {64}, {1}));
  const WebGpuPipelineStats after = backend_->pipeline_stats();
  EXPECT_EQ(after.dispatches - before.dispatches, 2u);
  EXPECT_LE(after.built - before.built, 1u);  // one pipeline, reused by the second call
  EXPECT_GE(after.cache_hits - before.cache_hits, 1u);
  EXPECT_EQ(process_cpu_kernel_launches(), cpu_before);
}

TEST_P(ContractionKernelsTest, ViewsOutsideTheirBufferAreRefused) {
  DeviceArray a = array(10, 41), b = array(10, 42);
  const WebGpuPipelineStats before = backend_->pipeline_stats();
  try {
    kernels_->copy(view(a, {4}, {3}), view(b, {4}, {1}));     // reaches element 9: fine
    kernels_->copy(view(a, {4}, {3}, 1), view(b, {4}, {1}));  // reaches element 10: out
    FAIL() << "an out-of-range view was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation);
  }
  EXPECT_EQ(backend_->pipeline_stats().dispatches - before.dispatches, 1u);
}

// Long reductions: against a double reference with the F32 tolerance of
// long_reductions_webgpu_test.cpp, 4 sqrt(n) eps sqrt(sum |term|^2), on data of mean 0.5.
void expect_sum_close(const cd& got, const cd& want, double terms, double sum_sq,
                      const std::string& what) {
  const double tolerance =
      4.0 * std::sqrt(terms) * std::numeric_limits<float>::epsilon() * std::sqrt(sum_sq);
  EXPECT_LE(std::abs(got - want), tolerance)
      << what << " over " << terms << " terms: got " << got << ", want " << want;
}

TEST_P(ContractionKernelsTest, SumTrailingAcrossItsPassBoundaries) {
  struct Case {
    std::int64_t n_out, n_reduced;
  };
  // Few outputs: one serial pass (<= 32), one tree chunk (<= 2048), two tree passes, and
  // three passes for 2048^2 + 1 (one output but 131073 chunks of 32: serial, tree, tree; F32
  // only, to keep the suite fast). Many outputs: serial passes into scratch, then a serial
  // (600 x 1000) or tree (20 x 70000) finish.
  for (const Case& c :
       {Case{3, 32}, Case{3, 33}, Case{3, 2048}, Case{3, 2049}, Case{3, (1 << 16) + 1},
        Case{1, 2048 * 2048 + 1}, Case{600, 1000}, Case{20, 70000}}) {
    const std::int64_t n_out = c.n_out, n_reduced = c.n_reduced;
    if (n_reduced > (1 << 20) && GetParam() != DType::F32) continue;
    SCOPED_TRACE(::testing::Message() << n_out << " x " << n_reduced);
    DeviceArray src = array(static_cast<std::size_t>(n_out * n_reduced), 51);
    for (cd& v : src.host) v += cd(0.5, is_complex(src.dtype) ? 0.5 : 0.0);  // mean 0.5
    store(src);
    // Outputs at stride 2 from offset 1 of a buffer whose other elements must not change.
    DeviceArray dst = array(static_cast<std::size_t>(2 * n_out + 1), 52);
    kernels_->sum_trailing(view(src, {n_out, n_reduced}, {1, n_out}), view(dst, {n_out}, {2}, 1),
                           1);
    const std::vector<cd> got = load(dst);
    for (std::int64_t o = 0; o < n_out; ++o) {
      cd sum = 0;
      double sum_sq = 0;
      for (std::int64_t j = 0; j < n_reduced; ++j) {
        const cd v = src.host[static_cast<std::size_t>(o + n_out * j)];
        sum += v, sum_sq += std::norm(v);
      }
      expect_sum_close(got[static_cast<std::size_t>(1 + 2 * o)], sum,
                       static_cast<double>(n_reduced), sum_sq, "output " + std::to_string(o));
      EXPECT_EQ(got[static_cast<std::size_t>(2 * o)], dst.host[static_cast<std::size_t>(2 * o)]);
    }
  }
}

// The tiled GEMM (more than kDotTreeMaxOutputs elements of C) over a K long enough for
// split-K: the splits' partial products summed in one group (K = 70000: the former single
// loop over K stopped early on lavapipe), in rounds that add into C (scratch for 6 of 20
// splits), and straight into C when no scratch fits (budget 1 byte).
TEST_P(ContractionKernelsTest, TiledGemmSplitsALongContractedExtent) {
  struct SplitCase {
    std::int64_t k, batch;
    std::size_t budget;
  };
  const std::int64_t m = 9, n = 8;
  const std::size_t per_split = m * n * 2 * dtype_size(GetParam());
  for (const SplitCase& sc :
       {SplitCase{70000, 1, WebGpuContractionKernels::kDefaultScratchBudgetBytes},
        SplitCase{20000, 2, 6 * per_split}, SplitCase{3000, 2, 1}}) {
    SCOPED_TRACE(::testing::Message()
                 << "K " << sc.k << " batch " << sc.batch << " budget " << sc.budget);
    WebGpuContractionKernels kernels(*backend_, sc.budget);
    DeviceArray a = array(static_cast<std::size_t>(m * sc.k * sc.batch), 61);
    DeviceArray b = array(static_cast<std::size_t>(sc.k * n * sc.batch), 62);
    for (DeviceArray* x : {&a, &b}) {
      for (cd& v : x->host) v += cd(0.5, is_complex(x->dtype) ? 0.5 : 0.0);
      store(*x);
    }
    const std::int64_t c_off = 3;
    DeviceArray c = array(static_cast<std::size_t>(c_off + m * n * sc.batch), 63);
    GemmProblem p;
    p.dtype = GetParam();
    p.m = m, p.n = n, p.k = sc.k, p.batch = sc.batch;
    // A transposed (K fastest), B column-major, C row-major at an offset.
    p.a = a.buffer.get(), p.a_stride_k = 1, p.a_stride_m = sc.k, p.a_stride_batch = m * sc.k;
    p.b = b.buffer.get(), p.b_stride_k = 1, p.b_stride_n = sc.k, p.b_stride_batch = sc.k * n;
    p.c = c.buffer.get(), p.c_offset = c_off, p.c_stride_m = n, p.c_stride_n = 1;
    p.c_stride_batch = m * n;
    const RuntimeStats before = runtime_->stats();
    kernels.gemm(p);
    const std::vector<cd> got = load(c);
    EXPECT_EQ(runtime_->stats().uploads, before.uploads);  // scratch is no transfer
    for (std::int64_t bt = 0; bt < sc.batch; ++bt)
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
          cd sum = 0;
          double sum_sq = 0;
          for (std::int64_t l = 0; l < sc.k; ++l) {
            const cd t = a.host[static_cast<std::size_t>(bt * m * sc.k + i * sc.k + l)] *
                         b.host[static_cast<std::size_t>(bt * sc.k * n + j * sc.k + l)];
            sum += t, sum_sq += std::norm(t);
          }
          expect_sum_close(got[static_cast<std::size_t>(c_off + bt * m * n + i * n + j)], sum,
                           static_cast<double>(sc.k), sum_sq,
                           "C(" + std::to_string(i) + ", " + std::to_string(j) + ")");
        }
    EXPECT_EQ(got[0], c.host[0]);  // before the offset: untouched
  }
}

INSTANTIATE_TEST_SUITE_P(WebGpu, ContractionKernelsTest, ::testing::Values(DType::F32, DType::C32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

class ContractionKernelsDoubleTest : public webgpu_test::WebGpuTest {};

TEST_F(ContractionKernelsDoubleTest, DoublePrecisionIsUnsupportedBeforeAnyDispatch) {
  auto& backend = dynamic_cast<WebGpuBackend&>(runtime_->backend());
  WebGpuContractionKernels kernels(backend);
  const WebGpuPipelineStats before = backend.pipeline_stats();
  for (DType dtype : {DType::F64, DType::C64}) {
    auto buffer = backend.allocate(16 * dtype_size(dtype));
    const KernelView v{buffer.get(), dtype, {16}, {1}, 0};
    try {
      kernels.copy(v, v);
      FAIL() << "a " << dtype_name(dtype) << " kernel ran";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
      EXPECT_NE(std::string(e.what()).find("f64"), std::string::npos) << e.what();
    }
    GemmProblem g;
    g.dtype = dtype;
    g.m = g.n = g.k = 4;
    g.a = g.b = g.c = buffer.get();
    EXPECT_THROW(kernels.gemm(g), Error);
  }
  EXPECT_EQ(backend.pipeline_stats().dispatches, before.dispatches);
  EXPECT_EQ(backend.pipeline_stats().built, before.built);
}

}  // namespace
}  // namespace tenferro::einsum_internal

#endif  // TENFERRO_HAS_WEBGPU
