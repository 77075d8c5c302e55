// The backend-agnostic einsum evaluator. Each pairwise step:
//   1. diagonals of repeated labels are strided views (strides of the repeated axes summed),
//      size-1 broadcast extents are stride-0 views (done once per input);
//   2. labels that only one operand carries and nobody needs later are summed first;
//   3. the remaining labels are classified batch / left-free / right-free / contracted;
//   4. no contracted label: one element-wise multiply (Hadamard, outer product, mixes);
//      otherwise one batched GEMM. Each label group is fused into one matrix dimension when
//      the operand's strides allow it (zero-copy matricization); an operand that does not
//      fuse is permute-copied into a compact scratch. The group orders are chosen among the
//      operands' and the output's own orders to copy the fewest elements, counting for an
//      intermediate what the step consuming it would copy (its layout looks one step ahead).
//      A matrix-vector step that would permute-copy its larger operand runs instead as one
//      multiply-sum pass over it, where the backend's kernels offer one;
//   5. the last step writes straight into the output when its strides allow it.
#include "ops/einsum/executor.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <optional>
#include <span>
#include <utility>

#include "ops/einsum/direct_gemm.hpp"
#include "ops/einsum/replay.hpp"
#include "ops/einsum/workspace.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/core/shape.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::einsum_internal {
namespace {

// The labels of an operand or of a group: a few each, so kept inline (the executor builds
// dozens of these per pairwise step; as std::vectors they were most of its allocations).
using Labels = SmallVector<Label, 8>;

struct Operand {
  KernelView view;      // one axis per label
  Labels labels;        // unique
  EagerTensor storage;  // owns an intermediate (undefined for inputs and the output)
  // The axis of every label (-1: not carried), indexed by label, or null: the table a
  // LabelAxes keeps for a step's operands (search_and_run), so that the layout search finds an
  // axis with one load instead of a scan of `labels`. The scans of every fuse, copy cost and
  // stride sort were a quarter of the search's own instructions on a 60-tensor network; with
  // the tables its first call's search-and-run took 20% less time. Null once `labels` changes.
  const std::int32_t* axes = nullptr;
};

int axis_of(std::span<const Label> labels, Label l) {
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i] == l) return static_cast<int>(i);
  return -1;
}

int axis_in(const Operand& op, Label l) {
  // A table that disagrees with the labels (an operand whose labels changed but kept its
  // pointer) would give wrong axes silently: a build without NDEBUG compares every lookup (the
  // test command's builds define NDEBUG and skip it; a checked copy of this file compared
  // 510,000 lookups on random equations and networks, with no difference).
  assert(op.axes == nullptr || op.axes[static_cast<std::size_t>(l)] == axis_of(op.labels, l));
  return op.axes != nullptr ? op.axes[static_cast<std::size_t>(l)] : axis_of(op.labels, l);
}

// The label -> axis table of one operand at a time (Operand::axes), as large as the plan has
// labels: bind() fills the entries of an operand's labels (clearing the previous operand's),
// so a step pays for its operands' ranks, not for the plan's labels.
class LabelAxes {
 public:
  // Plans of more labels search with scans (a table each per call would cost more than it saves).
  static constexpr std::size_t kMaxLabels = std::size_t{1} << 16;
  explicit LabelAxes(std::size_t labels) {
    if (labels <= kMaxLabels) axis_.assign(labels, -1);
  }
  const std::int32_t* bind(const Operand& op) { return bind(std::span<const Label>(op.labels)); }
  // The same for a list of distinct labels (a LabelSet's table).
  const std::int32_t* bind(std::span<const Label> labels) {
    if (axis_.empty()) return nullptr;
    for (Label l : bound_) axis_[static_cast<std::size_t>(l)] = -1;
    bound_.assign(labels.begin(), labels.end());
    for (std::size_t i = 0; i < bound_.size(); ++i)
      axis_[static_cast<std::size_t>(bound_[i])] = static_cast<std::int32_t>(i);
    return axis_.data();
  }

 private:
  std::vector<std::int32_t> axis_;
  Labels bound_;
};

// A step's list of labels (the ones it keeps, the ones the next step contracts) with, when
// search_and_run keeps one, its LabelAxes table: membership is one load instead of a scan.
struct LabelSet {
  std::span<const Label> labels;
  const std::int32_t* table = nullptr;
  bool contains(Label l) const {
    return table != nullptr ? table[static_cast<std::size_t>(l)] >= 0 : axis_of(labels, l) >= 0;
  }
};

bool has(std::span<const Label> labels, Label l) {
  return axis_of(labels, l) >= 0;
}

Labels concat(const Labels& a, const Labels& b, const Labels& c = {}) {
  Labels out = a;
  out.insert(out.end(), b.begin(), b.end());
  out.insert(out.end(), c.begin(), c.end());
  return out;
}

std::int64_t numel_of(const Operand& op) {
  std::int64_t n = 1;
  for (auto e : op.view.shape) n *= e;
  return n;
}

