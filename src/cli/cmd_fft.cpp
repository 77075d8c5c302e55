// `tenferro fft OP IN.npy -o OUT.npy [--backend B] [--axis A] [--n N] [--norm NORM]
//  [--axes a,b,...] [--s n1,n2,...]`: one NumPy-style FFT of a .npy file.
#include <iostream>
#include <string>

#include "cli/command_registry.hpp"
#include "ops/fft/fft_spec.hpp"
#include "tenferro/core/npy.hpp"
#include "tenferro/fft.hpp"

namespace tenferro::cli {
namespace {

constexpr const char* kUsage =
    "usage: tenferro fft OP IN.npy -o|--output OUT.npy [--backend cpu|cuda|webgpu]\n"
    "                    [--axis A] [--n N] [--norm backward|forward|ortho]\n"
    "                    [--axes a,b,...] [--s n1,n2,...]\n"
    "  OP: fft ifft rfft irfft (one axis: --axis, --n) or fftn ifftn rfftn irfftn\n"
    "      (several axes: --axes, --s), with NumPy's defaults and normalizations.\n";

std::vector<std::int64_t> to_int64(const std::vector<long long>& v) {
  return {v.begin(), v.end()};
}

int run_fft(CommandArgs& args) {
  if (args.take_flag("help")) {
    std::cout << kUsage;
    return 0;
  }
  const auto output = args.take_output();
  const std::string backend = args.take_option("backend").value_or("cpu");
  const auto axis_text = args.take_option("axis");
  const auto n_text = args.take_option("n");
  const auto norm_text = args.take_option("norm");
  const auto axes_text = args.take_option("axes");
  const auto s_text = args.take_option("s");
  const auto positionals = args.positionals();
  if (positionals.size() != 2) throw UsageError(std::string("fft needs OP and IN.npy\n") + kUsage);
  if (!output) throw UsageError("fft needs -o OUT.npy");

  fft_internal::FftOpKind kind{};
  if (!fft_internal::parse_op_kind(positionals[0], kind)) {
    throw UsageError("unknown fft op '" + positionals[0] +
                     "': use fft ifft rfft irfft fftn ifftn rfftn irfftn");
  }
  fft::Norm norm = fft::Norm::Backward;
  if (norm_text && !fft::parse_norm(*norm_text, norm)) {
    throw UsageError("--norm must be backward, forward or ortho, not '" + *norm_text + "'");
  }
  const bool n_axis = static_cast<int>(kind) >= static_cast<int>(fft_internal::FftOpKind::Fftn);
  if (n_axis && (axis_text || n_text)) {
    throw UsageError(positionals[0] + " takes --axes and --s, not --axis or --n");
  }
  if (!n_axis && (axes_text || s_text)) {
    throw UsageError(positionals[0] + " takes --axis and --n, not --axes or --s");
  }

  auto runtime = args.make_runtime(backend);
  const EagerTensor x = runtime->upload(npy::load(positionals[1]));
  EagerTensor y;
  if (!n_axis) {
    const std::int64_t axis = axis_text ? parse_int("--axis", *axis_text) : -1;
    std::optional<std::int64_t> n;
    if (n_text) n = parse_int("--n", *n_text);
    switch (kind) {
      case fft_internal::FftOpKind::Fft:
        y = fft::fft(x, n, axis, norm);
        break;
      case fft_internal::FftOpKind::Ifft:
        y = fft::ifft(x, n, axis, norm);
        break;
      case fft_internal::FftOpKind::Rfft:
        y = fft::rfft(x, n, axis, norm);
        break;
      default:
        y = fft::irfft(x, n, axis, norm);
        break;
    }
  } else {
    fft::Lengths axes, s;
    if (axes_text) axes = to_int64(parse_int_list("--axes", *axes_text));
    if (s_text) s = to_int64(parse_int_list("--s", *s_text));
    switch (kind) {
      case fft_internal::FftOpKind::Fftn:
        y = fft::fftn(x, s, axes, norm);
        break;
      case fft_internal::FftOpKind::Ifftn:
        y = fft::ifftn(x, s, axes, norm);
        break;
      case fft_internal::FftOpKind::Rfftn:
        y = fft::rfftn(x, s, axes, norm);
        break;
      default:
        y = fft::irfftn(x, s, axes, norm);
        break;
    }
  }
  npy::save(*output, y.download());
  return 0;
}

}  // namespace
}  // namespace tenferro::cli

TENFERRO_REGISTER_COMMAND(fft, "NumPy-style FFTs of a .npy file (fft ifft rfft irfft fftn ...)",
                          tenferro::cli::run_fft);
