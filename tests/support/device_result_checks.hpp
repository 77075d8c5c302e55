// The residency and parity checks every device backend's einsum tests make on a result.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "tenferro/runtime/runtime.hpp"

namespace tenferro::testing {

// Uploads `host` as a non-compact view with the same logical values: a transposed copy is
// uploaded and viewed back through the inverse (reversing) permutation. Rank < 2: plain upload.
EagerTensor upload_strided_view(const std::shared_ptr<EagerRuntime>& runtime, const Tensor& host);

// `result` lives in `device`'s placement, host_view() is refused with HostAccess, and its
// explicit download matches the CPU runtime's einsum of `hosts` (and the naive reference).
void expect_device_einsum_result(const EagerTensor& result,
                                 const std::shared_ptr<EagerRuntime>& device,
                                 const std::shared_ptr<EagerRuntime>& cpu,
                                 std::string_view subscripts, const std::vector<Tensor>& hosts);

}  // namespace tenferro::testing