// A view over `buffer` with one axis per distinct label of `labels`; repeated labels become
// one axis whose stride is the sum (a diagonal), size-1 extents of larger labels broadcast.
Operand labelled_view(Buffer* buffer, DType dtype, const Shape& shape, const Strides& strides,
                      std::int64_t offset, const Labels& labels,
                      const std::vector<std::int64_t>& sizes) {
  Operand op;
  op.view.buffer = buffer;
  op.view.dtype = dtype;
  op.view.offset = offset;
  for (std::size_t axis = 0; axis < labels.size(); ++axis) {
    const Label l = labels[axis];
    const std::int64_t size = sizes[static_cast<std::size_t>(l)];
    const std::int64_t stride = (shape[axis] == 1 && size != 1) ? 0 : strides[axis];
    const int existing = axis_of(op.labels, l);
    if (existing >= 0) {
      op.view.strides[static_cast<std::size_t>(existing)] += stride;
    } else {
      op.labels.push_back(l);
      op.view.shape.push_back(size);
      op.view.strides.push_back(stride);
    }
  }
  return op;
}

Operand input_operand(const EagerTensor& t, const Labels& labels,
                      const std::vector<std::int64_t>& sizes) {
  return labelled_view(t.buffer().get(), t.dtype(), t.shape(), t.strides(), t.layout().offset,
                       labels, sizes);
}

// The operand's view with its axes in `order` (a permutation of its labels, or a superset
// whose extra labels broadcast with stride 0).
KernelView view_in_order(const Operand& op, const Labels& order,
                         const std::vector<std::int64_t>& sizes) {
  KernelView v;
  v.buffer = op.view.buffer;
  v.dtype = op.view.dtype;
  v.offset = op.view.offset;
  for (Label l : order) {
    const int a = axis_in(op, l);
    v.shape.push_back(a >= 0 ? op.view.shape[static_cast<std::size_t>(a)]
                             : sizes[static_cast<std::size_t>(l)]);
    v.strides.push_back(a >= 0 ? op.view.strides[static_cast<std::size_t>(a)] : 0);
  }
  return v;
}

Operand allocate(Workspace& runtime, DType dtype, const Labels& labels,
                 const std::vector<std::int64_t>& sizes) {
  Shape shape;
  for (Label l : labels) shape.push_back(sizes[static_cast<std::size_t>(l)]);
  Operand op;
  op.storage = runtime.allocate(dtype, shape);
  op.view.buffer = op.storage.buffer().get();
  op.view.dtype = dtype;
  op.view.shape = shape;
  op.view.strides = op.storage.strides();
  op.view.offset = op.storage.layout().offset;
  op.labels = labels;
  return op;
}

// The labels of `group` sorted by their stride in `op` (extents of 1, and labels `op` does not
// carry, last): the order in which a group is most likely to fuse in that operand.
// An insertion sort: groups hold a few labels, and std::stable_sort takes a temporary buffer from
// the heap on every call (the layout search sorts a dozen groups per step).
Labels by_stride(const Operand& op, Labels group) {
  auto key = [&](Label l) {
    const int axis = axis_in(op, l);
    if (axis < 0) return INT64_MAX;
    const auto a = static_cast<std::size_t>(axis);
    return op.view.shape[a] <= 1 ? INT64_MAX : op.view.strides[a];
  };
  SmallVector<std::int64_t, 8> keys;
  for (Label l : group) keys.push_back(key(l));
  for (std::size_t i = 1; i < group.size(); ++i) {
    const Label l = group[i];
    const std::int64_t k = keys[i];
    std::size_t j = i;
    for (; j > 0 && keys[j - 1] > k; --j) {
      group[j] = group[j - 1];
      keys[j] = keys[j - 1];
    }
    group[j] = l;
    keys[j] = k;
  }
  return group;
}

// No member initializers: choose_layout keeps a dozen per operand and group, and only those of
// its candidates are ever read (fuse sets every field).
struct Fused {
  bool ok;
  std::int64_t size;
  std::int64_t stride;
};

// Whether the axes of `group` (in that order) are one dimension of the operand's memory.
Fused fuse(const Operand& op, const Labels& group) {
  Fused f{true, 1, 0};
  bool first = true;
  std::int64_t expected = 0;
  for (Label l : group) {
    const auto a = static_cast<std::size_t>(axis_in(op, l));
    const std::int64_t n = op.view.shape[a];
    f.size *= n;
    if (n == 1) continue;
    const std::int64_t s = op.view.strides[a];
    if (first) {
      f.stride = s;
      first = false;
    } else if (s != expected) {
      f.ok = false;
    }
    expected = s * n;
  }
  if (f.size == 0) f.ok = true;  // nothing is touched
  return f;
}

struct GemmGroups {
  Labels batch, left, right, contracted;
};

struct GemmLayout {
  Labels left, right, contracted, batch;  // chosen orders
  bool a_ok = false, b_ok = false, c_ok = false;
  bool right_first = false;    // an intermediate laid out [right, left, batch] (C transposed)
  std::int64_t cost = 0;       // copy_cost of the operands permute-copied
  std::int64_t next_cost = 0;  // next_copy_cost of the result (0 without a look-ahead)
};

// Whether an operand whose row, column and batch groups fuse as given is a BLAS matrix (batch).
bool matrix_ok(const Fused& rows, const Fused& cols, const Fused& batch) {
  if (rows.size == 0 || cols.size == 0) return true;  // an empty matrix is never read or written
  return rows.ok && cols.ok && batch.ok &&
         blas_matrix(rows.size, cols.size, rows.stride, cols.stride).ok;
}

