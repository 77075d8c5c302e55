// A deliberate leak of ours, run under the ASan build's test environment (Sanitizer.*): the
// test passes only when LeakSanitizer reports exactly these bytes and nothing else. It
// proves that keeping the Vulkan driver loaded (cmake/TenferroSanitizerTestEnv.cmake) removes
// the driver's unreadable reports without turning leak detection off for our code.
#include <cstdio>
#include <exception>

#include "tenferro/config.hpp"
#include "tenferro/tenferro.hpp"

namespace {

constexpr std::size_t kLeakedBytes = 4242;  // the test's regular expression names this size

// Written through a volatile pointer so the allocation cannot be elided, then forgotten.
char* volatile g_last_allocation = nullptr;

[[gnu::noinline]] void leak_on_purpose() {
  g_last_allocation = new char[kLeakedBytes];
  g_last_allocation[0] = 1;
  g_last_allocation = nullptr;
}

// The work that loads (and, at runtime destruction, unloads) the Vulkan driver.
int use_the_webgpu_backend() {
#if TENFERRO_HAS_WEBGPU
  using namespace tenferro;
  auto rt = EagerRuntime::webgpu();
  const EagerTensor x = rt->upload(Tensor::from_row_major<float>({2, 2}, {1, 2, 3, 4}));
  const float trace = einsum("ii->", {x}).download().to_vector<float>().at(0);
  if (trace != 5.0f) {
    std::fprintf(stderr, "leak canary: WebGPU trace is %g, not 5\n", static_cast<double>(trace));
    return 1;
  }
  std::printf("leak canary: WebGPU runtime used (%s)\n", rt->backend().description().c_str());
#else
  std::printf("leak canary: no WebGPU backend in this build\n");
#endif
  return 0;
}

}  // namespace

int main() {
  try {
    if (use_the_webgpu_backend() != 0) return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "leak canary: %s\n", e.what());
    return 1;
  }
  leak_on_purpose();
  std::printf("leak canary: %zu bytes leaked on purpose\n", kLeakedBytes);
  return 0;
}
