// libFuzzer target for the .npy reader. Any input must either parse or throw a
// tenferro::Error; anything else (a crash, a sanitizer report, another exception) is a bug.
// Inputs that parse must also survive serialize -> parse unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>

#include "tenferro/core/npy.hpp"

namespace {

std::span<const std::byte> as_bytes(const std::string& s) {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}

void check_round_trip(const tenferro::Tensor& t) {
  const tenferro::Tensor back = tenferro::npy::parse(as_bytes(tenferro::npy::serialize(t)));
  const bool same =
      back.dtype() == t.dtype() && back.shape() == t.shape() && back.nbytes() == t.nbytes() &&
      (t.nbytes() == 0 || std::memcmp(back.raw_data(), t.raw_data(), t.nbytes()) == 0);
  if (!same) std::abort();  // a parsed tensor must serialize to an image that parses back to it
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const tenferro::Tensor t = tenferro::npy::parse(
        std::span<const std::byte>(reinterpret_cast<const std::byte*>(data), size));
    if (!t.is_compact()) std::abort();  // parse promises compact column-major tensors
    check_round_trip(t);
  } catch (const tenferro::Error&) {
    // Rejected with a typed error: the expected outcome for malformed input.
  }
  return 0;
}