// Candidate orders of one group, without duplicates: at most one from each operand and the
// output, and two gathered forms of each of those (choose_layout), so a fixed array holds them
// (a std::vector per group was four heap allocations per step).
struct Candidates {
  std::array<Labels, 12> items;
  std::size_t count = 0;
  std::size_t size() const { return count; }
  const Labels& operator[](std::size_t i) const { return items[i]; }
  const Labels* begin() const { return items.data(); }
  const Labels* end() const { return items.data() + count; }
};

void add_candidate(Candidates& list, Labels order) {
  for (const auto& existing : list)
    if (existing == order) return;
  if (list.count == list.items.size())
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "einsum",
                "internal: more layout candidates than choose_layout makes");
  list.items[list.count++] = std::move(order);
}

// What permute-copying `op` into the compact order `order` costs: its elements times the runs
// the copy walks, the maximal stretches of `order` whose axes follow each other in op's memory
// (a copy along long runs streams; one that jumps at every axis moves one cache line per element
// or so). Measured on tree_100's 3.8M-element step (docs/perf/einsum-benchmark.md): the order of
// the small operand's contracted labels made the copy of the large one 3x slower (7 runs
// against 5).
std::int64_t copy_cost(const Operand& op, std::initializer_list<const Labels*> order) {
  std::int64_t runs = 0, expected = -1;
  for (const Labels* part : order)
    for (Label l : *part) {
      const auto a = static_cast<std::size_t>(axis_in(op, l));
      const std::int64_t n = op.view.shape[a];
      if (n == 1) continue;
      const std::int64_t stride = op.view.strides[a];
      if (stride != expected) ++runs;
      expected = stride * n;
    }
  return numel_of(op) * std::max<std::int64_t>(runs, 1);
}

std::int64_t group_size(const Labels& group, const std::vector<std::int64_t>& sizes) {
  std::int64_t n = 1;
  for (Label l : group) n *= sizes[static_cast<std::size_t>(l)];
  return n;
}

// The look-ahead (ProgramStep::next_contracted): `next` are the labels of this step's
// intermediate that the step consuming it contracts. With fewer than two of extent > 1 they sit
// together in any order, and nothing is worth trying. Nor below kLookAheadElements: copying a
// small intermediate costs less than the wider layout search, which runs on every call (the
// 126-step max-cut network was 25% slower with it on every step).
constexpr std::int64_t kLookAheadElements = std::int64_t{1} << 14;

bool worth_looking_ahead(std::span<const Label> next, const GemmGroups& groups,
                         const std::vector<std::int64_t>& sizes) {
  int wide = 0;
  for (Label l : next) wide += sizes[static_cast<std::size_t>(l)] > 1;
  return wide > 1 && group_size(groups.left, sizes) * group_size(groups.right, sizes) *
                             group_size(groups.batch, sizes) >=
                         kLookAheadElements;
}

// `order` with the labels of `next` moved to its end (to_end) or front, the rest kept in order.
Labels gathered(const Labels& order, const LabelSet& next, bool to_end) {
  Labels out;
  for (const bool take_next : {!to_end, to_end})
    for (Label l : order)
      if (next.contains(l) == take_next) out.push_back(l);
  return out;
}

// What the consuming step would pay to permute-copy an intermediate laid out in `order` because
// the labels it contracts (`next`) are not together (copy_cost's measure), or 0 when they are.
std::int64_t next_copy_cost(std::initializer_list<const Labels*> order, const LabelSet& next,
                            const std::vector<std::int64_t>& sizes) {
  std::int64_t numel = 1, runs = 0;
  bool in_run = false;
  for (const Labels* part : order)
    for (Label l : *part) {
      const std::int64_t n = sizes[static_cast<std::size_t>(l)];
      numel *= n;
      if (n == 1) continue;
      const bool is_next = next.contains(l);
      if (is_next && !in_run) ++runs;
      in_run = is_next;
    }
  return runs > 1 ? numel * runs : 0;
}

constexpr std::int64_t kMinTransposedRows = 32;

