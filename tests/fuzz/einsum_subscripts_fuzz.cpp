// libFuzzer target for the einsum subscript parser.
//
// Input layout: byte 0 chooses how ranks are derived, the rest is the subscripts string.
//   bit 7 set   -> "consistent" ranks: each operand's rank is its term's label count (ASCII
//                  letters and digits, and UTF-8 lead bytes: any non-ASCII code point is a
//                  label) plus,
//                  when the term has '...', 0-3 extra dims taken from bits 0-6 (so most
//                  inputs parse and the ellipsis/size paths get exercised);
//   bit 7 clear -> arbitrary small ranks (0-7) from the following rank seed bytes, to reach
//                  the rank/operand-count errors.
// Every parse that succeeds is checked for internal consistency and fed to label_sizes with
// extents drawn from the input; when that succeeds too (and the network is small), every
// planning strategy runs and its path is checked for shape. Only tenferro::Error may escape
// the library; anything else (another exception, a broken invariant, a sanitizer report)
// is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "tenferro/core/error.hpp"

namespace {

using tenferro::einsum_internal::EinsumExpression;
using tenferro::einsum_internal::Label;

constexpr std::size_t kMaxOperands = 64;

void require(bool ok) {
  if (!ok) std::abort();
}

std::vector<std::int64_t> derive_ranks(std::uint8_t control, std::string_view subscripts) {
  std::vector<std::int64_t> ranks;
  std::string_view inputs = subscripts.substr(0, subscripts.find("->"));
  std::int64_t letters = 0;
  bool ellipsis = false;
  std::size_t seed = 0;
  auto finish_term = [&] {
    std::int64_t rank;
    if (control & 0x80) {
      rank = letters + (ellipsis ? (control >> (2 * (ranks.size() % 3))) & 3 : 0);
    } else {
      rank = static_cast<std::uint8_t>(
                 subscripts.empty() ? 0 : subscripts[seed++ % subscripts.size()]) %
             8;
    }
    ranks.push_back(rank);
    letters = 0;
    ellipsis = false;
  };
  for (std::size_t i = 0; i < inputs.size() && ranks.size() < kMaxOperands; ++i) {
    const char c = inputs[i];
    if (c == ',') {
      finish_term();
    } else if (c == '.' && inputs.substr(i, 3) == "...") {
      ellipsis = true;
      i += 2;
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               static_cast<unsigned char>(c) >= 0xC0) {
      ++letters;  // an ASCII label, or the lead byte of a non-ASCII (UTF-8) one
    }
  }
  finish_term();
  if ((control & 0x81) == 0x01) ranks.push_back(1);  // sometimes one operand too many
  return ranks;
}

void check_expression(const EinsumExpression& expr, const std::vector<std::int64_t>& ranks) {
  const Label n = tenferro::einsum_internal::num_labels(expr);
  require(expr.inputs.size() == ranks.size());
  require(expr.label_names.size() == static_cast<std::size_t>(n));
  std::vector<bool> in_input(static_cast<std::size_t>(n), false);
  for (std::size_t k = 0; k < ranks.size(); ++k) {
    require(static_cast<std::int64_t>(expr.inputs[k].size()) == ranks[k]);
    for (Label l : expr.inputs[k]) {
      require(l >= 0 && l < n);
      in_input[static_cast<std::size_t>(l)] = true;
    }
  }
  for (Label l : expr.output) require(l >= 0 && l < n && in_input[static_cast<std::size_t>(l)]);
  for (bool seen : in_input) require(seen);  // ids are dense
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t control = data[0];
  const std::string_view subscripts(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::vector<std::int64_t> ranks = derive_ranks(control, subscripts);
  try {
    const EinsumExpression expr = tenferro::einsum_internal::parse_subscripts(subscripts, ranks);
    check_expression(expr, ranks);
    // Extents 0-3 from the input bytes: equal extents are common enough to pass sometimes.
    std::vector<tenferro::Shape> shapes;
    std::size_t cursor = 0;
    for (std::int64_t rank : ranks) {
      tenferro::Shape shape;
      for (std::int64_t a = 0; a < rank; ++a) shape.push_back(data[cursor++ % size] % 4);
      shapes.push_back(shape);
    }
    const auto sizes = tenferro::einsum_internal::label_sizes(expr, shapes);
    require(sizes.size() == expr.label_names.size());
    for (std::size_t k = 0; k < shapes.size(); ++k) {
      for (std::size_t a = 0; a < shapes[k].size(); ++a) {
        const auto s = sizes[static_cast<std::size_t>(expr.inputs[k][a])];
        require(s == shapes[k][a] || shapes[k][a] == 1);
      }
    }
    if (ranks.size() <= 12) {
      for (auto strategy : {tenferro::PathStrategy::Auto, tenferro::PathStrategy::Greedy,
                            tenferro::PathStrategy::Optimal}) {
        tenferro::EinsumOptions options;
        options.strategy = strategy;
        const auto path = tenferro::einsum_internal::plan_path(expr, sizes, options);
        require(path.steps.size() == ranks.size() - 1);
        require(path.details.size() == path.steps.size());
        require(path.flops >= 0 && path.largest_intermediate >= 0);
        (void)path.to_string();
      }
    }
  } catch (const tenferro::Error&) {
    // Validation errors are the expected answer to bad input.
  }
  return 0;
}
