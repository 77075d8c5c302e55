// Adversarial tests of the einsum executor's warm paths: the play-back of a recorded program
// (src/ops/einsum/replay.*) and a two-operand plan's DirectGemm (direct_gemm.*). Every call is
// compared with the naive reference on downloaded host copies of its own operands, and every
// equation is called several times on one runtime (or one plan), so that the later calls play
// back (or take the DirectGemm): operands that are views into larger buffers at other offsets
// with the same strides, inputs that share a buffer after a recording with distinct ones (and
// the reverse), layouts that alternate (each must be recorded again, not played back),
// diagonals, traces, embeddings, broadcasts, zero-size extents, outputs written into views,
// sliced plans (one and several workers, slice ranges), plans around the 1024-step limit,
// random networks, several threads, several runtimes and WebGPU when there is an adapter.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "ops/einsum/cpu/cpu_contraction_kernels.hpp"
#include "ops/einsum/direct_gemm.hpp"
#include "ops/einsum/executor.hpp"
#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "ops/einsum/program.hpp"
#include "ops/einsum/replay.hpp"
#include "ops/einsum/workspace.hpp"
#include "random_networks.hpp"
#include "small_sliced_cases.hpp"
#include "support/einsum_reference.hpp"
#include "support/random_einsum.hpp"
#include "support/random_tensor.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/backend.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {
namespace {

using RuntimePtr = std::shared_ptr<EagerRuntime>;
using testing::compare_with_reference;
using testing::random_tensor;
using testing::reference_einsum;

// ---------------------------------------------------------------------------------------------
// Operands as views into larger buffers.

// How an operand is laid out. Every kind gives the same strides for shifts 0, 1 and 2 and a
// different offset for each (for a non-empty operand), so calls at other shifts are warm calls
// of the first one's recording (or DirectGemm).
enum class Kind {
  ColCompact,  // column-major compact: block `shift` of three stacked along a trailing axis
  RowCompact,  // C-ordered compact: block `shift` of three stacked along a leading axis
  Strided,     // every other element along one axis, a margin on the others; axes rotated
  StridedC,    // the same on a C-ordered buffer
  Padded,      // a margin on every axis (step 1), axes reversed: permuted and not compact
};

constexpr Kind kAllKinds[] = {Kind::ColCompact, Kind::RowCompact, Kind::Strided, Kind::StridedC,
                              Kind::Padded};

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::ColCompact:
      return "col-compact";
    case Kind::RowCompact:
      return "row-compact";
    case Kind::Strided:
      return "strided";
    case Kind::StridedC:
      return "strided-C";
    case Kind::Padded:
      return "padded";
  }
  return "?";
}

std::vector<std::int64_t> reversed_axes(std::size_t rank) {
  std::vector<std::int64_t> r(rank);
  for (std::size_t i = 0; i < rank; ++i) r[i] = static_cast<std::int64_t>(rank - 1 - i);
  return r;
}

// `host` uploaded as NumPy's C-ordered array of its shape (row-major compact).
EagerTensor upload_c_ordered(const RuntimePtr& rt, const Tensor& host) {
  const auto rev = reversed_axes(static_cast<std::size_t>(host.rank()));
  return rt->upload(host.permute(rev).clone()).permute(rev);
}

EagerTensor upload_in(const RuntimePtr& rt, const Tensor& host, bool c_order) {
  return c_order ? upload_c_ordered(rt, host) : rt->upload(host);
}

// Views of kind `kind` and shape `shape`, one per entry of `shifts`, all into ONE fresh buffer
// of random values (so two entries share a buffer; equal shifts give the same view).
std::vector<EagerTensor> views_of_one_buffer(const RuntimePtr& rt, std::mt19937_64& rng,
                                             DType dtype, const Shape& shape, Kind kind,
                                             const std::vector<int>& shifts) {
  const std::size_t rank = shape.size();
  if (rank == 0 || kind == Kind::ColCompact || kind == Kind::RowCompact) {
    const bool c_order = kind == Kind::RowCompact;
    Shape big = shape;
    if (c_order) {
      big.insert(big.begin(), 3);
    } else {
      big.push_back(3);
    }
    const EagerTensor base = upload_in(rt, random_tensor(rng, dtype, big), c_order);
    std::vector<EagerTensor> out;
    for (int s : shifts) {
      std::vector<prims::Slice> sl;
      for (std::int64_t e : big) sl.push_back({0, e, 1});
      sl[c_order ? 0 : sl.size() - 1] = {s, s + 1, 1};
      out.push_back(prims::reshape(prims::slice(base, sl), shape));
    }
    return out;
  }
  // Base axis k holds logical axis perm[k].
  std::vector<std::int64_t> perm(rank);
  if (kind == Kind::Padded) {
    perm = reversed_axes(rank);
  } else {
    for (std::size_t k = 0; k < rank; ++k) perm[k] = static_cast<std::int64_t>((k + 1) % rank);
  }
  const bool strided = kind == Kind::Strided || kind == Kind::StridedC;
  Shape big(rank);
  for (std::size_t k = 0; k < rank; ++k) {
    const std::int64_t e = shape[static_cast<std::size_t>(perm[k])];
    big[k] = k == 0 ? (strided ? 2 * e + 2 : e + 2) : e + 1;
  }
  const EagerTensor base = upload_in(rt, random_tensor(rng, dtype, big), kind == Kind::StridedC);
  std::vector<std::int64_t> inverse(rank);
  for (std::size_t k = 0; k < rank; ++k)
    inverse[static_cast<std::size_t>(perm[k])] = static_cast<std::int64_t>(k);
  std::vector<EagerTensor> out;
  for (int s : shifts) {
    std::vector<prims::Slice> sl;
    for (std::size_t k = 0; k < rank; ++k) {
      const std::int64_t e = shape[static_cast<std::size_t>(perm[k])];
      if (k == 0) {
        const std::int64_t step = strided ? 2 : 1;
        sl.push_back({s, s + e * step, step});
      } else {
        sl.push_back({s % 2, s % 2 + e, 1});
      }
    }
    out.push_back(prims::permute(prims::slice(base, sl), inverse));
  }
  return out;
}

EagerTensor make_view(const RuntimePtr& rt, std::mt19937_64& rng, DType dtype, const Shape& shape,
                      Kind kind, int shift) {
  return views_of_one_buffer(rt, rng, dtype, shape, kind, {shift}).front();
}

struct Operands {
  std::vector<EagerTensor> eager;
  std::vector<Tensor> hosts;  // downloaded copies: the reference's operands
};

Operands make_operands(const RuntimePtr& rt, std::mt19937_64& rng, DType dtype,
                       const std::vector<Shape>& shapes, const std::vector<Kind>& kinds,
                       int shift) {
  Operands ops;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    ops.eager.push_back(make_view(rt, rng, dtype, shapes[i], kinds[i % kinds.size()], shift));
    ops.hosts.push_back(ops.eager.back().download());
  }
  return ops;
}

std::vector<Tensor> download_all(const std::vector<EagerTensor>& eager) {
  std::vector<Tensor> out;
  for (const auto& t : eager) out.push_back(t.download());
  return out;
}

// One einsum call against the reference of its own operands.
void expect_call(const std::string& what, std::string_view subscripts,
                 const std::vector<EagerTensor>& eager, const std::vector<Tensor>& hosts,
                 const EinsumOptions& options = {}) {
  try {
    const auto want = reference_einsum(subscripts, hosts);
    const EagerTensor got = einsum(subscripts, eager, options);
    const auto agreement = compare_with_reference(got.download(), want);
    EXPECT_TRUE(agreement.ok) << what << ": worst " << agreement.worst << " " << agreement.detail;
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << " threw: " << e.what();
  }
}

std::string describe(std::string_view subscripts, DType dtype, const std::string& layout,
                     int call) {
  return std::string(subscripts) + " " + std::string(dtype_name(dtype)) + " " + layout + " call " +
         std::to_string(call);
}

struct Case {
  const char* subscripts;
  std::vector<Shape> shapes;
  std::vector<std::pair<int, int>> path = {};  // an explicit path, or the planner's
  bool heavy = false;  // a reference loop of 2^18: one dtype only, to keep the suite fast
};

EinsumOptions options_of(const Case& c) {
  EinsumOptions o;
  if (!c.path.empty()) {
    o.strategy = PathStrategy::Explicit;
    o.path = c.path;
  }
  return o;
}