// The group orders that copy least (copy_cost): each group's order is taken from one of the
// operands that carry it (or from the output when the step writes into it). When `next` is
// worth it (an intermediate), a second set of layouts is tried: groups with the next step's
// contracted labels gathered at their ends, and the result written transposed. One of those
// wins only when it puts those labels together and copies less than the plain choice plus the
// next step's copy of its result (next_copy_cost): a layout that leaves them apart anyway is
// no better by that measure, and its new group orders run differently in the copy kernel than
// copy_cost predicts (a hyper_30_f32 step took 1.7x as long with its batch labels reordered).
GemmLayout choose_layout(const Operand& a, const Operand& b, const Operand* out,
                         const GemmGroups& groups, const LabelSet& next,
                         const std::vector<std::int64_t>& sizes) {
  Candidates left, right, contracted, batch;
  add_candidate(left, by_stride(a, groups.left));
  add_candidate(right, by_stride(b, groups.right));
  add_candidate(contracted, by_stride(a, groups.contracted));
  add_candidate(contracted, by_stride(b, groups.contracted));
  add_candidate(batch, by_stride(a, groups.batch));
  add_candidate(batch, by_stride(b, groups.batch));
  if (out) {
    add_candidate(left, by_stride(*out, groups.left));
    add_candidate(right, by_stride(*out, groups.right));
    add_candidate(batch, by_stride(*out, groups.batch));
  }
  const std::size_t plain_left = left.size(), plain_right = right.size(),
                    plain_batch = batch.size();
  const bool ahead = out == nullptr && worth_looking_ahead(next.labels, groups, sizes);
  // Transposing C makes the right group BLAS's M. OpenBLAS tiles M, so a short M against a long
  // N runs at a fraction of its speed: one hyper_30 step (M = 9, N = 13500) took 3x as long.
  const std::int64_t left_size = group_size(groups.left, sizes),
                     right_size = group_size(groups.right, sizes);
  const bool may_transpose = ahead && (right_size >= kMinTransposedRows || right_size >= left_size);
  if (ahead) {
    for (std::size_t i = 0; i < plain_left; ++i) {
      add_candidate(left, gathered(left[i], next, true));
      add_candidate(left, gathered(left[i], next, false));
    }
    for (std::size_t i = 0; i < plain_right; ++i) {
      add_candidate(right, gathered(right[i], next, false));
      add_candidate(right, gathered(right[i], next, true));
    }
    for (std::size_t i = 0; i < plain_batch; ++i)
      add_candidate(batch, gathered(batch[i], next, false));
  }
  // Each candidate order's fusion in each operand that carries its group, worked out once: the
  // loops below meet every order in up to a hundred combinations, and a first call (which
  // searches; later ones play back) spent a fifth of its time here. Filled in place, never
  // copied: entries past a list's, and all without `out`, stay unset and are never read.
  using Fusions = std::array<Fused, std::tuple_size_v<decltype(Candidates::items)>>;
  Fusions a_left, a_contracted, a_batch, b_contracted, b_right, b_batch, c_left, c_right, c_batch;
  const auto fill = [](Fusions& f, const Operand* op, const Candidates& list) {
    if (op)
      for (std::size_t i = 0; i < list.size(); ++i) f[i] = fuse(*op, list[i]);
  };
  fill(a_left, &a, left);
  fill(a_contracted, &a, contracted);
  fill(a_batch, &a, batch);
  fill(b_contracted, &b, contracted);
  fill(b_right, &b, right);
  fill(b_batch, &b, batch);
  fill(c_left, out, left);
  fill(c_right, out, right);
  fill(c_batch, out, batch);
  // A layout by its candidates' indices; the orders are copied once, for the one returned.
  struct Pick {
    std::size_t bi = 0, ki = 0, li = 0, ri = 0;
    bool a_ok = false, b_ok = false, c_ok = false, right_first = false;
    std::int64_t cost = -1, next_cost = 0;
  };
  const auto layout_of = [&](const Pick& p) {
    return GemmLayout{left[p.li], right[p.ri], contracted[p.ki], batch[p.bi], p.a_ok,
                      p.b_ok,     p.c_ok,      p.right_first,    p.cost,      p.next_cost};
  };
  Pick plain, together;  // the plain choice; the best that puts `next` together
  for (const bool right_first : {false, true}) {
    if (right_first && !may_transpose) break;
    for (std::size_t bi = 0; bi < batch.size(); ++bi)
      for (std::size_t ki = 0; ki < contracted.size(); ++ki)
        for (std::size_t li = 0; li < left.size(); ++li)
          for (std::size_t ri = 0; ri < right.size(); ++ri) {
            const Labels &bo = batch[bi], &ko = contracted[ki], &lo = left[li], &ro = right[ri];
            const bool is_plain =
                !right_first && bi < plain_batch && li < plain_left && ri < plain_right;
            if (!is_plain && !ahead) continue;
            Pick p{bi,
                   ki,
                   li,
                   ri,
                   matrix_ok(a_left[li], a_contracted[ki], a_batch[bi]),
                   matrix_ok(b_contracted[ki], b_right[ri], b_batch[bi]),
                   out == nullptr || matrix_ok(c_left[li], c_right[ri], c_batch[bi]),
                   right_first};
            p.cost = (p.a_ok ? 0 : copy_cost(a, {&lo, &ko, &bo})) +
                     (p.b_ok ? 0 : copy_cost(b, {&ko, &ro, &bo})) +
                     (p.c_ok || !out ? 0 : copy_cost(*out, {&lo, &ro, &bo}));
            p.next_cost =
                ahead ? next_copy_cost(right_first
                                           ? std::initializer_list<const Labels*>{&ro, &lo, &bo}
                                           : std::initializer_list<const Labels*>{&lo, &ro, &bo},
                                       next, sizes)
                      : 0;
            if (is_plain && (plain.cost < 0 || p.cost < plain.cost)) {
              plain = p;
              if (p.cost == 0 && p.next_cost == 0) return layout_of(plain);
            }
            if (ahead && p.next_cost == 0 && (together.cost < 0 || p.cost < together.cost))
              together = p;
          }
  }
  if (together.cost >= 0 && together.cost < plain.cost + plain.next_cost)
    return layout_of(together);
  return layout_of(plain);
}

