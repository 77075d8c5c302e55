// Path evaluation: validates a linear path and computes opt_einsum's cost figures and the
// per-step report; also the search problem's construction and SSA -> linear conversion.
#include <algorithm>
#include <string>

#include "ops/einsum/interrupt_poll.hpp"
#include "ops/einsum/live_order.hpp"
#include "ops/einsum/path_search.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::einsum_internal {
namespace {

constexpr const char* kOp = "einsum";
// A step's `remaining` lists at most this many operands, then how many more: written out in
// full it is O(n) per step, so the report of n operands took O(n^2) time and memory (10000
// operands: 200 MB of text before the first step ran).
constexpr int kReportTerms = 64;

void set_bit(std::span<Word> set, Label l) {
  set[static_cast<std::size_t>(l) / 64] |= Word{1} << (static_cast<std::size_t>(l) % 64);
}
bool has_bit(std::span<const Word> set, Label l) {
  return (set[static_cast<std::size_t>(l) / 64] >> (static_cast<std::size_t>(l) % 64)) & 1;
}

// One code point in UTF-8 (a label as the subscripts gave it), as opposed to an ellipsis
// dimension's "..0" or a multi-digit integer label of the sublist form.
bool is_one_code_point(const std::string& s) {
  if (s.empty()) return false;
  const auto b0 = static_cast<unsigned char>(s[0]);
  const std::size_t len = b0 < 0x80 ? 1 : (b0 & 0xE0) == 0xC0 ? 2 : (b0 & 0xF0) == 0xE0 ? 3 : 4;
  return s.size() == len && s != "." && s != "," && s != "-" && s != ">";
}

// One symbol per label for reports: a label keeps its own (so Unicode and digit labels print
// back as given); others (ellipsis dims, integer labels) take the unused letters, then
// "{name}" once the 52 letters run out.
std::vector<std::string> report_symbols(const EinsumExpression& expr, int num_labels) {
  std::vector<std::string> symbols(static_cast<std::size_t>(num_labels));
  std::vector<bool> used(128, false);
  for (int l = 0; l < num_labels; ++l) {
    const auto i = static_cast<std::size_t>(l);
    if (i < expr.label_names.size() && is_one_code_point(expr.label_names[i])) {
      symbols[i] = expr.label_names[i];
      const auto b0 = static_cast<unsigned char>(expr.label_names[i][0]);
      if (b0 < 0x80) used[b0] = true;
    }
  }
  const std::string letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  std::size_t next = 0;
  for (int l = 0; l < num_labels; ++l) {
    auto& symbol = symbols[static_cast<std::size_t>(l)];
    if (!symbol.empty()) continue;
    while (next < letters.size() && used[static_cast<unsigned char>(letters[next])]) ++next;
    if (next < letters.size()) {
      symbol = letters.substr(next++, 1);
    } else {
      const auto i = static_cast<std::size_t>(l);
      symbol = "{" + (i < expr.label_names.size() ? expr.label_names[i] : std::to_string(l)) + "}";
    }
  }
  return symbols;
}

// A term's label set is `words` entries of evaluate_path's one array for every term (a vector
// per term was an allocation per operand and per step).
struct Term {
  std::vector<Label> order;  // labels as written (leaves keep repeats), for reports
  int leaf = -1;             // the input operand this is, or -1 for an intermediate
};

}  // namespace

PathProblem make_path_problem(const EinsumExpression& expr, std::span<const std::int64_t> sizes) {
  PathProblem p;
  p.num_operands = static_cast<int>(expr.inputs.size());
  p.num_labels = num_labels(expr);
  if (static_cast<std::int64_t>(sizes.size()) < p.num_labels) {
    throw_validation(kOp, "label sizes cover " + std::to_string(sizes.size()) +
                              " labels but the expression has " + std::to_string(p.num_labels));
  }
  p.words = words_for(p.num_labels);
  const auto words = static_cast<std::size_t>(p.words);
  const auto n = static_cast<std::size_t>(p.num_operands);
  p.full_inputs.assign(n * words, 0);
  p.output.assign(words, 0);
  for (std::size_t k = 0; k < n; ++k) {
    std::span<Word> set(p.full_inputs.data() + k * words, words);
    for (Label l : expr.inputs[k]) set_bit(set, l);
  }
  for (Label l : expr.output) set_bit(p.output, l);
  for (int l = 0; l < p.num_labels; ++l) {
    const auto extent = static_cast<double>(sizes[static_cast<std::size_t>(l)]);
    p.extents.push_back(extent);
    p.search_extents.push_back(std::max(extent, 1.0));
  }
  // Reduced sets: drop the labels no other operand and not the output has (with a single
  // operand there is no pairwise step, so nothing to reduce separately).
  std::vector<Word> once(words, 0), twice(words, 0);
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t w = 0; w < words; ++w) {
      const Word bits = p.full_inputs[k * words + w];
      twice[w] |= once[w] & bits;
      once[w] |= bits;
    }
  }
  p.inputs = p.full_inputs;
  p.reduction_flops.assign(n, 0);
  for (std::size_t k = 0; k < n && n > 1; ++k) {
    bool reduced = false;
    for (std::size_t w = 0; w < words; ++w) {
      Word& bits = p.inputs[k * words + w];
      const Word kept = bits & (twice[w] | p.output[w]);
      reduced |= kept != bits;
      bits = kept;
    }
    if (reduced) p.reduction_flops[k] = 2 * set_size(p.full_input(static_cast<int>(k)), p.extents);
  }
  return p;
}