const std::vector<Case>& adversarial_cases() {
  static const std::vector<Case> cases = {
      // one GEMM (DirectGemm on compact operands), in the layouts a GEMM takes
      {"ij,jk->ik", {{3, 4}, {4, 5}}},
      {"ij,kj->ik", {{3, 4}, {5, 4}}},
      {"ji,jk->ki", {{4, 3}, {4, 5}}},
      {"ijb,jkb->ikb", {{3, 4, 2}, {4, 5, 2}}},
      {"bij,bjk->bik", {{2, 3, 4}, {2, 4, 5}}},
      {"ij,j->i", {{3, 4}, {4}}},
      {"i,ij->j", {{3}, {3, 4}}},
      {"ij,jk->ik", {{3, 4}, {4, 5}}, {{1, 0}}},  // the step's lhs is input 1
      // extent-1 axes (both memory orders' strides differ only there)
      {"ij,jk->ik", {{1, 4}, {4, 1}}},
      {"ij,jk->ik", {{3, 1}, {1, 5}}},
      {"ijk,kl->ijl", {{3, 1, 4}, {4, 2}}},
      {"abc,cd->abd", {{2, 3, 4}, {4, 1}}},
      // Hadamard and outer products
      {"ij,ij->ij", {{3, 4}, {3, 4}}},
      {"ij,ji->ij", {{3, 4}, {4, 3}}},
      {"i,j->ij", {{3}, {4}}},
      {"ij,kl->likj", {{2, 3}, {4, 2}}},
      {"ij,jk->ijk", {{2, 3}, {3, 4}}},
      // traces, diagonals, embeddings
      {"ii->", {{4, 4}}},
      {"ii->i", {{4, 4}}},
      {"iij->ji", {{3, 3, 2}}},
      {"iii->i", {{3, 3, 3}}},
      {"i->ii", {{3}}},
      {"ij->iji", {{3, 2}}},
      {"ii,ij->j", {{3, 3}, {3, 4}}},
      {"ij,jj->ij", {{3, 4}, {4, 4}}},
      {"ijji,j->i", {{2, 3, 3, 2}, {3}}},
      {"ij,jk->iik", {{3, 4}, {4, 2}}},  // a contraction into a repeated output
      // sums and permutations
      {"ijk->ki", {{2, 3, 4}}},
      {"ijk->kij", {{2, 3, 4}}},
      {"ij,jk->k", {{3, 4}, {4, 5}}},
      // rank 0
      {",ij->ji", {{}, {2, 3}}},
      {"i,->i", {{3}, {}}},
      // ellipsis and broadcast extents of 1
      {"...ij,...jk->...ik", {{2, 3, 4}, {2, 4, 5}}},
      {"...ij,...jk", {{2, 1, 3, 4}, {5, 4, 2}}},
      {"i...,i...->...", {{3, 2, 2}, {3, 1, 2}}},
      {"...,...->...", {{2, 3}, {3}}},
      // several operands
      {"ij,jk,kl->il", {{2, 3}, {3, 4}, {4, 5}}},
      {"ab,bc,cd,da->", {{2, 3}, {3, 4}, {4, 5}, {5, 2}}},
      {"iij,jk,kll->ik", {{3, 3, 2}, {2, 4}, {4, 2, 2}}},
      {"ab,bcc,cd,aa->ad", {{3, 2}, {2, 4, 4}, {4, 3}, {3, 3}}},
      {"ai,bi,ci->abc", {{2, 4}, {3, 4}, {2, 4}}},
      {"xab,xbc,xcd,xda->x", {{3, 2, 3}, {3, 3, 2}, {3, 2, 4}, {3, 4, 2}}},
      // the multiply-sum pass, the batch split over outer free labels, the look-ahead layout
      {"kpryzWq,przW->kyq", {{4, 3, 2, 5, 2, 3, 3}, {3, 2, 2, 3}}},
      {"kpbz,pzb->kb", {{5, 3, 4, 6}, {3, 6, 4}}},
      {"abcdx,cx->abdx", {{8, 8, 3, 2, 5}, {3, 5}}},
      {"bac,cde,bd->ae", {{8, 32, 4}, {4, 8, 32}, {8, 8}}, {{0, 1}, {0, 1}}, true},
      {"cba,ced,bd->ae", {{4, 8, 32}, {4, 32, 8}, {8, 8}}, {{0, 1}, {0, 1}}, true},
      // zero-size extents
      {"ij,jk->ik", {{2, 0}, {0, 3}}},
      {"ij,jk->ik", {{0, 4}, {4, 3}}},
      {"ij,jk,kl->il", {{2, 3}, {3, 0}, {0, 2}}},
      {"ii->i", {{0, 0}}},
      {"i->ii", {{0}}},
      {"ij,ij->i", {{0, 3}, {0, 3}}},
  };
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Public einsum, warm calls.

// Every case, every layout kind (and a mix of kinds per operand), at shifts 0, 1, 2 and 1 again
// on one runtime: the later calls play back (or take the DirectGemm) with other offsets and
// fresh values. The test's own precondition (equal strides, other offsets) is checked too.
TEST(EinsumReplay, WarmCallsOnViewsAtOtherOffsets) {
  for (DType dtype : {DType::F64, DType::C64, DType::C32}) {
    auto rt = EagerRuntime::cpu();
    std::mt19937_64 rng(1000 + static_cast<unsigned>(dtype));
    for (const Case& c : adversarial_cases()) {
      if (c.heavy && dtype != DType::F64) continue;
      std::vector<std::vector<Kind>> layouts;
      for (Kind k : kAllKinds) layouts.push_back({k});
      layouts.push_back({Kind::Strided, Kind::RowCompact, Kind::Padded, Kind::ColCompact});
      for (const auto& kinds : layouts) {
        std::string layout;
        for (Kind k : kinds) layout += std::string(kind_name(k)) + "/";
        std::vector<Strides> first_strides;
        std::vector<std::int64_t> first_offsets;
        int call = 0;
        for (int shift : {0, 1, 2, 1}) {
          const Operands ops = make_operands(rt, rng, dtype, c.shapes, kinds, shift);
          for (std::size_t i = 0; i < ops.eager.size(); ++i) {
            if (call == 0) {
              first_strides.push_back(ops.eager[i].strides());
              first_offsets.push_back(ops.eager[i].layout().offset);
            } else {
              ASSERT_EQ(ops.eager[i].strides(), first_strides[i])
                  << c.subscripts << " " << layout << ": the test's views changed strides";
              if (shift != 0 && ops.eager[i].numel() > 0 && !c.shapes[i].empty()) {
                ASSERT_NE(ops.eager[i].layout().offset, first_offsets[i])
                    << c.subscripts << " " << layout << ": the test's views kept their offset";
              }
            }
          }
          expect_call(describe(c.subscripts, dtype, layout, call), c.subscripts, ops.eager,
                      ops.hosts, options_of(c));
          ++call;
        }
      }
    }
  }
}

// The same plan called with layouts that alternate: each change of strides must be recorded
// again, never played back from the other layout's recording; with and without the direct
// binary path.
// Views of more axes than a recorded view's rank field held once (255): an elementwise product
// of two rank-300 operands (extent 2 on three axes, 1 on the rest), called three times with
// fresh values, each against the product computed here.
TEST(EinsumReplay, OperandsOfHundredsOfAxes) {
  auto rt = EagerRuntime::cpu();
  constexpr int kRank = 300;
  Shape shape(kRank, 1);
  shape[0] = shape[150] = shape[299] = 2;
  EinsumLabels labels;
  std::vector<int> all(kRank);
  std::iota(all.begin(), all.end(), 0);
  labels.inputs = {all, all};
  labels.output = all;
  for (int call = 0; call < 3; ++call) {
    std::vector<double> a(8), b(8);
    for (int i = 0; i < 8; ++i) {
      a[static_cast<std::size_t>(i)] = 1.0 + i + 10.0 * call;
      b[static_cast<std::size_t>(i)] = 0.5 - i;
    }
    const EagerTensor ta =
        rt->upload(Tensor::from_col_major<double>(shape, std::span<const double>(a)));
    const EagerTensor tb =
        rt->upload(Tensor::from_col_major<double>(shape, std::span<const double>(b)));
    const Tensor got = einsum(labels, std::vector<EagerTensor>{ta, tb}).download().contiguous();
    ASSERT_EQ(got.numel(), 8);
    for (int i = 0; i < 8; ++i)
      EXPECT_EQ(got.data<double>()[i],
                a[static_cast<std::size_t>(i)] * b[static_cast<std::size_t>(i)])
          << "call " << call << ", element " << i;
  }
}

TEST(EinsumReplay, AlternatingLayoutsAreRecordedAgain) {
  const Kind sequence[] = {Kind::ColCompact, Kind::RowCompact, Kind::ColCompact, Kind::Strided,
                           Kind::ColCompact, Kind::Padded,     Kind::StridedC,   Kind::Strided,
                           Kind::RowCompact, Kind::RowCompact, Kind::Padded,     Kind::ColCompact};
  const std::vector<Case> cases = {
      {"ij,jk->ik", {{3, 4}, {4, 5}}},
      {"ij,jk->ki", {{3, 4}, {4, 5}}},
      {"ijb,jkb->ikb", {{3, 4, 2}, {4, 5, 2}}},
      {"ij,jk,kl->il", {{2, 3}, {3, 4}, {4, 5}}},
      {"ii,ij->j", {{3, 3}, {3, 4}}},
      {"i->ii", {{3}}},
      {"ijk->kji", {{2, 3, 4}}},
      {"ab,bc,cd,da->", {{2, 3}, {3, 4}, {4, 5}, {5, 2}}},
      {"kpbz,pzb->kb", {{5, 3, 4, 6}, {3, 6, 4}}},
  };
  for (const bool direct : {true, false}) {
    for (DType dtype : {DType::F64, DType::C32}) {
      auto rt = EagerRuntime::cpu();
      std::mt19937_64 rng(77 + static_cast<unsigned>(dtype));
      EinsumOptions options;
      options.allow_direct_binary = direct;
      for (const Case& c : cases) {
        int call = 0;
        for (Kind k : sequence) {
          const Operands ops = make_operands(rt, rng, dtype, c.shapes, {k}, call % 3);
          expect_call(describe(c.subscripts, dtype, kind_name(k), call) +
                          (direct ? "" : " (no direct binary)"),
                      c.subscripts, ops.eager, ops.hosts, options);
          ++call;
        }
      }
    }
  }
}

// Inputs that share a buffer are not recorded; a recording made with distinct buffers is played
// back on inputs that share one (the same tensor twice, a tensor and its transpose, overlapping
// and interleaved views of one buffer), and the other way round.
TEST(EinsumReplay, InputsSharingABufferBeforeAndAfterARecording) {
  struct Shared {
    const char* subscripts;
    std::vector<Shape> shapes;  // all equal, so one tensor can be every operand
  };
  const std::vector<Shared> cases = {
      {"ij,jk->ik", {{4, 4}, {4, 4}}},
      {"ij,ij->ij", {{3, 4}, {3, 4}}},
      {"ij,ij->", {{3, 4}, {3, 4}}},
      {"ij,kj->ik", {{3, 4}, {3, 4}}},
      {"ij,jk,ki->", {{3, 3}, {3, 3}, {3, 3}}},
      {"ij,jk,kl->il", {{3, 3}, {3, 3}, {3, 3}}},
      {"ii,ij->j", {{3, 3}, {3, 3}}},
      {"i,i->i", {{5}, {5}}},
      {"ijk,kjl->il", {{2, 3, 2}, {2, 3, 2}}},
  };
  enum class Source { Distinct, SameTensor, OneBuffer };
  const std::vector<std::vector<Source>> sequences = {
      {Source::Distinct, Source::SameTensor, Source::Distinct, Source::OneBuffer,
       Source::SameTensor},
      {Source::SameTensor, Source::Distinct, Source::SameTensor, Source::OneBuffer},
      {Source::OneBuffer, Source::OneBuffer, Source::Distinct, Source::OneBuffer},
  };
  for (DType dtype : {DType::F64, DType::C64}) {
    std::mt19937_64 rng(31 + static_cast<unsigned>(dtype));
    for (const Shared& c : cases) {
      for (Kind kind : {Kind::Strided, Kind::ColCompact, Kind::Padded, Kind::RowCompact}) {
        for (std::size_t q = 0; q < sequences.size(); ++q) {
          auto rt = EagerRuntime::cpu();  // a fresh plan: the sequence's first call records
          int call = 0;
          for (Source source : sequences[q]) {
            std::vector<EagerTensor> eager;
            const std::size_t n = c.shapes.size();
            if (source == Source::Distinct) {
              for (std::size_t i = 0; i < n; ++i)
                eager.push_back(make_view(rt, rng, dtype, c.shapes[i], kind, call % 3));
            } else if (source == Source::SameTensor) {
              const EagerTensor t = make_view(rt, rng, dtype, c.shapes[0], kind, (call + 1) % 3);
              eager.assign(n, t);
            } else {  // views at shifts 2, 0, 1, ...: same strides, other offsets, one buffer
              std::vector<int> shifts;
              for (std::size_t i = 0; i < n; ++i) shifts.push_back(static_cast<int>((i + 2) % 3));
              eager = views_of_one_buffer(rt, rng, dtype, c.shapes[0], kind, shifts);
              for (std::size_t i = 1; i < n; ++i) ASSERT_EQ(eager[i].buffer(), eager[0].buffer());
            }
            const char* names[] = {"distinct", "same tensor", "one buffer"};
            expect_call(describe(c.subscripts, dtype, kind_name(kind), call) + " sequence " +
                            std::to_string(q) + " " + names[static_cast<int>(source)],
                        c.subscripts, eager, download_all(eager));
            ++call;
          }
        }
      }
    }
  }
  // A tensor and its own transpose (one buffer, other strides), after distinct operands with
  // those strides were recorded.
  for (DType dtype : {DType::F64, DType::C64}) {
    auto rt = EagerRuntime::cpu();
    std::mt19937_64 rng(5);
    const std::vector<std::int64_t> swap{1, 0};
    for (int call = 0; call < 4; ++call) {
      const EagerTensor a = make_view(rt, rng, dtype, {4, 4}, Kind::Padded, call % 3);
      const EagerTensor b = call % 2 == 0
                                ? make_view(rt, rng, dtype, {4, 4}, Kind::Padded, 2).permute(swap)
                                : a.permute(swap);
      for (const char* subscripts : {"ij,jk->ik", "ij,ji->", "ij,ij->ij", "ij,jk->ki"}) {
        const std::vector<EagerTensor> eager{a, b};
        expect_call(describe(subscripts, dtype, "a and its transpose", call), subscripts, eager,
                    download_all(eager));
      }
    }
  }
}

// Stride-0 operands (prims::broadcast_to) and extent-1 broadcasts, called again with other
// bases, then with the values materialised (other strides: recorded again), then broadcast
// again.
TEST(EinsumReplay, BroadcastOperandsAcrossCalls) {
  for (DType dtype : {DType::F64, DType::C64}) {
    auto rt = EagerRuntime::cpu();
    std::mt19937_64 rng(8);
    for (int call = 0; call < 5; ++call) {
      const bool materialise = call == 3;
      // a: (3, 4) from a column (3, 1) at an offset; b: (4, 5) from a row (1, 5).
      const EagerTensor col = make_view(rt, rng, dtype, {3, 1}, Kind::ColCompact, call % 3);
      const EagerTensor row = make_view(rt, rng, dtype, {1, 5}, Kind::Padded, call % 3);
      EagerTensor a = prims::broadcast_to(col, {3, 4});
      EagerTensor b = prims::broadcast_to(row, {4, 5});
      if (materialise) {
        a = prims::contiguous(prims::add(a, prims::zeros(rt, dtype, {3, 4})));
        b = prims::contiguous(prims::add(b, prims::zeros(rt, dtype, {4, 5})));
      }
      for (const char* subscripts :
           {"ij,jk->ik", "ij,jk->ki", "ij,jk->ijk", "ij,jk->", "ii,ij->j"}) {
        const std::vector<EagerTensor> eager =
            std::string_view(subscripts) == "ii,ij->j"
                ? std::vector<EagerTensor>{prims::broadcast_to(col, {3, 3}), a}
                : std::vector<EagerTensor>{a, b};
        expect_call(describe(subscripts, dtype, materialise ? "materialised" : "broadcast", call),
                    subscripts, eager, download_all(eager));
      }
    }
  }
}

// Random generated expressions (repeated labels, ellipses, implicit outputs, embeddings,
// zero-size extents, up to 6 operands) and random regular networks: each called four times on
// one runtime with fresh values (shifts 0, 1, then another layout, then shift 2 of the first).
TEST(EinsumReplay, RandomExpressionsAndNetworksWithFreshValues) {
  auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(20260611);
  testing::RandomEinsumLimits limits;
  limits.max_operands = 6;
  limits.max_rank = 4;
  limits.max_loop = 2048;
  for (int i = 0; i < 80; ++i) {
    const testing::RandomEinsumCase c = testing::random_einsum_case(rng, limits);
    const DType dtype = i % 2 ? DType::C64 : DType::F64;
    const Kind first = kAllKinds[static_cast<std::size_t>(i) % 5];
    const Kind other = kAllKinds[static_cast<std::size_t>(i + 2) % 5];
    const std::pair<Kind, int> calls[] = {{first, 0}, {first, 1}, {other, 0}, {first, 2}};
    int call = 0;
    for (const auto& [kind, shift] : calls) {
      const Operands ops = make_operands(rt, rng, dtype, c.shapes, {kind}, shift);
      expect_call(c.describe() + " " + std::string(dtype_name(dtype)) + " " + kind_name(kind) +
                      " call " + std::to_string(call++),
                  c.subscripts, ops.eager, ops.hosts);
    }
  }
  for (int trial = 0; trial < 6; ++trial) {
    const auto net = testing::random_regular_network(rng, 6 + 2 * (trial % 2), 3, 2, trial % 3, 2);
    const std::string subscripts = net.subscripts();
    const DType dtype = trial % 2 ? DType::C64 : DType::F64;
    int call = 0;
    for (const auto& [kind, shift] :
         {std::pair{Kind::ColCompact, 0}, std::pair{Kind::ColCompact, 1},
          std::pair{Kind::Strided, 0}, std::pair{Kind::Strided, 2}, std::pair{Kind::ColCompact, 2},
          std::pair{Kind::RowCompact, 1}, std::pair{Kind::RowCompact, 0}}) {
      const Operands ops = make_operands(rt, rng, dtype, net.shapes(), {kind}, shift);
      expect_call(subscripts + " " + std::string(dtype_name(dtype)) + " " + kind_name(kind) +
                      " call " + std::to_string(call++),
                  subscripts, ops.eager, ops.hosts);
    }
  }
}

// Layouts no prims view makes but EagerTensor's constructor accepts: negative strides (a
// flipped axis, as NumPy's a[::-1]) and self-overlapping strides (a Hankel view, strides (1, 1)),
// each at two offsets, with distinct buffers and with every operand in one buffer, in turn.
TEST(EinsumReplay, NegativeAndOverlappingStridesAtOtherOffsets) {
  auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(1);
  // Operand `i` of shape `s`: a view of `base` (axes flipped where `flip` has their bit; strides
  // (1, 1, ...) when `hankel`), starting `shift` elements further in.
  const auto view = [&](const EagerTensor& base, const Shape& s, int flip, bool hankel,
                        std::int64_t shift) {
    TensorLayout l = base.layout();
    l.shape = s;
    l.strides = col_major_strides(s);
    l.offset = shift;
    for (std::size_t a = 0; a < s.size(); ++a) {
      if (hankel) l.strides[a] = 1;
      if ((flip >> a) & 1) {
        l.offset += (s[a] - 1) * l.strides[a];
        l.strides[a] = -l.strides[a];
      }
    }
    return EagerTensor(rt, base.buffer(), l);
  };
  const std::vector<Case> cases = {
      {"ij,jk->ik", {{3, 4}, {4, 5}}},
      {"ij,jk->ki", {{3, 4}, {4, 5}}},
      {"ij,jk,kl->il", {{3, 4}, {4, 5}, {5, 2}}},
      {"ii->i", {{4, 4}}},
      {"ij->ji", {{3, 4}}},
      {"ijk,kj->i", {{3, 4, 5}, {5, 4}}},
      {"ij,ij->ij", {{3, 4}, {3, 4}}},
      {"i->ii", {{4}}},
  };
  for (DType dtype : {DType::F64, DType::C64}) {
    for (const Case& c : cases) {
      for (const int flip : {1, 2, 3, 0}) {
        for (const bool hankel : {false, true}) {
          for (int call = 0; call < 4; ++call) {
            const bool one_buffer = call == 2;
            std::vector<EagerTensor> eager;
            std::int64_t room = 4;  // elements past the largest view
            for (const Shape& s : c.shapes)
              room += std::accumulate(s.begin(), s.end(), std::int64_t{1}, std::multiplies<>());
            const EagerTensor shared = rt->upload(random_tensor(rng, dtype, {room}));
            for (std::size_t i = 0; i < c.shapes.size(); ++i) {
              const EagerTensor base =
                  one_buffer ? shared : rt->upload(random_tensor(rng, dtype, {room}));
              eager.push_back(view(base, c.shapes[i], flip, hankel,
                                   static_cast<std::int64_t>(call % 2 + (one_buffer ? i : 0))));
            }
            expect_call(describe(c.subscripts, dtype,
                                 "flip " + std::to_string(flip) + (hankel ? " hankel" : "") +
                                     (one_buffer ? " one buffer" : ""),
                                 call),
                        c.subscripts, eager, download_all(eager));
          }
        }
      }
    }
  }
}

// One equation whose shapes alternate (as a DMRG sweep's bond dimensions do): each shape has its
// own plan and recording; calls of one shape must never play back the other's.
TEST(EinsumReplay, AlternatingShapesOfOneEquation) {
  auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(606);
  const char* subscripts = "ab,bcd,de->ace";
  const std::vector<std::vector<Shape>> shapes = {
      {{3, 4}, {4, 2, 5}, {5, 3}}, {{3, 5}, {5, 2, 4}, {4, 3}}, {{4, 4}, {4, 2, 4}, {4, 4}}};
  for (const bool reuse : {true, false}) {
    EinsumOptions options;
    options.reuse_path_across_shapes = reuse;
    for (int call = 0; call < 12; ++call) {
      const auto& s = shapes[static_cast<std::size_t>(call % 3)];
      const Kind kind = call % 2 ? Kind::Strided : Kind::Padded;
      const Operands ops = make_operands(rt, rng, DType::C64, s, {kind}, call % 3);
      expect_call(
          describe(subscripts, DType::C64, kind_name(kind), call) + (reuse ? " reusing paths" : ""),
          subscripts, ops.eager, ops.hosts, options);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The executor directly: which path a call took, and outputs written into views.

einsum_internal::EinsumPlan internal_plan(std::string_view subscripts,
                                          const std::vector<Shape>& shapes, DType dtype,
                                          const EinsumOptions& options = {}) {
  auto expr = einsum_internal::parse_subscripts(subscripts, testing::ranks_of(shapes));
  auto sizes = einsum_internal::label_sizes(expr, shapes);
  EinsumPath path = einsum_internal::plan_path(expr, sizes, options);
  return einsum_internal::build_plan(std::move(expr), std::move(sizes), std::move(path), dtype,
                                     shapes);
}

void expect_tensor(const std::string& what, const Tensor& got, std::string_view subscripts,
                   const std::vector<Tensor>& hosts) {
  const auto agreement = compare_with_reference(got, reference_einsum(subscripts, hosts));
  EXPECT_TRUE(agreement.ok) << what << ": worst " << agreement.worst << " " << agreement.detail;
}

// The replay slot through a call sequence: a first call on shared inputs records nothing; a call
// on distinct ones records; a warm call (other offsets, and then inputs sharing one buffer) plays
// it back (the slot keeps the same recording); another layout records anew; a zero-size
// intermediate records nothing. Every result against the reference.
TEST(EinsumReplay, SlotRecordsOncePlaysBackAndRecordsAgainOnNewStrides) {
  auto rt = EagerRuntime::cpu();
  auto& kernels = einsum_internal::cpu_contraction_kernels();
  std::mt19937_64 rng(99);
  for (DType dtype : {DType::F64, DType::C64, DType::F32}) {
    const char* subscripts = "ij,jk,kl->il";
    const std::vector<Shape> shapes{{3, 3}, {3, 3}, {3, 3}};
    const auto plan = internal_plan(subscripts, shapes, dtype);
    ASSERT_NE(plan.replay, nullptr);
    const auto run = [&](const std::vector<EagerTensor>& in, const std::string& what) {
      const EagerTensor got = einsum_internal::run_program(*rt, kernels, plan, in);
      expect_tensor(what + " " + std::string(dtype_name(dtype)), got.download(), subscripts,
                    download_all(in));
    };
    // Shared first: nothing recorded.
    const auto shared = views_of_one_buffer(rt, rng, dtype, {3, 3}, Kind::Strided, {0, 1, 2});
    run(shared, "first call on one buffer");
    EXPECT_EQ(plan.replay->get(), nullptr) << "inputs sharing a buffer were recorded";
    // Distinct: recorded.
    std::vector<EagerTensor> distinct;
    for (int i = 0; i < 3; ++i)
      distinct.push_back(make_view(rt, rng, dtype, {3, 3}, Kind::Strided, 0));
    run(distinct, "distinct");
    const auto recorded = plan.replay->get();
    ASSERT_NE(recorded, nullptr) << "distinct inputs were not recorded";
    // Warm at other offsets: played back.
    for (int shift : {1, 2}) {
      std::vector<EagerTensor> warm;
      for (int i = 0; i < 3; ++i)
        warm.push_back(make_view(rt, rng, dtype, {3, 3}, Kind::Strided, shift));
      run(warm, "warm shift " + std::to_string(shift));
      EXPECT_EQ(plan.replay->get(), recorded) << "a warm call of the same strides re-recorded";
    }
    // Shared again, same strides: played back (not re-recorded, not dropped).
    run(views_of_one_buffer(rt, rng, dtype, {3, 3}, Kind::Strided, {2, 2, 0}), "one buffer, warm");
    run({distinct[1], distinct[1], distinct[1]}, "same tensor thrice, warm");
    EXPECT_EQ(plan.replay->get(), recorded);
    // Another layout: recorded anew; and back.
    std::vector<EagerTensor> padded;
    for (int i = 0; i < 3; ++i)
      padded.push_back(make_view(rt, rng, dtype, {3, 3}, Kind::Padded, i));
    run(padded, "padded");
    const auto recorded_padded = plan.replay->get();
    EXPECT_NE(recorded_padded, nullptr);
    EXPECT_NE(recorded_padded, recorded);
    run(distinct, "strided again");
    EXPECT_NE(plan.replay->get(), recorded_padded);
  }
  // A zero-size intermediate: nothing recorded, every call still right.
  {
    const char* subscripts = "ij,jk,kl->il";
    const std::vector<Shape> shapes{{2, 3}, {3, 0}, {0, 2}};
    const auto plan = internal_plan(subscripts, shapes, DType::F64);
    for (int shift = 0; shift < 3; ++shift) {
      const Operands ops = make_operands(rt, rng, DType::F64, shapes, {Kind::Strided}, shift);
      const EagerTensor got = einsum_internal::run_program(*rt, kernels, plan, ops.eager);
      expect_tensor("zero-size intermediate, shift " + std::to_string(shift), got.download(),
                    subscripts, ops.hosts);
    }
  }
}

// Empty scratch (a zero-extent intermediate) is not kept for reuse: the workspace never takes a
// buffer of zero bytes back, and the pool's byte bound would never stop them piling up (one per
// call, 320 bytes each, before).
TEST(EinsumWorkspace, EmptyScratchIsNotKeptCallAfterCall) {
  const auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(23);
  const std::vector<Shape> shapes{{3, 0}, {0, 4}, {4, 5}, {5, 2}};
  const Operands ops = make_operands(rt, rng, DType::F64, shapes, {Kind::ColCompact}, 0);
  const auto calls = [&](int n) {
    for (int i = 0; i < n; ++i) {
      const EagerTensor got = einsum("ij,jk,kl,lm->im", ops.eager);
      ASSERT_EQ(got.shape(), (Shape{3, 2}));
    }
  };
  calls(5);
  const std::size_t kept = einsum_internal::workspace_retained_buffers(*rt);
  calls(200);
  EXPECT_EQ(einsum_internal::workspace_retained_buffers(*rt), kept);
  expect_tensor("zero-extent chain", einsum("ij,jk,kl,lm->im", ops.eager).download(),
                "ij,jk,kl,lm->im", ops.hosts);
}

// Two-operand plans: compact operands of either order at any offset take the DirectGemm
// (checked: matching_direct_gemm), mixed orders do not; every call's values against the
// reference, three offsets each, interleaved with calls of the other order.
TEST(EinsumReplay, DirectGemmAtOtherOffsetsAndMixedOrders) {
  auto rt = EagerRuntime::cpu();
  auto& kernels = einsum_internal::cpu_contraction_kernels();
  std::mt19937_64 rng(4242);
  const std::vector<Case> cases = {
      {"ij,jk->ik", {{3, 4}, {4, 5}}},
      {"ij,jk->ik", {{3, 4}, {4, 5}}, {{1, 0}}},
      {"ij,kj->ik", {{3, 4}, {5, 4}}},
      {"ji,jk->ik", {{4, 3}, {4, 5}}},
      {"ij,jk->ki", {{3, 4}, {4, 5}}},
      {"ijb,jkb->ikb", {{3, 4, 2}, {4, 5, 2}}},
      {"bij,bjk->bik", {{2, 3, 4}, {2, 4, 5}}},
      {"ij,j->i", {{3, 4}, {4}}},
      {"i,ij->j", {{3}, {3, 4}}},
      {"ij,jk->ik", {{1, 4}, {4, 1}}},
      {"ij,jk->ik", {{3, 1}, {1, 5}}},
      {"ij,jk->ik", {{1, 1}, {1, 1}}},
      {"abc,cd->abd", {{2, 3, 4}, {4, 1}}},
      {"ijk,kl->ijl", {{3, 1, 4}, {4, 2}}},
      {"ij,jk->ik", {{2, 0}, {0, 3}}},
      {"ij,jk->ik", {{0, 4}, {4, 3}}},
  };
  for (DType dtype : {DType::F64, DType::C64, DType::F32, DType::C32}) {
    for (const Case& c : cases) {
      const auto plan = internal_plan(c.subscripts, c.shapes, dtype, options_of(c));
      const std::vector<std::vector<Kind>> orders = {{Kind::ColCompact},
                                                     {Kind::RowCompact},
                                                     {Kind::ColCompact, Kind::RowCompact},
                                                     {Kind::RowCompact, Kind::ColCompact}};
      for (int round = 0; round < 3; ++round) {
        for (const auto& kinds : orders) {
          const Operands ops = make_operands(rt, rng, dtype, c.shapes, kinds, round);
          const bool same_order = kinds.size() == 1;
          const auto* direct = einsum_internal::matching_direct_gemm(plan, ops.eager);
          std::string what = describe(
              c.subscripts, dtype,
              std::string(kind_name(kinds[0])) + "/" + kind_name(kinds[kinds.size() - 1]), round);
          // The plain matrix product takes its DirectGemm in either memory order.
          if (same_order && std::string_view(c.subscripts) == "ij,jk->ik" &&
              c.shapes[0] == Shape{3, 4}) {
            EXPECT_NE(direct, nullptr) << what << ": a compact GEMM did not match its DirectGemm";
          }
          if (!same_order && c.shapes[0] == Shape{3, 4} && c.shapes[1] == Shape{4, 5}) {
            EXPECT_EQ(direct, nullptr) << what << ": mixed orders matched a DirectGemm";
          }
          what += direct ? " (direct)" : " (searched)";
          try {
            const EagerTensor got = einsum_internal::run_program(*rt, kernels, plan, ops.eager);
            if (direct) {
              EXPECT_EQ(got.strides(), direct->out_strides) << what;
            }
            EXPECT_EQ(got.strides(), einsum_internal::result_strides(plan, ops.eager)) << what;
            expect_tensor(what, got.download(), c.subscripts, ops.hosts);
          } catch (const std::exception& e) {
            ADD_FAILURE() << what << " threw: " << e.what();
          }
          // The same through the public API (plan cache, direct binary path).
          expect_call(what + " public", c.subscripts, ops.eager, ops.hosts, options_of(c));
        }
      }
    }
  }
}

// run_program_into writes into a view of a larger tensor (as the sliced executor does): calls
// at other output offsets and strides with warm recordings must write exactly the view's
// elements: the view holds the reference's values, every other element keeps its sentinel.
TEST(EinsumReplay, OutputViewsAtOtherOffsetsWriteOnlyTheirElements) {
  auto rt = EagerRuntime::cpu();
  auto& kernels = einsum_internal::cpu_contraction_kernels();
  std::mt19937_64 rng(12);
  constexpr double kSentinel = 7.25;
  for (const Case& c : adversarial_cases()) {
    for (DType dtype : {DType::F64, DType::C64}) {
      if (c.heavy && dtype != DType::F64) continue;
      einsum_internal::EinsumPlan plan;
      try {
        plan = internal_plan(c.subscripts, c.shapes, dtype, options_of(c));
      } catch (const std::exception& e) {
        ADD_FAILURE() << c.subscripts << ": " << e.what();
        continue;
      }
      const Shape& out_shape = plan.output_shape;
      for (Kind out_kind : {Kind::Padded, Kind::Strided, Kind::ColCompact, Kind::Padded}) {
        for (int shift = 0; shift < 3; ++shift) {
          const Operands ops = make_operands(rt, rng, dtype, c.shapes, {Kind::Strided}, shift);
          // A sentinel-filled buffer and a view of it of the output's shape (for Padded, a
          // permuted one: the buffer's axes reversed).
          const std::size_t rank = out_shape.size();
          const bool reverse = out_kind == Kind::Padded && rank > 1;
          const std::vector<std::int64_t> rev = reversed_axes(rank);
          Shape big(rank);
          for (std::size_t k = 0; k < rank; ++k)
            big[k] = 2 * out_shape[reverse ? static_cast<std::size_t>(rev[k]) : k] + 3;
          const std::int64_t big_numel =
              std::accumulate(big.begin(), big.end(), std::int64_t{1}, std::multiplies<>());
          Tensor host_big = Tensor::zeros(dtype, big);
          auto* raw = reinterpret_cast<double*>(host_big.raw_data());
          for (std::size_t k = 0; k < host_big.nbytes() / sizeof(double); ++k) raw[k] = kSentinel;
          const EagerTensor whole = rt->upload(host_big);
          std::vector<prims::Slice> sl;
          for (std::size_t k = 0; k < rank; ++k) {
            const std::int64_t e = out_shape[reverse ? static_cast<std::size_t>(rev[k]) : k];
            if (out_kind == Kind::Strided) {
              sl.push_back({shift, shift + 2 * e, 2});
            } else if (out_kind == Kind::Padded) {
              sl.push_back({shift, shift + e, 1});
            } else {  // a compact block of the buffer along its last axis
              sl.push_back({k + 1 == rank ? shift : 0, k + 1 == rank ? shift + e : e, 1});
            }
          }
          EagerTensor target = rank == 0 ? whole : prims::slice(whole, sl);
          if (reverse) target = target.permute(rev);
          ASSERT_EQ(target.shape(), out_shape);
          const std::string what =
              describe(c.subscripts, dtype, std::string("into ") + kind_name(out_kind), shift);
          try {
            einsum_internal::run_program_into(*rt, kernels, plan, ops.eager, target);
          } catch (const std::exception& e) {
            ADD_FAILURE() << what << " threw: " << e.what();
            continue;
          }
          expect_tensor(what, target.download(), c.subscripts, ops.hosts);
          const Tensor after = whole.download();
          const auto* got = reinterpret_cast<const double*>(after.raw_data());
          std::int64_t untouched = 0;
          for (std::size_t k = 0; k < after.nbytes() / sizeof(double); ++k)
            untouched += got[k] == kSentinel;
          const std::int64_t per = dtype == DType::C64 ? 2 : 1;
          EXPECT_GE(untouched, (big_numel - target.numel()) * per)
              << what << ": elements outside the output view were written";
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Sliced plans.

// Every slicing of the small cases (output labels, summed labels, both), run by the sliced
// executor with one and with three workers, three times at other operand offsets: the slices'
// program (its own replay slot) plays back within a call and across calls.
TEST(EinsumReplay, SlicedProgramsAtOtherOffsetsOneAndSeveralWorkers) {
  auto rt = EagerRuntime::cpu();
  auto& kernels = einsum_internal::cpu_contraction_kernels();
  std::mt19937_64 rng(555);
  for (const auto& cut : testing::every_small_slicing()) {
    for (DType dtype : {DType::F64, DType::C64}) {
      const auto plan =
          einsum_internal::build_plan(cut.expr, cut.sizes, cut.path, dtype, cut.shapes);
      for (int workers : {1, 3}) {
        for (int shift = 0; shift < 3; ++shift) {
          const Kind kind = shift == 1 ? Kind::Padded : Kind::Strided;
          const Operands ops = make_operands(rt, rng, dtype, cut.shapes, {kind}, shift);
          const std::string what = std::string(cut.subscripts) + " mask " +
                                   std::to_string(cut.mask) + " " + std::string(dtype_name(dtype)) +
                                   " " + std::to_string(workers) + " workers, call " +
                                   std::to_string(shift);
          try {
            const EagerTensor got = einsum_internal::run_sliced_program(
                *rt, kernels, plan, ops.eager, einsum_internal::SliceRange{}, workers);
            expect_tensor(what, got.download(), cut.subscripts, ops.hosts);
          } catch (const std::exception& e) {
            ADD_FAILURE() << what << " threw: " << e.what();
          }
        }
      }
    }
  }
}

// The public API under a memory limit that makes the plan slice: random networks called three
// times with operands at other offsets and layouts; and PreparedEinsum's slice ranges, twice,
// adding up to the reference.
TEST(EinsumReplay, SlicedEinsumCallsAndSliceRangesTwice) {
  auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(20261203);
  int sliced = 0;
  for (int trial = 0; trial < 10 && sliced < 4; ++trial) {
    const auto net = testing::random_regular_network(rng, 6, 4, 2, trial % 3, 2);
    const std::string subscripts = net.subscripts();
    const std::vector<Shape> shapes = net.shapes();
    double floor = 1;
    for (const Shape& s : shapes) floor = std::max(floor, static_cast<double>(checked_numel(s)));
    double out = 1;
    for (int l : net.labels.output)
      out *= static_cast<double>(net.extents[static_cast<std::size_t>(l)]);
    EinsumOptions options;
    options.memory_limit = std::max(floor, out);
    const EinsumPath path = einsum_path(subscripts, shapes, options);
    if (path.sliced_labels.empty()) continue;
    ++sliced;
    const DType dtype = trial % 2 ? DType::C64 : DType::F64;
    int call = 0;
    for (const auto& [kind, shift] :
         {std::pair{Kind::ColCompact, 0}, std::pair{Kind::ColCompact, 2},
          std::pair{Kind::Strided, 1}, std::pair{Kind::ColCompact, 1}}) {
      const Operands ops = make_operands(rt, rng, dtype, shapes, {kind}, shift);
      expect_call(subscripts + " sliced " + std::string(dtype_name(dtype)) + " " + kind_name(kind) +
                      " call " + std::to_string(call++),
                  subscripts, ops.eager, ops.hosts, options);
    }
    // Slice ranges of a PreparedEinsum: two rounds, each range twice, on other offsets.
    std::vector<TensorMeta> metas;
    for (const Shape& s : shapes) metas.push_back({dtype, s});
    const PreparedEinsum prepared(subscripts, metas, options);
    const std::int64_t total = prepared.num_slices();
    ASSERT_GE(total, 2) << subscripts;
    for (int round = 0; round < 2; ++round) {
      const Operands ops = make_operands(rt, rng, dtype, shapes, {Kind::Strided}, round + 1);
      const auto want = reference_einsum(subscripts, ops.hosts);
      const std::int64_t half = total / 2;
      for (int repeat = 0; repeat < 2; ++repeat) {
        const EagerTensor first = prepared.run_slices(ops.eager, 0, half);
        const EagerTensor second = prepared.run_slices(ops.eager, half, total - half);
        const auto sum = compare_with_reference(prims::add(first, second).download(), want);
        EXPECT_TRUE(sum.ok) << subscripts << " ranges, round " << round << " repeat " << repeat
                            << ": " << sum.detail;
        const auto whole = compare_with_reference(prepared(ops.eager).download(), want);
        EXPECT_TRUE(whole.ok) << subscripts << " prepared, round " << round << ": " << whole.detail;
      }
    }
  }
  EXPECT_GE(sliced, 1) << "no network sliced: the test proves nothing";
}

// ---------------------------------------------------------------------------------------------
// Long programs: 1024 steps keep a replay slot, 1025 have none.

// A chain of 2x2 matrices c_k R(t_k) (R a rotation, c_k a unit phase): the product is
// R(sum t) times the product of the phases, computed here in closed form.
void check_rotation_chain(int steps, DType dtype) {
  const int n = steps + 1;  // operands
  auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(static_cast<unsigned>(steps));
  std::uniform_real_distribution<double> angle(-0.3, 0.3);
  EinsumLabels labels;
  for (int k = 0; k < n; ++k) labels.inputs.push_back({k, k + 1});
  labels.output = {0, n};
  EinsumOptions options;
  options.strategy = PathStrategy::Explicit;
  options.path.push_back({0, 1});  // then the running product (last) with the next matrix
  for (int t = 1; t < steps; ++t) options.path.push_back({0, n - 1 - t});
  const bool complex = dtype == DType::C64;
  using C = std::complex<double>;
  // Host matrices for call `call` (other angles each call), stacked along a third axis.
  for (int call = 0; call < 4; ++call) {
    double theta = 0, phi = 0;
    Tensor stacked = Tensor::zeros(dtype, {2, 2, n});
    for (int k = 0; k < n; ++k) {
      const double t = angle(rng), p = complex ? angle(rng) : 0.0;
      theta += t;
      phi += p;
      const double cs = std::cos(t), sn = std::sin(t);
      const double m[4] = {cs, sn, -sn, cs};  // column-major
      for (int e = 0; e < 4; ++e) {
        const std::size_t at = static_cast<std::size_t>(e + 4 * k);
        if (complex) {
          stacked.data<C>()[at] = m[e] * std::polar(1.0, p);
        } else {
          stacked.data<double>()[at] = m[e];
        }
      }
    }
    // Calls 0 and 2: one upload per matrix (distinct buffers); calls 1 and 3: views into the
    // stacked upload (one buffer, offsets 4k): recorded with distinct, played back with one.
    std::vector<EagerTensor> eager;
    const EagerTensor whole = rt->upload(stacked);
    for (int k = 0; k < n; ++k) {
      const prims::Slice pick[] = {{0, 2, 1}, {0, 2, 1}, {k, k + 1, 1}};
      EagerTensor m = prims::reshape(prims::slice(whole, pick), {2, 2});
      if (call % 2 == 0) m = rt->upload(m.download());
      eager.push_back(m);
    }
    const C phase = std::polar(1.0, phi);
    const C want[4] = {std::cos(theta) * phase, std::sin(theta) * phase, -std::sin(theta) * phase,
                       std::cos(theta) * phase};
    try {
      const Tensor got = einsum(labels, eager, options).download();
      ASSERT_EQ(got.shape(), (Shape{2, 2}));
      double worst = 0;
      for (std::size_t e = 0; e < 4; ++e) {
        const C g = complex ? got.data<C>()[e] : C(got.data<double>()[e], 0.0);
        worst = std::max(worst, std::abs(g - want[e]));
      }
      EXPECT_LE(worst, 1e-10) << steps << " steps " << dtype_name(dtype) << " call " << call;
    } catch (const std::exception& e) {
      ADD_FAILURE() << steps << " steps call " << call << " threw: " << e.what();
    }
  }
}

TEST(EinsumReplay, ChainsAroundTheReplayStepLimit) {
  // The limit itself, as the plan sees it.
  for (const int steps : {static_cast<int>(einsum_internal::kMaxReplaySteps),
                          static_cast<int>(einsum_internal::kMaxReplaySteps) + 1}) {
    std::string subscripts;
    std::vector<Shape> shapes;
    for (int k = 0; k <= steps; ++k) {
      subscripts += k ? ",i" : "i";
      shapes.push_back({2});
    }
    subscripts += "->i";
    EinsumOptions options;
    options.strategy = PathStrategy::Explicit;
    for (int t = 0; t < steps; ++t) options.path.push_back({0, 1});
    const auto plan = internal_plan(subscripts, shapes, DType::F64, options);
    EXPECT_EQ(plan.replay != nullptr, plan.steps.size() <= einsum_internal::kMaxReplaySteps)
        << steps << " steps";
    // Hadamard products of 2-vectors, twice (the second at other offsets), on the reference.
    auto rt = EagerRuntime::cpu();
    std::mt19937_64 rng(3);
    for (int shift = 0; shift < 2; ++shift) {
      std::vector<EagerTensor> eager;
      std::vector<Tensor> hosts;
      for (std::size_t k = 0; k < shapes.size(); ++k) {
        // Values near 1 so the product of a thousand stays of order 1.
        Tensor h = Tensor::zeros(DType::F64, {2});
        h.data<double>()[0] = 1.0 + 1e-3 * std::uniform_real_distribution<double>(-1, 1)(rng);
        h.data<double>()[1] = 1.0 - 1e-3 * std::uniform_real_distribution<double>(-1, 1)(rng);
        Tensor padded = Tensor::zeros(DType::F64, {4});
        padded.data<double>()[shift] = h.data<double>()[0];
        padded.data<double>()[shift + 1] = h.data<double>()[1];
        const prims::Slice pick[] = {{shift, shift + 2, 1}};
        eager.push_back(prims::slice(rt->upload(padded), pick));
        hosts.push_back(h);
      }
      expect_call(std::to_string(steps) + "-step Hadamard chain, call " + std::to_string(shift),
                  subscripts, eager, hosts, options);
    }
  }
  for (DType dtype : {DType::F64, DType::C64}) {
    check_rotation_chain(static_cast<int>(einsum_internal::kMaxReplaySteps), dtype);
    check_rotation_chain(static_cast<int>(einsum_internal::kMaxReplaySteps) + 1, dtype);
  }
}

// ---------------------------------------------------------------------------------------------
// Every kernel call checked: a guard between the executor (or play-back) and the CPU kernels.

// Forwards to the CPU kernels. Checks every call: each view (and each GEMM operand) lies inside
// its buffer, and nothing is written into an input's buffer. Logs each call (op, dtype, shapes,
// strides, offsets and whose buffer: input i, the output, or a scratch) so that two runs can be
// compared call by call.
class GuardKernels final : public einsum_internal::ContractionKernels {
 public:
  using KernelView = einsum_internal::KernelView;
  using GemmProblem = einsum_internal::GemmProblem;

  void begin(const std::vector<EagerTensor>& inputs) {
    std::lock_guard lock(mutex_);
    inputs_.clear();
    for (const auto& t : inputs) inputs_.push_back(t.buffer().get());
    calls_.clear();
    errors_.clear();
  }
  // The log with the output's buffer named; the first error, if any.
  std::vector<std::string> log(const EagerTensor& output) {
    std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    for (const auto& c : calls_) {
      std::string text = c.text;
      for (std::size_t k = 0; k < c.buffers.size(); ++k) {
        const std::string tag = "@" + std::to_string(k) + "@";
        const auto at = text.find(tag);
        if (at != std::string::npos) text.replace(at, tag.size(), owner(c.buffers[k], output));
      }
      out.push_back(text);
    }
    return out;
  }
  std::string first_error() {
    std::lock_guard lock(mutex_);
    return errors_.empty() ? std::string() : errors_.front();
  }

  void copy(const KernelView& src, const KernelView& dst) override {
    note("copy", {src, dst});
    cpu().copy(src, dst);
  }
  void sum_trailing(const KernelView& src, const KernelView& dst, int reduced_rank) override {
    note("sum_trailing/" + std::to_string(reduced_rank), {src, dst});
    cpu().sum_trailing(src, dst, reduced_rank);
  }
  void multiply(const KernelView& a, const KernelView& b, const KernelView& dst) override {
    note("multiply", {a, b, dst});
    cpu().multiply(a, b, dst);
  }
  bool has_multiply_sum() const override { return true; }
  void multiply_sum(const KernelView& a, const KernelView& b, const KernelView& dst,
                    int reduced_rank) override {
    note("multiply_sum/" + std::to_string(reduced_rank), {a, b, dst});
    cpu().multiply_sum(a, b, dst, reduced_rank);
  }
  void fill_zero(const KernelView& dst) override {
    note("fill_zero", {dst});
    cpu().fill_zero(dst);
  }
  void accumulate(const KernelView& src, const KernelView& dst) override {
    note("accumulate", {src, dst});
    cpu().accumulate(src, dst);
  }
  void gemm(const GemmProblem& p) override {
    {
      std::lock_guard lock(mutex_);
      Call c;
      std::ostringstream os;
      os << "gemm " << dtype_name(p.dtype) << " m" << p.m << " n" << p.n << " k" << p.k << " b"
         << p.batch << " A @0@+" << p.a_offset << " [" << p.a_stride_m << "," << p.a_stride_k << ","
         << p.a_stride_batch << "] B @1@+" << p.b_offset << " [" << p.b_stride_k << ","
         << p.b_stride_n << "," << p.b_stride_batch << "] C @2@+" << p.c_offset << " ["
         << p.c_stride_m << "," << p.c_stride_n << "," << p.c_stride_batch << "]";
      c.text = os.str();
      c.buffers = {p.a, p.b, p.c};
      const bool any = p.m > 0 && p.n > 0 && p.batch > 0;
      if (any && p.k > 0) {
        check_region("gemm A", p.a, p.dtype, p.a_offset, {p.m, p.k, p.batch},
                     {p.a_stride_m, p.a_stride_k, p.a_stride_batch});
        check_region("gemm B", p.b, p.dtype, p.b_offset, {p.k, p.n, p.batch},
                     {p.b_stride_k, p.b_stride_n, p.b_stride_batch});
      }
      if (any)
        check_region("gemm C", p.c, p.dtype, p.c_offset, {p.m, p.n, p.batch},
                     {p.c_stride_m, p.c_stride_n, p.c_stride_batch});
      if (any) check_not_input("gemm C", p.c);
      calls_.push_back(std::move(c));
    }
    cpu().gemm(p);
  }
  int slice_threads() override { return cpu().slice_threads(); }
  void run_parts(int parts, const std::function<void(int)>& body) override {
    cpu().run_parts(parts, body);
  }

 private:
  struct Call {
    std::string text;
    std::vector<const Buffer*> buffers;
  };
  static ContractionKernels& cpu() { return einsum_internal::cpu_contraction_kernels(); }

  std::string owner(const Buffer* b, const EagerTensor& output) const {
    for (std::size_t i = 0; i < inputs_.size(); ++i)
      if (inputs_[i] == b) return "input" + std::to_string(i);
    if (output.defined() && output.buffer().get() == b) return "output";
    return "scratch";
  }
  void error(const std::string& what) { errors_.push_back(what); }
  void check_region(const std::string& what, const Buffer* b, DType dtype, std::int64_t offset,
                    std::vector<std::int64_t> shape, std::vector<std::int64_t> strides) {
    std::int64_t lo = offset, hi = offset;
    for (std::size_t a = 0; a < shape.size(); ++a) {
      if (shape[a] == 0) return;  // nothing touched
      const std::int64_t span = (shape[a] - 1) * strides[a];
      (span < 0 ? lo : hi) += span;
    }
    const auto elements = b ? static_cast<std::int64_t>(b->size_bytes() / dtype_size(dtype)) : 0;
    if (b == nullptr || lo < 0 || hi >= elements)
      error(what + ": elements [" + std::to_string(lo) + ", " + std::to_string(hi) +
            "] outside a buffer of " + std::to_string(elements));
  }
  void check_not_input(const std::string& what, const Buffer* b) {
    for (const Buffer* in : inputs_)
      if (in == b) error(what + ": writes into an input's buffer");
  }
  void note(const std::string& op, std::initializer_list<KernelView> views) {
    std::lock_guard lock(mutex_);
    Call c;
    std::ostringstream os;
    os << op;
    std::size_t k = 0;
    for (const KernelView& v : views) {
      os << " " << dtype_name(v.dtype) << " @" << k << "@+" << v.offset << " (";
      std::vector<std::int64_t> shape, strides;
      for (std::size_t a = 0; a < v.shape.size(); ++a) {
        os << (a ? "," : "") << v.shape[a] << ":" << v.strides[a];
        shape.push_back(v.shape[a]);
        strides.push_back(v.strides[a]);
      }
      os << ")";
      c.buffers.push_back(v.buffer);
      check_region(op + " view " + std::to_string(k), v.buffer, v.dtype, v.offset, shape, strides);
      if (k + 1 == views.size()) check_not_input(op, v.buffer);  // the last view is written
      ++k;
    }
    c.text = os.str();
    calls_.push_back(std::move(c));
  }

  std::mutex mutex_;
  std::vector<const Buffer*> inputs_;
  std::vector<Call> calls_;
  std::vector<std::string> errors_;
};

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += "  " + l + "\n";
  return s;
}

// Per case: a call that records (guarded), a warm call at other offsets that plays back (the slot
// keeps its recording), and the same warm operands through a fresh plan's layout search. The
// play-back's calls must be the search's, call by call (ops, shapes, strides, offsets, whose
// buffer), every view inside its buffer, no input written; its workspace peak no higher than the
// search's (each scratch goes back after its last use) and nothing left live; all three results
// against the reference.
TEST(EinsumReplay, PlaybackIssuesTheSearchsCallsInBoundsAndReleasesScratch) {
  auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(7070);
  GuardKernels guard;
  int played = 0;
  for (const Case& c : adversarial_cases()) {
    for (DType dtype : {DType::F64, DType::C64}) {
      if (c.heavy && dtype != DType::F64) continue;
      for (const std::vector<Kind>& kinds :
           {std::vector<Kind>{Kind::Strided}, std::vector<Kind>{Kind::Padded, Kind::StridedC},
            std::vector<Kind>{Kind::ColCompact, Kind::RowCompact}}) {
        const std::string what = describe(c.subscripts, dtype, kind_name(kinds[0]), 0);
        const auto plan = internal_plan(c.subscripts, c.shapes, dtype, options_of(c));
        const auto run = [&](const einsum_internal::EinsumPlan& p, const Operands& ops,
                             const std::string& label, std::vector<std::string>& log,
                             einsum_internal::WorkspaceStats& stats) {
          guard.begin(ops.eager);
          einsum_internal::reset_workspace_stats(*rt);
          const std::size_t live_before = einsum_internal::workspace_stats(*rt).live_bytes;
          EagerTensor got;
          try {
            got = einsum_internal::run_program(*rt, guard, p, ops.eager);
          } catch (const std::exception& e) {
            ADD_FAILURE() << what << " " << label << " threw: " << e.what();
            return;
          }
          stats = einsum_internal::workspace_stats(*rt);
          EXPECT_EQ(stats.live_bytes, live_before) << what << " " << label << ": scratch left live";
          log = guard.log(got);
          const std::string error = guard.first_error();
          EXPECT_TRUE(error.empty()) << what << " " << label << ": " << error << "\n"
                                     << joined(log);
          expect_tensor(what + " " + label, got.download(), c.subscripts, ops.hosts);
        };
        std::vector<std::string> recorded_log, played_log, searched_log;
        einsum_internal::WorkspaceStats recorded_stats, played_stats, searched_stats;
        run(plan, make_operands(rt, rng, dtype, c.shapes, kinds, 0), "recording", recorded_log,
            recorded_stats);
        const auto recording = plan.replay ? plan.replay->get() : nullptr;
        const Operands warm = make_operands(rt, rng, dtype, c.shapes, kinds, 2);
        run(plan, warm, "play-back", played_log, played_stats);
        if (recording) {
          EXPECT_EQ(plan.replay->get(), recording) << what << ": the warm call recorded again";
          ++played;
        }
        const auto fresh = internal_plan(c.subscripts, c.shapes, dtype, options_of(c));
        run(fresh, warm, "search", searched_log, searched_stats);
        EXPECT_EQ(played_log, searched_log)
            << what << ": play-back's calls differ from the search's\nplay-back:\n"
            << joined(played_log) << "search:\n"
            << joined(searched_log);
        EXPECT_EQ(played_log.size(), recorded_log.size()) << what;
        if (recording) {
          EXPECT_LE(played_stats.high_water_bytes, searched_stats.high_water_bytes)
              << what << ": play-back held more workspace than the search";
        }
      }
    }
  }
  EXPECT_GT(played, 100) << "too few calls were played back: the test proves little";
}

// The sliced executor on the guard, one and three workers, twice at other offsets: every view
// of every slice (played back from the slice program's recording) inside its buffer, no input
// written, and the results against the reference.
// The scratch plan a recording hands its play-backs (Replay::slots, scratch_slot): two scratch
// that share a buffer must never be live at once (a lifetime runs from its allocation to the call
// of its last use), a buffer has exactly its scratch's bytes, and the statistics' peak and
// largest are those of the scratch taken and given back one at a time. Checked against the
// recorded calls themselves, on the adversarial cases and on 3-regular networks of up to 34
// tensors; a wrongly shared buffer would overwrite a live intermediate.
TEST(EinsumReplay, ScratchPlanNeverSharesABufferBetweenLiveScratch) {
  auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(4242);
  int plans = 0, shared = 0;
  const auto check = [&](const einsum_internal::Replay& r, const std::string& what) {
    using Call = einsum_internal::ReplayCall;
    const auto n = static_cast<std::size_t>(r.scratch);
    ASSERT_EQ(r.scratch_slot.size(), n) << what;
    std::vector<std::size_t> first(n, 0), last(n, 0), bytes(n, 0);
    for (std::size_t i = 0; i < r.calls.size(); ++i) {
      const Call& c = r.calls[i];
      for (const auto& ref : c.refs)
        if (ref.kind == einsum_internal::OperandRef::Kind::Scratch)
          last[static_cast<std::size_t>(ref.index)] = i;
      if (c.op != Call::Op::Allocate) continue;
      const auto s = static_cast<std::size_t>(c.refs[0].index);
      first[s] = i;
      std::size_t b = dtype_size(c.views[0].dtype);
      for (std::uint16_t a = 0; a < c.views[0].rank; ++a)
        b *= static_cast<std::size_t>(r.dims[c.views[0].dims_at + a]);
      bytes[s] = b;
    }
    std::size_t peak = 0, largest = 0;
    for (std::size_t i = 0; i < r.calls.size(); ++i) {
      std::size_t live = 0;
      for (std::size_t s = 0; s < n; ++s)
        if (first[s] <= i && i <= last[s]) live += bytes[s];
      peak = std::max(peak, live);
    }
    for (std::size_t s = 0; s < n; ++s) {
      largest = std::max(largest, bytes[s]);
      ASSERT_LT(r.scratch_slot[s], r.slots.size()) << what;
      EXPECT_EQ(r.slots[r.scratch_slot[s]].bytes, bytes[s]) << what << ": scratch " << s;
      for (std::size_t t = s + 1; t < n; ++t) {
        if (r.scratch_slot[s] != r.scratch_slot[t]) continue;
        ++shared;
        EXPECT_TRUE(last[s] < first[t] || last[t] < first[s])
            << what << ": scratch " << s << " (calls " << first[s] << ".." << last[s] << ") and "
            << t << " (calls " << first[t] << ".." << last[t] << ") share buffer "
            << r.scratch_slot[s];
      }
    }
    EXPECT_EQ(r.live_peak_bytes, peak) << what;
    EXPECT_EQ(r.largest_scratch_bytes, largest) << what;
    ++plans;
  };
  const auto record = [&](const einsum_internal::EinsumPlan& plan, const std::vector<Shape>& shapes,
                          DType dtype, const std::string& what) {
    const Operands ops = make_operands(rt, rng, dtype, shapes, {Kind::Strided}, 0);
    (void)einsum_internal::run_program(*rt, einsum_internal::cpu_contraction_kernels(), plan,
                                       ops.eager);
    if (const auto recording = plan.replay ? plan.replay->get() : nullptr) check(*recording, what);
  };
  for (const Case& c : adversarial_cases()) {
    if (c.heavy) continue;
    record(internal_plan(c.subscripts, c.shapes, DType::F64, options_of(c)), c.shapes, DType::F64,
           std::string(c.subscripts));
  }
  for (int n : {12, 24, 34}) {  // up to 51 labels: letter subscripts
    const auto net = testing::random_regular_network(rng, n, 3, 2);
    record(internal_plan(net.subscripts(), net.shapes(), DType::C64), net.shapes(), DType::C64,
           "3-regular network of " + std::to_string(n));
  }
  EXPECT_GT(plans, 20) << "too few recordings: the test proves little";
  EXPECT_GT(shared, 20) << "too few shared buffers: the test proves little";
}

TEST(EinsumReplay, SlicedPlaybackStaysInBounds) {
  auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(9191);
  GuardKernels guard;
  for (const auto& cut : testing::every_small_slicing()) {
    if (cut.mask % 3 != 0) continue;  // a third of the slicings: enough to cover every kind
    const auto plan =
        einsum_internal::build_plan(cut.expr, cut.sizes, cut.path, DType::C64, cut.shapes);
    for (int workers : {1, 3}) {
      for (int shift : {0, 2}) {
        const Operands ops = make_operands(rt, rng, DType::C64, cut.shapes, {Kind::Strided}, shift);
        const std::string what = std::string(cut.subscripts) + " mask " + std::to_string(cut.mask) +
                                 " workers " + std::to_string(workers) + " shift " +
                                 std::to_string(shift);
        guard.begin(ops.eager);
        try {
          const EagerTensor got = einsum_internal::run_sliced_program(
              *rt, guard, plan, ops.eager, einsum_internal::SliceRange{}, workers);
          EXPECT_TRUE(guard.first_error().empty()) << what << ": " << guard.first_error();
          expect_tensor(what, got.download(), cut.subscripts, ops.hosts);
        } catch (const std::exception& e) {
          ADD_FAILURE() << what << " threw: " << e.what();
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Threads, runtimes, devices.

// Several threads call one plan of one runtime, each with its own layout (so the slot is
// recorded over and over by the others while a thread plays back): every result against the
// reference computed beforehand.
TEST(EinsumReplay, ConcurrentCallersWithDifferentLayouts) {
  auto rt = EagerRuntime::cpu();
  const char* subscripts = "ab,bc,cd,de->ae";
  const std::vector<Shape> shapes{{5, 6}, {6, 7}, {7, 3}, {3, 4}};
  const Kind kinds[] = {Kind::ColCompact, Kind::Strided, Kind::RowCompact, Kind::Padded};
  constexpr int kCallers = 4, kCalls = 24;
  std::mt19937_64 rng(2026);
  std::vector<std::vector<Operands>> ops(kCallers);
  std::vector<std::vector<testing::ReferenceResult>> want(kCallers);
  for (int t = 0; t < kCallers; ++t)
    for (int shift = 0; shift < 3; ++shift) {
      ops[static_cast<std::size_t>(t)].push_back(
          make_operands(rt, rng, DType::C64, shapes, {kinds[t]}, shift));
      want[static_cast<std::size_t>(t)].push_back(
          reference_einsum(subscripts, ops[static_cast<std::size_t>(t)].back().hosts));
    }
  std::vector<int> failures(kCallers, 0);
  std::vector<std::string> first_failure(kCallers);
  std::vector<std::thread> callers;
  for (int t = 0; t < kCallers; ++t)
    callers.emplace_back([&, t] {
      const auto i = static_cast<std::size_t>(t);
      for (int call = 0; call < kCalls; ++call) {
        const auto s = static_cast<std::size_t>(call % 3);
        try {
          const auto a =
              compare_with_reference(einsum(subscripts, ops[i][s].eager).download(), want[i][s]);
          if (!a.ok) {
            if (failures[i]++ == 0) first_failure[i] = a.detail;
          }
        } catch (const std::exception& e) {
          if (failures[i]++ == 0) first_failure[i] = e.what();
        }
      }
    });
  for (auto& c : callers) c.join();
  for (int t = 0; t < kCallers; ++t)
    EXPECT_EQ(failures[static_cast<std::size_t>(t)], 0)
        << kind_name(kinds[t]) << ": " << first_failure[static_cast<std::size_t>(t)];
}

// One PreparedEinsum (one plan, one replay slot) on two CPU runtimes, a runtime made after
// another was destroyed, and back: the recording of one runtime is played back on another's
// operands and workspace.
TEST(EinsumReplay, PreparedEinsumAcrossRuntimes) {
  const char* subscripts = "ij,jk,kl,li->i";
  const std::vector<Shape> shapes{{3, 4}, {4, 5}, {5, 2}, {2, 3}};
  for (DType dtype : {DType::F64, DType::C32}) {
    std::vector<TensorMeta> metas;
    for (const Shape& s : shapes) metas.push_back({dtype, s});
    const PreparedEinsum prepared(subscripts, metas);
    std::mt19937_64 rng(64);
    auto a = EagerRuntime::cpu();
    auto b = EagerRuntime::cpu();
    const auto check = [&](const RuntimePtr& rt, Kind kind, int shift, const std::string& what) {
      const Operands ops = make_operands(rt, rng, dtype, shapes, {kind}, shift);
      const auto agreement = compare_with_reference(prepared(ops.eager).download(),
                                                    reference_einsum(subscripts, ops.hosts));
      EXPECT_TRUE(agreement.ok) << what << " " << dtype_name(dtype) << ": " << agreement.detail;
    };
    check(a, Kind::Strided, 0, "runtime a");
    check(b, Kind::Strided, 1, "runtime b");
    check(a, Kind::Strided, 2, "runtime a again");
    a.reset();
    auto c = EagerRuntime::cpu();
    check(c, Kind::Strided, 1, "a new runtime");
    check(b, Kind::Padded, 0, "runtime b, other layout");
    check(c, Kind::Strided, 0, "the new runtime, first layout");
  }
}

RuntimePtr webgpu_or_null(std::string& why) {
  try {
    return EagerRuntime::webgpu();
  } catch (const Error& e) {
    why = e.what();
    return nullptr;
  }
}

bool webgpu_required() {
  const char* v = std::getenv("TENFERRO_REQUIRE_WEBGPU");
  return v != nullptr && std::string_view(v) == "1";
}

// WebGPU (F32/C32): warm calls at other offsets and layouts, inputs sharing a buffer, a sliced
// plan, and one PreparedEinsum alternating between the WebGPU and a CPU runtime.
TEST(EinsumReplay, WebGpuWarmCalls) {
  std::string why;
  const RuntimePtr gpu = webgpu_or_null(why);
  if (!gpu) {
    if (webgpu_required()) FAIL() << "a WebGPU runtime was expected: " << why;
    GTEST_SKIP() << "no WebGPU runtime: " << why;
  }
  std::mt19937_64 rng(808);
  const std::vector<Case> cases = {
      {"ij,jk->ik", {{3, 4}, {4, 5}}},
      {"ijb,jkb->ikb", {{3, 4, 2}, {4, 5, 2}}},
      {"ij,jk,kl->il", {{2, 3}, {3, 4}, {4, 5}}},
      {"ii,ij->j", {{3, 3}, {3, 4}}},
      {"i->ii", {{3}}},
      {"ij,kl->likj", {{2, 3}, {4, 2}}},
      {"kpbz,pzb->kb", {{5, 3, 4, 6}, {3, 6, 4}}},
      {"ij,jk->ik", {{2, 0}, {0, 3}}},
  };
  for (DType dtype : {DType::F32, DType::C32}) {
    for (const Case& c : cases) {
      for (Kind kind : {Kind::Strided, Kind::ColCompact, Kind::RowCompact}) {
        for (int shift : {0, 1, 2}) {
          const Operands ops = make_operands(gpu, rng, dtype, c.shapes, {kind}, shift);
          expect_call("WebGPU " + describe(c.subscripts, dtype, kind_name(kind), shift),
                      c.subscripts, ops.eager, ops.hosts);
        }
      }
    }
    // Shared buffer after a distinct recording, and the reverse.
    for (int call = 0; call < 4; ++call) {
      std::vector<EagerTensor> eager;
      if (call % 2 == 0) {
        for (int i = 0; i < 3; ++i)
          eager.push_back(make_view(gpu, rng, dtype, {3, 3}, Kind::Strided, call % 3));
      } else {
        eager = views_of_one_buffer(gpu, rng, dtype, {3, 3}, Kind::Strided, {2, 0, 1});
      }
      expect_call("WebGPU shared " + describe("ij,jk,kl->il", dtype, "strided", call),
                  "ij,jk,kl->il", eager, download_all(eager));
    }
    // Sliced (summed labels), twice at other offsets.
    {
      const char* subscripts = "ab,bc,cd->ad";
      const std::vector<Shape> shapes{{3, 8}, {8, 8}, {8, 2}};
      EinsumOptions options;
      options.memory_limit = 64;
      for (int shift = 0; shift < 3; ++shift) {
        const Operands ops = make_operands(gpu, rng, dtype, shapes, {Kind::Strided}, shift);
        expect_call("WebGPU sliced " + describe(subscripts, dtype, "strided", shift), subscripts,
                    ops.eager, ops.hosts, options);
      }
    }
    // One plan on the GPU and the CPU in turn.
    {
      const char* subscripts = "ij,jk,kl->il";
      const std::vector<Shape> shapes{{2, 3}, {3, 4}, {4, 5}};
      std::vector<TensorMeta> metas;
      for (const Shape& s : shapes) metas.push_back({dtype, s});
      const PreparedEinsum prepared(subscripts, metas);
      auto cpu = EagerRuntime::cpu();
      for (int call = 0; call < 4; ++call) {
        const RuntimePtr& rt = call % 2 == 0 ? gpu : cpu;
        const Operands ops = make_operands(rt, rng, dtype, shapes, {Kind::Strided}, call % 3);
        const auto agreement = compare_with_reference(prepared(ops.eager).download(),
                                                      reference_einsum(subscripts, ops.hosts));
        EXPECT_TRUE(agreement.ok) << "prepared on " << (call % 2 == 0 ? "WebGPU" : "CPU")
                                  << " call " << call << ": " << agreement.detail;
      }
    }
  }
}

}  // namespace
}  // namespace tenferro
