#include "support/device_result_checks.hpp"

#include <gtest/gtest.h>

#include "support/einsum_reference.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro::testing {

EagerTensor upload_strided_view(const std::shared_ptr<EagerRuntime>& runtime, const Tensor& host) {
  if (host.rank() < 2) return runtime->upload(host);
  std::vector<std::int64_t> reverse(static_cast<std::size_t>(host.rank()));
  for (std::size_t i = 0; i < reverse.size(); ++i) {
    reverse[i] = static_cast<std::int64_t>(reverse.size() - 1 - i);
  }
  return runtime->upload(host.permute(reverse).clone()).permute(reverse);
}

void expect_device_einsum_result(const EagerTensor& result,
                                 const std::shared_ptr<EagerRuntime>& device,
                                 const std::shared_ptr<EagerRuntime>& cpu,
                                 std::string_view subscripts, const std::vector<Tensor>& hosts) {
  EXPECT_EQ(result.placement().memory, MemoryKind::Device);
  EXPECT_EQ(result.placement(), device->backend().placement());
  try {
    (void)result.host_view();
    ADD_FAILURE() << "host_view() of a " << backend_kind_name(device->backend_kind())
                  << " einsum result succeeded";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::HostAccess);
  }
  const Tensor got = result.download();
  std::vector<EagerTensor> on_cpu;
  for (const Tensor& h : hosts) on_cpu.push_back(cpu->upload(h));
  const Tensor want = einsum(subscripts, on_cpu).download();
  const Agreement agreement =
      compare_with_reference(got, {want, reference_einsum(subscripts, hosts).magnitude});
  EXPECT_TRUE(agreement.ok) << agreement.detail;
}

}  // namespace tenferro::testing
