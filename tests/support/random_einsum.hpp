// A randomized generator of einsum expressions for tests, and a backend-parametrized checker
// that runs generated cases on any runtime and compares them with the naive reference.
// Cases cover random labels (both cases), repeated labels (traces, diagonals), implicit and
// explicit outputs (sometimes with a repeated label: diagonal embedding), ellipses with NumPy
// broadcasting, letters' extents of 1 broadcast against longer ones, zero-size extents, ranks 0-6
// and 1-8 operands, with small sizes so the reference stays cheap.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "support/random_tensor.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::testing {

struct RandomEinsumCase {
  std::string subscripts;
  std::vector<Shape> shapes;
  std::string describe() const;  // "ij,jk->ik with [2, 3] [3, 4]"
};

struct RandomEinsumLimits {
  int max_operands = 8;
  int max_rank = 6;
  std::int64_t max_extent = 3;
  std::int64_t max_loop = 4096;  // product of all label sizes (the reference's work)
  double zero_size_probability = 0.05;
  double ellipsis_probability = 0.25;
  double implicit_probability = 0.25;
  double repeated_output_probability = 0.1;  // "i->ii" style embeddings
  double label_broadcast_probability = 0.1;  // a letter's axis at extent 1 (NumPy broadcasts)
};

RandomEinsumCase random_einsum_case(std::mt19937_64& rng, const RandomEinsumLimits& limits = {});

// Uploads `host` into `runtime`; with `strided`, as a permuted (non-compact) view holding the
// same logical values.
EagerTensor upload_maybe_strided(const std::shared_ptr<EagerRuntime>& runtime, const Tensor& host,
                                 std::mt19937_64& rng, bool strided);

// Runs `count` generated cases for every dtype on `runtime`, each compared with the
// reference; failures are reported through GoogleTest with the case and the seed.
// Returns the number of cases checked.
int check_random_einsum_cases(const std::shared_ptr<EagerRuntime>& runtime,
                              std::span<const DType> dtypes, int count, std::uint64_t seed,
                              const EinsumOptions& options = {},
                              const RandomEinsumLimits& limits = {});

}  // namespace tenferro::testing
