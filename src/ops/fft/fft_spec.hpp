// The FFT family's call description: what the user asked for (FftRequest) and the same call
// resolved against an input's dtype and shape (FftSpec): normalized axes, transform lengths,
// the shape the transform reads (after zero-padding/truncation) and the output metadata.
// Resolution is where every NumPy rule and every Validation error of the family lives.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tenferro/core/dtype.hpp"
#include "tenferro/core/shape.hpp"
#include "tenferro/fft.hpp"

namespace tenferro::fft_internal {

// The FFT ops, one row each (enumerator, name): the enum, the op names (admission table,
// errors) and the AD registry's FFT rows come from it. The one-axis ops come first, then their
// n-axis forms in the same order (is_n_axis relies on it).
#define TENFERRO_FFT_OPS(X) \
  X(Fft, fft)               \
  X(Ifft, ifft)             \
  X(Rfft, rfft)             \
  X(Irfft, irfft)           \
  X(Fftn, fftn)             \
  X(Ifftn, ifftn)           \
  X(Rfftn, rfftn)           \
  X(Irfftn, irfftn)
enum class FftOpKind : std::uint8_t {
#define TENFERRO_FFT_ENUMERATOR(Kind, name) Kind,
  TENFERRO_FFT_OPS(TENFERRO_FFT_ENUMERATOR)
#undef TENFERRO_FFT_ENUMERATOR
};
#define TENFERRO_FFT_COUNT(Kind, name) +1
inline constexpr std::size_t kFftOpKindCount = 0 TENFERRO_FFT_OPS(TENFERRO_FFT_COUNT);
#undef TENFERRO_FFT_COUNT
std::string_view op_kind_name(FftOpKind kind);  // "fft", ..., "irfftn"
bool parse_op_kind(std::string_view text, FftOpKind& out);

// Complex-to-complex, real-to-complex (one-sided output) or complex-to-real.
enum class Transform : std::uint8_t { C2C, R2C, C2R };

// The user's arguments, unresolved (one-axis ops use `n`/`axis`, n-axis ops `s`/`axes`).
struct FftRequest {
  FftOpKind kind = FftOpKind::Fft;
  std::optional<std::int64_t> n;
  std::int64_t axis = -1;
  std::optional<std::vector<std::int64_t>> s;
  std::optional<std::vector<std::int64_t>> axes;
  fft::Norm norm = fft::Norm::Backward;

  friend bool operator==(const FftRequest&, const FftRequest&) = default;
  std::uint64_t hash() const noexcept;
};

struct FftSpec {
  FftOpKind kind = FftOpKind::Fft;
  Transform transform = Transform::C2C;
  bool forward = true;                // sign of the exponent: forward = e^{-2 pi i ...}
  std::vector<std::int64_t> axes;     // normalized; for R2C/C2R the last one is the halved axis
  std::vector<std::int64_t> lengths;  // logical transform length per axis (the real length)
  DType staged_dtype = DType::C64;    // the dtype the transform reads
  Shape staged_shape;                 // the shape the transform reads (after pad/truncate)
  DType out_dtype = DType::C64;
  Shape out_shape;
  double scale = 1.0;  // applied to the output (NumPy's norm)
};

// Resolves `request` for an input of `dtype` and `shape`. Throws Validation (phase Input,
// op = the op's name) for n < 1, an axis out of range, repeated axes, mismatched s/axes or a
// complex input to rfft/rfftn.
FftSpec resolve(const FftRequest& request, DType dtype, const Shape& shape);

}  // namespace tenferro::fft_internal