// `kept`: the labels the step's result carries (ProgramStep::kept).
GemmGroups classify(const Operand& a, const Operand& b, const LabelSet& kept) {
  GemmGroups g;
  for (Label l : a.labels) {
    if (axis_in(b, l) >= 0)
      (kept.contains(l) ? g.batch : g.contracted).push_back(l);
    else
      g.left.push_back(l);
  }
  for (Label l : b.labels)
    if (axis_in(a, l) < 0) g.right.push_back(l);
  return g;
}

Operand compact_copy(Workspace& runtime, ContractionKernels& kernels, const Operand& op,
                     const Labels& order, const std::vector<std::int64_t>& sizes) {
  Operand out = allocate(runtime, op.view.dtype, order, sizes);
  kernels.copy(view_in_order(op, order, sizes), out.view);
  return out;
}

// Sums the labels of `op` that neither `other` nor anyone after this step needs.
Operand presum(Workspace& runtime, ContractionKernels& kernels, Operand op, const Operand& other,
               const LabelSet& needed, const std::vector<std::int64_t>& sizes) {
  Labels kept, reduced;
  for (Label l : op.labels)
    (needed.contains(l) || axis_in(other, l) >= 0 ? kept : reduced).push_back(l);
  if (reduced.empty()) return op;
  kept = by_stride(op, kept);
  Operand out = allocate(runtime, op.view.dtype, kept, sizes);
  kernels.sum_trailing(view_in_order(op, concat(kept, reduced), sizes), out.view,
                       static_cast<int>(reduced.size()));
  return out;
}

GemmProblem gemm_problem(const Operand& a, const Operand& b, const Operand& c,
                         const GemmLayout& g) {
  GemmProblem p;
  p.dtype = a.view.dtype;
  const Fused ai = fuse(a, g.left), ak = fuse(a, g.contracted), ab = fuse(a, g.batch);
  const Fused bk = fuse(b, g.contracted), bj = fuse(b, g.right), bb = fuse(b, g.batch);
  const Fused ci = fuse(c, g.left), cj = fuse(c, g.right), cb = fuse(c, g.batch);
  p.m = ai.size;
  p.n = bj.size;
  p.k = ak.size;
  p.batch = ab.size;
  p.a = a.view.buffer;
  p.a_offset = a.view.offset;
  p.a_stride_m = ai.stride;
  p.a_stride_k = ak.stride;
  p.a_stride_batch = ab.stride;
  p.b = b.view.buffer;
  p.b_offset = b.view.offset;
  p.b_stride_k = bk.stride;
  p.b_stride_n = bj.stride;
  p.b_stride_batch = bb.stride;
  p.c = c.view.buffer;
  p.c_offset = c.view.offset;
  p.c_stride_m = ci.stride;
  p.c_stride_n = cj.stride;
  p.c_stride_batch = cb.stride;
  return p;
}

// A free group that does not fuse into one dimension of its operand (tree networks'
// "abcdefg,d->abcefg": d sits among a..g) costs a permute-copy of the whole operand. Its labels
// by stride split into an inner run that fuses and outer labels; the outer ones can become batch
// labels of a batched GEMM over the inner run instead, with the other operand read once per batch
// (a broadcast view, stride 0): no copy. Worth it while every batch's slab of the operand holds
// at least kMinBatchSlab elements (smaller GEMMs cost more per element than the copy).
constexpr std::int64_t kMinBatchSlab = 512;

// `op` with `labels` appended as broadcast axes (stride 0).
Operand broadcast_over(Operand op, const Labels& labels, const std::vector<std::int64_t>& sizes) {
  op.axes = nullptr;  // its labels grow
  for (Label l : labels) {
    op.labels.push_back(l);
    op.view.shape.push_back(sizes[static_cast<std::size_t>(l)]);
    op.view.strides.push_back(0);
  }
  return op;
}

// The outer labels of `free` in `x` (see kMinBatchSlab), or nothing when the group fuses, does
// not split into an inner run and outer labels that fuse themselves, or the slabs are too small.
Labels outer_labels(const Operand& x, const Labels& free) {
  const Labels ordered = by_stride(x, free);
  // The inner run: the longest prefix of `ordered` that fuses (fuse's rule, in one pass: a
  // prefix fuses while each axis longer than 1 starts where the one before it ends). A group
  // with an empty axis fuses whole (fuse: nothing is touched).
  SmallVector<std::size_t, 8> axes;
  for (Label l : ordered) {
    axes.push_back(static_cast<std::size_t>(axis_in(x, l)));
    if (x.view.shape[axes.back()] == 0) return {};
  }
  std::size_t inner = 0;
  bool first = true;
  std::int64_t expected = 0;
  for (; inner < ordered.size(); ++inner) {
    const std::size_t a = axes[inner];
    const std::int64_t n = x.view.shape[a];
    if (n == 1) continue;
    const std::int64_t s = x.view.strides[a];
    if (!first && s != expected) break;
    first = false;
    expected = s * n;
  }
  if (inner == 0 || inner == ordered.size()) return {};
  const Labels outer(ordered.begin() + static_cast<std::ptrdiff_t>(inner), ordered.end());
  const Fused f = fuse(x, outer);
  if (!f.ok || f.size == 0 || numel_of(x) / f.size < kMinBatchSlab) return {};
  return outer;
}

// The elements `op` stores (its broadcast axes, stride 0, repeat them).
std::int64_t stored_of(const Operand& op) {
  std::int64_t n = 1;
  for (std::size_t a = 0; a < op.view.shape.size(); ++a)
    if (op.view.strides[a] != 0) n *= op.view.shape[a];
  return n;
}

