#include "random_einsum.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <sstream>

#include "einsum_reference.hpp"

namespace tenferro::testing {
namespace {

constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

bool chance(std::mt19937_64& rng, double p) {
  return std::uniform_real_distribution<>(0, 1)(rng) < p;
}

int uniform(std::mt19937_64& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

// The axis in an operand's shape of the letter at `pos` of its term, whose "..." (if any) stands
// for `ellipsis_axes` axes.
std::size_t shape_axis(const std::string& term, std::size_t pos, std::size_t ellipsis_axes) {
  const auto dots = term.find("...");
  if (dots == std::string::npos || pos < dots) return pos;
  return pos - 3 + ellipsis_axes;
}

}  // namespace

std::string RandomEinsumCase::describe() const {
  std::ostringstream s;
  s << '"' << subscripts << "\" with";
  for (const auto& shape : shapes) s << ' ' << shape_to_string(shape);
  return s.str();
}

RandomEinsumCase random_einsum_case(std::mt19937_64& rng, const RandomEinsumLimits& limits) {
  for (;;) {
    const int operands = uniform(rng, 1, limits.max_operands);
    // A pool of labels, each with a size.
    const int pool = uniform(rng, 1, 8);
    std::vector<char> letters;
    std::vector<std::int64_t> sizes;
    std::string all(kLetters);
    std::shuffle(all.begin(), all.end(), rng);
    for (int i = 0; i < pool; ++i) {
      letters.push_back(all[static_cast<std::size_t>(i)]);
      sizes.push_back(chance(rng, limits.zero_size_probability)
                          ? 0
                          : uniform(rng, 1, static_cast<int>(limits.max_extent)));
    }
    // Ellipsis: a few broadcast dimensions shared (right-aligned) by the operands using it.
    const bool ellipsis = chance(rng, limits.ellipsis_probability);
    const int ell_rank = ellipsis ? uniform(rng, 0, 2) : 0;
    std::vector<std::int64_t> ell_sizes;
    for (int k = 0; k < ell_rank; ++k) ell_sizes.push_back(uniform(rng, 1, 3));

    RandomEinsumCase c;
    std::vector<int> uses(letters.size(), 0);
    bool any_ellipsis = false;
    std::int64_t loop = 1;
    for (int op = 0; op < operands; ++op) {
      const bool has_ell = ellipsis && chance(rng, 0.7);
      any_ellipsis = any_ellipsis || has_ell;
      const int my_ell = has_ell ? uniform(rng, 0, ell_rank) : 0;
      const int max_letters = std::max(0, limits.max_rank - my_ell);
      const int rank = uniform(rng, 0, std::min(max_letters, 4));
      std::string term;
      Shape shape;
      const int ell_pos = uniform(rng, 0, rank);
      for (int a = 0; a <= rank; ++a) {
        if (has_ell && a == ell_pos) {
          term += "...";
          for (int k = ell_rank - my_ell; k < ell_rank; ++k)
            shape.push_back(chance(rng, 0.3) ? 1 : ell_sizes[static_cast<std::size_t>(k)]);
        }
        if (a == rank) break;
        const auto l = static_cast<std::size_t>(uniform(rng, 0, pool - 1));
        // NumPy broadcasts an extent of 1 against the label's extent in other operands; a
        // label repeated in this operand (a diagonal) keeps the extent it has here.
        const auto again = term.find(letters[l]);
        const std::int64_t extent =
            again != std::string::npos
                ? shape[shape_axis(term, again, static_cast<std::size_t>(my_ell))]
            : chance(rng, limits.label_broadcast_probability) ? 1
                                                              : sizes[l];
        term += letters[l];
        shape.push_back(extent);
        ++uses[l];
      }
      if (op > 0) c.subscripts += ',';
      c.subscripts += term;
      c.shapes.push_back(shape);
    }
    for (std::size_t l = 0; l < letters.size(); ++l)
      if (uses[l]) loop *= std::max<std::int64_t>(1, sizes[l]);
    for (auto e : ell_sizes) loop *= e;
    if (loop > limits.max_loop) continue;
    if (!chance(rng, limits.implicit_probability)) {
      std::string out;
      std::vector<std::size_t> used;
      for (std::size_t l = 0; l < letters.size(); ++l)
        if (uses[l] && chance(rng, 0.5)) used.push_back(l);
      std::shuffle(used.begin(), used.end(), rng);
      for (std::size_t l : used) out += letters[l];
      // Diagonal embedding (i->ii): a kept label repeated in the output.
      if (!out.empty() && chance(rng, limits.repeated_output_probability))
        out.insert(
            static_cast<std::size_t>(uniform(rng, 0, static_cast<int>(out.size()))), 1,
            out[static_cast<std::size_t>(uniform(rng, 0, static_cast<int>(out.size()) - 1))]);
      if (any_ellipsis)
        out.insert(static_cast<std::size_t>(uniform(rng, 0, static_cast<int>(out.size()))), "...");
      c.subscripts += "->" + out;
    }
    return c;
  }
}

EagerTensor upload_maybe_strided(const std::shared_ptr<EagerRuntime>& runtime, const Tensor& host,
                                 std::mt19937_64& rng, bool strided) {
  if (!strided || host.rank() < 2) return runtime->upload(host);
  std::vector<std::int64_t> perm(static_cast<std::size_t>(host.rank()));
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<std::int64_t> inverse(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i)
    inverse[static_cast<std::size_t>(perm[i])] = static_cast<std::int64_t>(i);
  const Tensor permuted = host.permute(perm).clone();  // compact, axes in `perm` order
  return runtime->upload(permuted).permute(inverse);   // same logical values as `host`
}

int check_random_einsum_cases(const std::shared_ptr<EagerRuntime>& runtime,
                              std::span<const DType> dtypes, int count, std::uint64_t seed,
                              const EinsumOptions& options, const RandomEinsumLimits& limits) {
  std::mt19937_64 rng(seed);
  int checked = 0;
  for (int i = 0; i < count; ++i) {
    const RandomEinsumCase c = random_einsum_case(rng, limits);
    for (DType dtype : dtypes) {
      std::vector<Tensor> hosts;
      std::vector<EagerTensor> eager;
      for (const auto& shape : c.shapes) {
        hosts.push_back(random_tensor(rng, dtype, shape));
        eager.push_back(upload_maybe_strided(runtime, hosts.back(), rng, chance(rng, 0.3)));
      }
      const ReferenceResult want = reference_einsum(c.subscripts, hosts);
      try {
        const Tensor got = einsum(c.subscripts, eager, options).download();
        const Agreement a = compare_with_reference(got, want);
        EXPECT_TRUE(a.ok) << c.describe() << " " << dtype_name(dtype) << " (seed " << seed
                          << ", case " << i << "): " << a.detail;
      } catch (const std::exception& e) {
        ADD_FAILURE() << c.describe() << " " << dtype_name(dtype) << " (seed " << seed << ", case "
                      << i << ") threw: " << e.what();
      }
      ++checked;
    }
  }
  return checked;
}

}  // namespace tenferro::testing
