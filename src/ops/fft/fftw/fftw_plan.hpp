// FFTW plans for the FFT family: one guru64 plan per exact spec (kind, precision, sign,
// dims with their strides, batch dims, in-place-ness, the arrays' alignment and the planner's
// thread count), held in the
// runtime's ExtensionCacheStore and executed with the new-array interface. FFTW's planner
// (plan creation and destruction) is not thread-safe, so both run under one process-wide
// mutex; execution of a finished plan is thread-safe and takes no lock.
#pragma once

#include <fftw3.h>

#include <complex>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tenferro/runtime/cache_store.hpp"

namespace tenferro::fft_internal {

using IoDim = fftw_iodim64;  // identical to fftwf_iodim64 (one struct in fftw3.h)

enum class PlanKind : std::uint8_t { C2C, R2C, C2R };

// Everything FFTW's new-array execute requires to match the planned arrays.
struct PlanShape {
  PlanKind kind = PlanKind::C2C;
  int sign = FFTW_FORWARD;   // C2C only
  std::vector<IoDim> dims;   // transformed dims (R2C/C2R: the last one is halved)
  std::vector<IoDim> batch;  // howmany dims
  bool in_place = false;
  int in_alignment = 0;  // fftw_alignment_of(input), fftw_alignment_of(output)
  int out_alignment = 0;
  int threads = 1;  // FFTW's planner threads (see planner_threads)
  std::string key(bool is_double) const;
};

// Transforms of at least this many complex/real points (transformed extents times batch) are
// planned with the host kernel thread budget; smaller ones with one thread, where FFTW's
// thread start costs more than the transform (2^12 points: 14 us alone, 98 us on two threads).
inline constexpr std::int64_t kThreadedFftPoints = std::int64_t{1} << 17;
// The thread count a transform of `shape` is planned with.
int planner_threads(const PlanShape& shape);

std::mutex& fftw_planner_mutex();

// Per-precision wrappers over the fftw_ / fftwf_ APIs.
template <class R>
struct Fftw;

template <>
struct Fftw<double> {
  using Plan = fftw_plan;
  using Complex = fftw_complex;
  static int alignment_of(const void* p);
  static Plan plan(const PlanShape& shape, void* in, void* out, unsigned flags);
  static void execute(const PlanShape& shape, Plan plan, void* in, void* out);
  static void destroy(Plan plan);
  static void plan_with_threads(int threads);  // for the next plans (planner mutex held)
  static int planner_threads();                // the current setting (planner mutex held)
};

template <>
struct Fftw<float> {
  using Plan = fftwf_plan;
  using Complex = fftwf_complex;
  static int alignment_of(const void* p);
  static Plan plan(const PlanShape& shape, void* in, void* out, unsigned flags);
  static void execute(const PlanShape& shape, Plan plan, void* in, void* out);
  static void destroy(Plan plan);
  static void plan_with_threads(int threads);  // for the next plans (planner mutex held)
  static int planner_threads();                // the current setting (planner mutex held)
};

// An FFTW plan owned by the cache store; destroyed under the planner mutex.
template <class R>
class FftwPlan {
 public:
  FftwPlan(PlanShape shape, typename Fftw<R>::Plan plan) : shape_(std::move(shape)), plan_(plan) {}
  ~FftwPlan() {
    std::lock_guard lock(fftw_planner_mutex());
    Fftw<R>::destroy(plan_);
  }
  FftwPlan(const FftwPlan&) = delete;
  FftwPlan& operator=(const FftwPlan&) = delete;
  // Runs the plan on new arrays with the planned strides and alignment (thread-safe).
  void execute(void* in, void* out) const { Fftw<R>::execute(shape_, plan_, in, out); }
  typename Fftw<R>::Plan raw() const noexcept { return plan_; }

 private:
  PlanShape shape_;
  typename Fftw<R>::Plan plan_;
};

// The plan for `shape` on arrays `in`/`out` (whose alignments `shape` must carry), from the
// store or freshly planned (FFTW_ESTIMATE: planning never touches the arrays).
template <class R>
std::shared_ptr<const FftwPlan<R>> find_or_make_plan(ExtensionCacheStore& caches,
                                                     const PlanShape& shape, void* in, void* out);

}  // namespace tenferro::fft_internal