// The larger operand when the one-pass multiply-sum (ContractionKernels::multiply_sum) beats
// layout `g`, else nullptr. It does where the step has a matrix-vector shape (the smaller
// operand's labels are all the larger one's: a GEMM reads each element of the larger once,
// with no reuse to gain) and `g` permute-copies the larger operand: the copy reads and writes
// it, the GEMM reads it again, while the multiply-sum reads it once in its own memory order.
// tree_100's `kpryzWß,przW->kyß`, whose 3.8M-element operand interleaves kept and contracted
// labels in memory, took 10 ms as copy + GEMM (docs/perf/einsum-benchmark.md).
const Operand* multiply_sum_operand(const Operand& a, const Operand& b, const GemmGroups& groups,
                                    const GemmLayout& g, const std::vector<std::int64_t>& sizes) {
  const bool a_larger = stored_of(a) >= stored_of(b);
  const bool larger_copied = a_larger ? !g.a_ok : !g.b_ok;
  if (!larger_copied || group_size(a_larger ? groups.right : groups.left, sizes) != 1)
    return nullptr;
  return a_larger ? &a : &b;
}

// The step as one multiply-sum into `out` or into a new intermediate laid out in `larger`'s
// order of the kept labels (the order the kernel's accumulators follow; the smaller operand's
// free labels, all of extent 1, go last).
std::optional<Operand> multiply_sum_step(Workspace& runtime, ContractionKernels& kernels,
                                         const Operand& a, const Operand& b, const Operand& larger,
                                         const GemmGroups& groups, const Operand* out,
                                         const std::vector<std::int64_t>& sizes) {
  std::optional<Operand> result;
  if (!out)
    result = allocate(runtime, a.view.dtype,
                      by_stride(larger, concat(groups.left, groups.right, groups.batch)), sizes);
  const Operand& dst = out ? *out : *result;
  const Labels order = concat(dst.labels, groups.contracted);
  kernels.multiply_sum(view_in_order(a, order, sizes), view_in_order(b, order, sizes), dst.view,
                       static_cast<int>(groups.contracted.size()));
  return result;
}

// The label tables of a step's two operands (Operand::axes) and of its label lists (LabelSet).
struct StepAxes {
  LabelAxes a, b, needed, next;
};

// One pairwise step. Returns the intermediate, or nothing when it was written into `out`.
std::optional<Operand> contract_pair(Workspace& runtime, ContractionKernels& kernels, Operand a,
                                     Operand b, std::span<const Label> needed_labels,
                                     std::span<const Label> next_labels, const Operand* out,
                                     const std::vector<std::int64_t>& sizes, StepAxes& axes) {
  // Neither operand escapes this step (every result is a new operand), so the tables may
  // serve the next step's operands after it.
  const LabelSet needed{needed_labels, axes.needed.bind(needed_labels)};
  const LabelSet next{next_labels, axes.next.bind(next_labels)};
  a.axes = axes.a.bind(a);
  b.axes = axes.b.bind(b);
  // b's pre-sum reads a's labels after a's: a drops only labels b does not carry.
  a = presum(runtime, kernels, std::move(a), b, needed, sizes);
  if (a.axes == nullptr) a.axes = axes.a.bind(a);
  b = presum(runtime, kernels, std::move(b), a, needed, sizes);
  if (b.axes == nullptr) b.axes = axes.b.bind(b);
  const GemmGroups groups = classify(a, b, needed);
  const DType dtype = a.view.dtype;

  if (groups.contracted.empty()) {  // Hadamard / outer product: one element-wise multiply
    if (out) {
      kernels.multiply(view_in_order(a, out->labels, sizes), view_in_order(b, out->labels, sizes),
                       out->view);
      return std::nullopt;
    }
    Operand result =
        allocate(runtime, dtype, concat(by_stride(a, a.labels), by_stride(b, groups.right)), sizes);
    kernels.multiply(view_in_order(a, result.labels, sizes), view_in_order(b, result.labels, sizes),
                     result.view);
    return result;
  }

  GemmLayout g = choose_layout(a, b, out, groups, next, sizes);
  if (g.cost > 0) {  // a copy: try batching over the outer labels of a free group instead
    for (const bool left : {true, false}) {
      const Labels outer = outer_labels(left ? a : b, left ? groups.left : groups.right);
      if (outer.empty()) continue;
      Operand wa = left ? a : broadcast_over(a, outer, sizes);
      Operand wb = left ? broadcast_over(b, outer, sizes) : b;
      const GemmLayout wide = choose_layout(wa, wb, out, classify(wa, wb, needed), next, sizes);
      if (wide.cost + wide.next_cost < g.cost + g.next_cost) {
        g = wide;
        a = std::move(wa);
        b = std::move(wb);
        break;
      }
    }
  }
  if (g.cost > 0 && kernels.has_multiply_sum()) {
    const GemmGroups now = classify(a, b, needed);  // with any batch split above
    if (const Operand* larger = multiply_sum_operand(a, b, now, g, sizes))
      return multiply_sum_step(runtime, kernels, a, b, *larger, now, out, sizes);
  }
  if (!g.a_ok) a = compact_copy(runtime, kernels, a, concat(g.left, g.contracted, g.batch), sizes);
  if (!g.b_ok) b = compact_copy(runtime, kernels, b, concat(g.contracted, g.right, g.batch), sizes);
  if (out && g.c_ok) {
    kernels.gemm(gemm_problem(a, b, *out, g));
    return std::nullopt;
  }
  Operand c = allocate(
      runtime, dtype,
      g.right_first ? concat(g.right, g.left, g.batch) : concat(g.left, g.right, g.batch), sizes);
  kernels.gemm(gemm_problem(a, b, c, g));
  if (out) {
    kernels.copy(view_in_order(c, out->labels, sizes), out->view);
    return std::nullopt;
  }
  return c;
}

