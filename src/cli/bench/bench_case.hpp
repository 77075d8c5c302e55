// One case of `tenferro bench`: host inputs, the eager call, the same computation called on
// the backend's executor directly (no dispatch), and a numerical check run outside the timed
// loops.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tenferro/core/tensor.hpp"
#include "tenferro/runtime/admission.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::cli::bench {

using EagerCall = std::function<std::vector<EagerTensor>(std::span<const EagerTensor>)>;

struct BenchCase {
  std::string name;         // "einsum", "qr", "svd", "eigh", "fft"
  std::string description;  // e.g. "ij,jk,kl->il, 3 x 64x64"
  DType dtype = DType::F64;
  // The family table and op name that say whether a backend runs this case: an Unsupported
  // answer is a correct refusal only where the table does not admit (op, backend, dtype).
  const AdmissionTable* admission = nullptr;
  std::string admission_op;
  std::vector<Tensor> inputs;
  EagerCall eager;
  // Builds (once, outside the timed loop) the direct call: the family's executor for this
  // runtime's engine, called with an execution context but without the dispatch steps.
  std::function<EagerCall(const std::shared_ptr<EagerRuntime>&)> prepare_direct;
  // Throws std::runtime_error describing the mismatch when the outputs are wrong.
  std::function<void(std::span<const Tensor> inputs, std::span<const Tensor> outputs)> check;
};

// The problem sizes: the defaults are the gate's; tiny sizes (e.g. 4 and 16) make the
// kernels cheap enough that the eager-over-direct difference is resolvable on a noisy machine.
struct CaseSizes {
  std::int64_t matrix = 64;  // einsum operands, QR and SVD inputs: matrix x matrix
  std::int64_t fft_length = 4096;
};

// The cases for a backend; dtypes follow what the backend admits (F32 on WebGPU).
std::vector<BenchCase> make_cases(BackendKind backend, const std::vector<std::string>& names,
                                  const CaseSizes& sizes = {});
// Every case name, in the order they run.
const std::vector<std::string>& all_case_names();

}  // namespace tenferro::cli::bench