std::vector<std::pair<int, int>> ssa_to_linear(const SsaPath& ssa, int num_operands) {
  // SSA ids are the slots of LiveOrder: O(log n) per step.
  LiveOrder order(num_operands + static_cast<int>(ssa.size()), num_operands);
  std::vector<std::pair<int, int>> linear;
  linear.reserve(ssa.size());
  int next_id = num_operands;
  for (const auto& [a, b] : ssa) {
    const int ia = order.position(a), ib = order.position(b);
    linear.emplace_back(std::min(ia, ib), std::max(ia, ib));
    order.remove(a);
    order.remove(b);
    order.add(next_id++);
  }
  return linear;
}

EinsumPath evaluate_path(const EinsumExpression& expr, const PathProblem& p,
                         std::span<const std::pair<int, int>> steps, bool step_text) {
  const int n = p.num_operands;
  const auto words = static_cast<std::size_t>(p.words);
  const std::size_t needed = n > 0 ? static_cast<std::size_t>(n - 1) : 0;
  if (steps.size() != needed) {
    throw_validation(kOp, "the path has " + std::to_string(steps.size()) + " step(s) but " +
                              std::to_string(n) + " operand(s) need exactly " +
                              std::to_string(needed));
  }
  // The report's symbols, expression and label orders serve the text only: an einsum call's
  // plan has none (on 200 operands they were a third of planning an explicit path).
  const auto symbols = step_text ? report_symbols(expr, p.num_labels) : std::vector<std::string>{};
  auto text = [&](const std::vector<Label>& labels) {
    std::string s;
    for (Label l : labels) s += symbols[static_cast<std::size_t>(l)];
    return s;
  };
  // terms: by slot (inputs, then one per step); live: which slots are the current list.
  InterruptPoll poll(p.interrupt);  // here too: the prologue and the report are O(n)
  std::vector<Term> terms;
  terms.reserve(static_cast<std::size_t>(2 * n));
  std::vector<Word> sets(static_cast<std::size_t>(2 * n) * words, 0);
  const auto set_of = [&](std::size_t slot) {
    return std::span<Word>(sets.data() + slot * words, words);
  };
  for (int k = 0; k < n; ++k) {
    poll();
    const auto in = p.input(k);  // reduced; the reduction is charged when the operand is used
    std::copy(in.begin(), in.end(), set_of(static_cast<std::size_t>(k)).begin());
    terms.push_back(
        {step_text ? expr.inputs[static_cast<std::size_t>(k)] : std::vector<Label>{}, k});
  }
  LiveOrder live(2 * n, n);
  auto expression_of = [&](int limit) {
    std::string s;
    const int shown = std::min(live.size(), limit);
    for (int k = 0, slot = live.next(0); k < shown; ++k, slot = live.next(slot + 1)) {
      poll();
      s += (k ? "," : "") + text(terms[static_cast<std::size_t>(slot)].order);
    }
    if (shown < live.size()) s += ",...(" + std::to_string(live.size() - shown) + " more)";
    return s + "->" + text(expr.output);
  };

  EinsumPath path;
  path.steps.assign(steps.begin(), steps.end());
  if (step_text) path.expression = expression_of(n);

  // Naive cost: one loop nest over every label (opt_einsum's naive_cost).
  std::vector<Word> all(words, 0);
  int label_slots = 0;
  for (int k = 0; k < n; ++k) {
    const auto in = p.full_input(k);
    for (std::size_t w = 0; w < words; ++w) all[w] |= in[w];
    label_slots += set_count(in);
  }
  path.naive_scaling = set_count(all);
  const bool naive_inner = label_slots > path.naive_scaling;
  path.naive_flops = set_size(all, p.extents) * (std::max(1, n - 1) + (naive_inner ? 1 : 0));

  if (n == 1) {  // no pairwise step; the single operand is reduced to the output directly
    bool sums = false;
    for (std::size_t w = 0; w < words; ++w) sums |= (set_of(0)[w] & ~p.output[w]) != 0;
    path.flops = set_size(set_of(0), p.extents) * (sums ? 2 : 1);
    path.largest_intermediate = set_size(p.output, p.extents);
    return path;
  }

  // holders[l]: how many live terms hold label l, so a step finds the labels a third term
  // still needs from its own two operands' labels, not by scanning every live term (which
  // made evaluation quadratic per step in the operand count).
  std::vector<int> holders(static_cast<std::size_t>(p.num_labels), 0);
  auto for_each_label = [&](std::span<const Word> set, auto&& fn) {
    for (std::size_t w = 0; w < words; ++w)
      for (Word bits = set[w]; bits; bits &= bits - 1)
        fn(static_cast<Label>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits))));
  };
  for (std::size_t k = 0; k < terms.size(); ++k)
    for_each_label(set_of(k), [&](Label l) { ++holders[static_cast<std::size_t>(l)]; });
  path.details.reserve(steps.size());

  std::vector<Word> merged(words), kept(words);
  for (std::size_t s = 0; s < steps.size(); ++s) {
    poll();
    const auto [i, j] = steps[s];
    const int current = live.size();
    // Only for an error: a string per step cost a first call. (Structured bindings are
    // captured by copy: clang before 16 cannot capture them.)
    const auto where = [s, i = i, j = j] {
      return "path step " + std::to_string(s) + " (" + std::to_string(i) + ", " +
             std::to_string(j) + ")";
    };
    if (i < 0 || j < 0 || i >= current || j >= current) {
      throw_validation(kOp, where() + " names an operand outside 0.." +
                                std::to_string(current - 1) +
                                " (operands left at that step: " + std::to_string(current) + ")");
    }
    if (i == j) throw_validation(kOp, where() + " contracts an operand with itself");
    const int slot_a = live.slot_at(i), slot_b = live.slot_at(j);
    const Term& a = terms[static_cast<std::size_t>(slot_a)];
    const Term& b = terms[static_cast<std::size_t>(slot_b)];
    const std::span<const Word> a_set = set_of(static_cast<std::size_t>(slot_a)),
                                b_set = set_of(static_cast<std::size_t>(slot_b));
    // Labels still needed after this step: the output's and those a third operand holds.
    for (std::size_t w = 0; w < words; ++w) {
      merged[w] = a_set[w] | b_set[w];
      kept[w] = merged[w] & p.output[w];
    }
    for_each_label(a_set, [&](Label l) { --holders[static_cast<std::size_t>(l)]; });
    for_each_label(b_set, [&](Label l) { --holders[static_cast<std::size_t>(l)]; });
    for_each_label(merged, [&](Label l) {
      if (holders[static_cast<std::size_t>(l)] > 0) set_bit(kept, l);
    });
    for_each_label(kept, [&](Label l) { ++holders[static_cast<std::size_t>(l)]; });
    bool sums = false;
    for (std::size_t w = 0; w < words; ++w) sums |= merged[w] != kept[w];
    EinsumPathStep step;
    step.flops = set_size(merged, p.extents) * (sums ? 2 : 1);
    for (const auto& [t, set] : {std::pair{&a, a_set}, std::pair{&b, b_set}}) {
      if (t->leaf < 0 || p.reduction_flops[static_cast<std::size_t>(t->leaf)] == 0) continue;
      step.flops += p.reduction_flops[static_cast<std::size_t>(t->leaf)];
      path.largest_intermediate = std::max(path.largest_intermediate, set_size(set, p.extents));
    }
    step.scaling = set_count(merged);
    path.flops += step.flops;
    path.largest_intermediate = std::max(path.largest_intermediate, set_size(kept, p.extents));

    Term result{{}, -1};
    if (!step_text) {
      // The labels' order serves the step texts only.
    } else if (current == 2) {
      result.order = expr.output;
    } else {
      for (const Term* t : {&a, &b}) {
        for (Label l : t->order) {
          if (has_bit(kept, l) &&
              std::find(result.order.begin(), result.order.end(), l) == result.order.end()) {
            result.order.push_back(l);
          }
        }
      }
    }
    if (step_text)
      step.subscripts = text(a.order) + "," + text(b.order) + "->" + text(result.order);
    live.remove(slot_a);
    live.remove(slot_b);
    terms.push_back(std::move(result));  // reserved: a and b stay valid until here
    std::copy(kept.begin(), kept.end(), set_of(terms.size() - 1).begin());
    live.add(static_cast<int>(terms.size()) - 1);
    if (step_text) step.remaining = expression_of(kReportTerms);
    path.details.push_back(std::move(step));
  }
  return path;
}

}  // namespace tenferro::einsum_internal