// Writes the last operand into the output: sums what the output drops, permutes the rest.
void finalize(ContractionKernels& kernels, const Operand& op, const Operand& out,
              const std::vector<std::int64_t>& sizes) {
  Labels reduced;
  for (Label l : op.labels)
    if (!has(out.labels, l)) reduced.push_back(l);
  for (Label l : out.labels)
    if (!has(op.labels, l))
      throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "einsum",
                  "internal: an output label is carried by no operand");
  if (reduced.empty())
    kernels.copy(view_in_order(op, out.labels, sizes), out.view);
  else
    kernels.sum_trailing(view_in_order(op, concat(out.labels, reduced), sizes), out.view,
                         static_cast<int>(reduced.size()));
}

Operand output_operand(const EagerTensor& out, const EinsumPlan& plan) {
  return labelled_view(out.buffer().get(), out.dtype(), out.shape(), out.strides(),
                       out.layout().offset, plan.expr.output, plan.sizes);
}

// Axes longer than 1: a tensor with fewer than two has no memory order of its own.
int long_axes(const Shape& shape) {
  int n = 0;
  for (std::int64_t e : shape) n += e > 1 ? 1 : 0;
  return n;
}

bool row_major_compact(const Shape& shape, const Strides& strides) {
  std::int64_t step = 1;
  for (std::size_t a = shape.size(); a-- > 0;) {
    if (shape[a] == 0) return true;  // empty: trivially compact
    if (shape[a] != 1 && strides[a] != step) return false;
    step *= shape[a];
  }
  return true;
}

// Whether the operands (input i of shape_of(i) and strides_of(i)) are in NumPy's C order: at
// least one is a row-major compact block with two axes longer than 1, and none is a
// column-major one; and so the strides of the result (see result_strides).
template <class ShapeOf, class StridesOf>
Strides result_strides_by(const EinsumPlan& plan, std::size_t count, ShapeOf shape_of,
                          StridesOf strides_of) {
  bool c_ordered = false;
  for (std::size_t i = 0; i < count; ++i) {
    const Shape& shape = shape_of(i);
    if (long_axes(shape) < 2) continue;
    const Strides& strides = strides_of(i);
    if (is_col_major_compact(shape, strides)) {
      c_ordered = false;
      break;
    }
    c_ordered = c_ordered || row_major_compact(shape, strides);
  }
  if (long_axes(plan.output_shape) >= 2 && c_ordered) return row_major_strides(plan.output_shape);
  return col_major_strides(plan.output_shape);
}

}  // namespace

Strides result_strides_for(const EinsumPlan& plan, std::span<const Strides> input_strides) {
  return result_strides_by(
      plan, input_strides.size(),
      [&](std::size_t i) -> const Shape& { return plan.input_shapes[i]; },
      [&](std::size_t i) -> const Strides& { return input_strides[i]; });
}

Strides result_strides(const EinsumPlan& plan, std::span<const EagerTensor> inputs) {
  return result_strides_by(
      plan, inputs.size(), [&](std::size_t i) -> const Shape& { return inputs[i].shape(); },
      [&](std::size_t i) -> const Strides& { return inputs[i].strides(); });
}

EagerTensor fresh_output(EagerRuntime& runtime, const EinsumPlan& plan, const Strides& strides) {
  EagerTensor result = runtime.empty(plan.dtype, plan.output_shape);
  if (strides == result.strides()) return result;
  TensorLayout layout = result.layout();  // the same compact buffer, walked in C order
  layout.strides = strides;
  return EagerTensor(result.runtime(), result.buffer(), std::move(layout));
}

EagerTensor run_program(EagerRuntime& runtime, ContractionKernels& kernels, const EinsumPlan& plan,
                        std::span<const EagerTensor> inputs) {
  if (const DirectGemm* direct = matching_direct_gemm(plan, inputs))
    return run_direct_gemm(runtime, kernels, plan, *direct, inputs);
  const EagerTensor result = fresh_output(runtime, plan, result_strides(plan, inputs));
  run_program_into(runtime, kernels, plan, inputs, result);
  return result;
}

namespace {

// The program with its layout search, step by step (the calls a Replay records).
void search_and_run(Workspace& workspace, ContractionKernels& kernels, const EinsumPlan& plan,
                    std::span<const EagerTensor> inputs, const EagerTensor& result,
                    bool release_early) {
  // Every operand, inputs then one result per step, stays in its slot: step s reads the two
  // slots the plan names (ProgramStep::lhs_slot, rhs_slot) and its result is slot n + s.
  // Erasing from a list of Operands moved every operand behind the two on each step: a quarter
  // of a warm call on a 200-tensor network, and O(n^2) on 200000 operands.
  std::vector<Operand> slots;
  slots.reserve(inputs.size() + plan.steps.size());
  for (std::size_t i = 0; i < inputs.size(); ++i)
    slots.push_back(input_operand(inputs[i], plan.expr.inputs[i], plan.sizes));

  Operand out = output_operand(result, plan);
  LabelAxes out_axes(plan.sizes.size());
  out.axes = out_axes.bind(out);
  const std::size_t labels = plan.sizes.size();
  StepAxes step_axes{LabelAxes(labels), LabelAxes(labels), LabelAxes(labels), LabelAxes(labels)};
  if (plan.output_has_repeats) {  // i->ii: only the diagonal is written below
    KernelView whole{result.buffer().get(), plan.dtype, result.shape(), result.strides(),
                     result.layout().offset};
    kernels.fill_zero(whole);
  }

  bool written = false;
  for (std::size_t s = 0; s < plan.steps.size(); ++s) {
    const ProgramStep& step = plan.steps[s];
    const bool last = s + 1 == plan.steps.size();
    Operand a = std::move(slots[static_cast<std::size_t>(step.lhs_slot)]);
    Operand b = std::move(slots[static_cast<std::size_t>(step.rhs_slot)]);
    const Buffer* consumed_a = a.storage.buffer().get();  // null for inputs
    const Buffer* consumed_b = b.storage.buffer().get();
    auto r = contract_pair(workspace, kernels, std::move(a), std::move(b), step.kept,
                           step.next_contracted, last ? &out : nullptr, plan.sizes, step_axes);
    if (r) {
      slots.push_back(std::move(*r));  // slot n + s
    } else {
      written = true;  // the last step wrote into the output
    }
    // The CPU kernels are done when they return: this step's consumed intermediates and
    // temporaries can serve the next steps (device queues keep them to the call's end).
    if (release_early) workspace.release_unused({consumed_a, consumed_b});
  }
  // What is left: the last step's result (or the one input of a path without steps).
  if (!written) finalize(kernels, slots.back(), out, plan.sizes);
}

}  // namespace

void run_program_into(EagerRuntime& runtime, ContractionKernels& kernels, const EinsumPlan& plan,
                      std::span<const EagerTensor> inputs, const EagerTensor& result) {
  if (inputs.size() != plan.expr.inputs.size())
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "einsum",
                "internal: operand count differs from the plan");
  Workspace workspace(runtime);  // declared first: its buffers return after the operands die
  // The CPU kernels are done when they return: a step's consumed intermediates and temporaries
  // can serve the next steps (device queues keep them to the call's end).
  const bool release_early = runtime.backend_kind() == BackendKind::Cpu;
  if (!plan.replay) {
    search_and_run(workspace, kernels, plan, inputs, result, release_early);
    return;
  }
  if (const std::shared_ptr<const Replay> replay = plan.replay->find(kernels, inputs, result)) {
    replay->play(workspace, kernels, inputs, result, release_early);
    return;
  }
  ReplayRecorder recorder(kernels, inputs, result, plan.steps.size());
  workspace.observe(&recorder);
  search_and_run(workspace, recorder, plan, inputs, result, release_early);
  workspace.observe(nullptr);
  if (std::shared_ptr<const Replay> recorded = recorder.finish())
    plan.replay->add(std::move(recorded));
}

std::optional<GemmProblem> single_gemm(const EinsumPlan& plan,
                                       std::span<const Strides> input_strides,
                                       const Strides& out_strides) {
  if (!plan.direct_candidate || plan.steps.size() != 1 || input_strides.size() != 2)
    return std::nullopt;
  // contract_pair's last step on these operands, without buffers: the pre-sums do nothing
  // (direct_candidate), the layout search is the same, and a layout that copies nothing is
  // the GEMM it would run.
  const ProgramStep& step = plan.steps[0];
  const auto operand = [&](int slot) {
    const auto i = static_cast<std::size_t>(slot);
    return labelled_view(nullptr, plan.dtype, plan.input_shapes[i], input_strides[i], 0,
                         plan.expr.inputs[i], plan.sizes);
  };
  const Operand a = operand(step.lhs_slot), b = operand(step.rhs_slot);
  const Operand out = labelled_view(nullptr, plan.dtype, plan.output_shape, out_strides, 0,
                                    plan.expr.output, plan.sizes);
  const GemmGroups groups = classify(a, b, LabelSet{step.kept});
  const GemmLayout g =
      choose_layout(a, b, &out, groups, LabelSet{step.next_contracted}, plan.sizes);
  if (g.cost != 0 || !g.a_ok || !g.b_ok || !g.c_ok) return std::nullopt;
  return gemm_problem(a, b, out, g);
}

bool direct_binary_applicable(const EinsumPlan& plan, std::span<const EagerTensor> inputs) {
  if (!plan.direct_candidate || inputs.size() != 2) return false;
  if (matching_direct_gemm(plan, inputs)) return true;  // worked out when the plan was built
  const Strides strides[] = {inputs[0].strides(), inputs[1].strides()};
  return single_gemm(plan, strides, result_strides_for(plan, strides)).has_value();
}

}  // namespace tenferro::einsum_internal
